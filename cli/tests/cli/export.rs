//! `gdvariant export`: Parquet, Arrow, CSV and JSON Lines, read back; the same bytes whatever
//! `--jobs` is; rows that do not fit the schema counted and kept aside.

use gdvariant::framing::{FrameWriter, LengthPrefix};
use gdvariant::{EncodeOptions, Writer};
use gdvariant_arrow::arrow_array::cast::AsArray;
use gdvariant_arrow::arrow_array::types::{Float32Type, Int64Type};
use gdvariant_arrow::parquet_crate::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::records::events_dump;
use crate::support::*;

/// Exports `dump` to `format` with `--jobs 1`, `2` and `3` and small chunks; asserts the same
/// file and messages each time; returns the file's bytes and standard error.
fn export_any_jobs(dump: &std::path::Path, format: &str, extra: &[&str]) -> (Vec<u8>, String) {
    let out = dump.with_extension(format);
    let run_with = |jobs: &str| {
        let mut args =
            vec!["export", dump.to_str().unwrap(), "--to", format, "-o", out.to_str().unwrap()];
        args.extend(["--jobs", jobs, "--chunk-frames", "9"]);
        args.extend(extra);
        let output = run(&args);
        assert!(matches!(code(&output), 0 | 1), "{}", stderr(&output));
        (std::fs::read(&out).unwrap(), stderr(&output))
    };
    let one = run_with("1");
    for jobs in ["2", "3"] {
        assert!(run_with(jobs) == one, "{format}: --jobs {jobs} wrote other bytes");
    }
    one
}

#[test]
fn every_format_is_the_same_bytes_whatever_the_jobs_and_reads_back() {
    let dump = events_dump("export", 100);
    let (parquet, messages) = export_any_jobs(&dump, "parquet", &["--frame-columns"]);
    assert!(messages.contains("100 rows written"), "{messages}");
    let reader = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(parquet))
        .unwrap()
        .build()
        .unwrap();
    let mut ids = Vec::new();
    let mut xs = Vec::new();
    let mut row_groups = 0;
    for batch in reader {
        let batch = batch.unwrap();
        row_groups += 1;
        let names: Vec<_> = batch.schema().fields().iter().map(|f| f.name().clone()).collect();
        assert_eq!(names, ["_frame", "_offset", "id", "kind", "pos", "note"]);
        ids.extend(batch.column(2).as_primitive::<Int64Type>().values().iter().copied());
        let pos = batch.column(4).as_struct();
        xs.extend(pos.column(0).as_primitive::<Float32Type>().values().iter().copied());
    }
    assert!(row_groups >= 1);
    assert_eq!(ids, (0..100).collect::<Vec<i64>>());
    assert_eq!(xs, (0..100).map(|i| i as f32 * 0.5).collect::<Vec<_>>());

    let (csv, _) = export_any_jobs(&dump, "csv", &[]);
    let csv = String::from_utf8(csv).unwrap();
    assert!(csv.starts_with("id,kind,pos.x,pos.y,note\n0,move,0.0,-1.0,\"line one\n"), "{csv}");
    assert!(csv.contains("\n1,attack,0.5,-1.0,\n"), "{csv}");

    let (jsonl, _) = export_any_jobs(&dump, "jsonl", &["--columns", "id,kind,pos.x"]);
    let lines: Vec<_> = String::from_utf8(jsonl).unwrap().lines().map(parse_json).collect();
    // Paths go through dictionaries: `pos.x` (inside a Vector2) finds nothing.
    assert_eq!(lines[3], serde_json::json!({"id": 3, "kind": "move", "pos.x": null}));

    let (arrow, _) = export_any_jobs(&dump, "arrow", &[]);
    assert!(arrow.starts_with(b"ARROW1"));
}

#[test]
fn rows_that_do_not_fit_are_counted_and_kept_aside() {
    // 20 frames {"n": int}, then {"n": "text"} and {"n": 1, "new": 2}: the schema, inferred
    // from the first 20, has one Int64 column.
    let mut frames = FrameWriter::new(Vec::new(), LengthPrefix::store_var(false));
    let mut misfits = Vec::new();
    for i in 0..22 {
        let mut w = Writer::new(Vec::new(), EncodeOptions::godot4());
        w.begin_dictionary(if i == 21 { 2 } else { 1 }).unwrap();
        w.string("n").unwrap();
        if i == 20 {
            w.string("text").unwrap()
        } else {
            w.int(i).unwrap()
        }
        if i == 21 {
            w.string("new").unwrap();
            w.int(2).unwrap();
        }
        let value = w.finish().unwrap();
        if i >= 20 {
            misfits.push(value.clone());
        }
        frames.write_frame(&value).unwrap();
    }
    let dump =
        std::env::temp_dir().join(format!("gdvariant-cli-{}-misfits.bin", std::process::id()));
    std::fs::write(&dump, frames.into_inner()).unwrap();
    let rejects = dump.with_extension("rejects");
    let (csv, messages) = export_any_jobs(
        &dump,
        "csv",
        &["--infer-rows", "20", "--rejects", rejects.to_str().unwrap()],
    );
    assert_eq!(String::from_utf8(csv).unwrap().lines().count(), 1 + 20);
    assert!(messages.contains("20 rows written"), "{messages}");
    assert!(messages.contains("2 rows rejected (the first: frame 20 at offset"), "{messages}");
    let mut expected = FrameWriter::new(Vec::new(), LengthPrefix::store_var(false));
    for value in misfits {
        expected.write_frame(&value).unwrap();
    }
    assert_eq!(std::fs::read(&rejects).unwrap(), expected.into_inner());
}
