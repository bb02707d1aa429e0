//! `gdvariant export`: Parquet, Arrow, CSV and JSON Lines, read back; the same bytes whatever
//! `--jobs` is; rows that do not fit the schema counted and kept aside.

use gdvariant::framing::{FrameWriter, LengthPrefix};
use gdvariant::{EncodeOptions, Writer};
use gdvariant_arrow::arrow_array::Array;
use gdvariant_arrow::arrow_array::cast::AsArray;
use gdvariant_arrow::arrow_array::types::{Float32Type, Float64Type, Int64Type};
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
    assert!(csv.starts_with("id,kind,pos/x,pos/y,note\n0,move,0.0,-1.0,\"line one\n"), "{csv}");
    assert!(csv.contains("\n1,attack,0.5,-1.0,\n"), "{csv}");

    let (jsonl, _) = export_any_jobs(&dump, "jsonl", &["--columns", "id,kind,pos/x"]);
    let lines: Vec<_> = String::from_utf8(jsonl).unwrap().lines().map(parse_json).collect();
    // Paths go through dictionaries and on into a Vector2's components.
    assert_eq!(lines[3], serde_json::json!({"id": 3, "kind": "move", "pos/x": 1.5}));

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
    assert!(
        messages.contains(&format!(
            "2 rows that do not fit the schema rejected into {} (the first: frame 20 at offset",
            rejects.display()
        )),
        "{messages}"
    );
    let mut expected = FrameWriter::new(Vec::new(), LengthPrefix::store_var(false));
    for value in misfits {
        expected.write_frame(&value).unwrap();
    }
    assert_eq!(std::fs::read(&rejects).unwrap(), expected.into_inner());
    let output = run(&[
        "export",
        dump.to_str().unwrap(),
        "--to",
        "csv",
        "-o",
        "-",
        "--infer-rows",
        "20",
        "--rejects",
        rejects.to_str().unwrap(),
    ]);
    assert_eq!(code(&output), 1, "rows were left out: {}", stderr(&output));

    // Inferred from every row (the default), the schema holds them all: `n` becomes JSON
    // (an int, then a string) and `new` a column.
    let (csv, messages) = export_any_jobs(&dump, "csv", &[]);
    assert!(messages.contains("22 rows written"), "{messages}");
    let csv = String::from_utf8(csv).unwrap();
    let lines: Vec<_> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 22);
    assert_eq!(lines[0], "n,new");
    assert_eq!(lines[21], "\"\"\"text\"\"\",");
    assert_eq!(lines[22], "21,2");
}

/// `count` frames `{"id": i, "v": i}`; from frame `late` on, `v` is a float (`i + 0.5`) and a
/// key `late` (`i * 10`) comes last.
fn late_key_dump(dir: &std::path::Path, count: i64, late: i64) -> std::path::PathBuf {
    let mut frames = FrameWriter::new(Vec::new(), LengthPrefix::store_var(false));
    for i in 0..count {
        let mut w = Writer::new(Vec::new(), EncodeOptions::godot4());
        w.begin_dictionary(if i >= late { 3 } else { 2 }).unwrap();
        w.string("id").unwrap();
        w.int(i).unwrap();
        w.string("v").unwrap();
        if i >= late {
            w.float(i as f64 + 0.5).unwrap();
            w.string("late").unwrap();
            w.int(i.checked_mul(10).unwrap()).unwrap();
        } else {
            w.int(i).unwrap();
        }
        frames.write_frame(&w.finish().unwrap()).unwrap();
    }
    let path = dir.join("late.bin");
    std::fs::write(&path, frames.into_inner()).unwrap();
    path
}

#[test]
fn a_key_that_appears_after_the_sample_is_exported_in_every_format() {
    let dir = folder("late-key");
    let dump = late_key_dump(&dir, 300, 150);
    let (csv, messages) = export_any_jobs(&dump, "csv", &[]);
    assert!(messages.contains("300 rows written"), "{messages}");
    let csv = String::from_utf8(csv).unwrap();
    let lines: Vec<_> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 300);
    assert_eq!(lines[0], "id,v,late");
    assert_eq!(lines[1], "0,0.0,");
    assert_eq!(lines[151], "150,150.5,1500");
    assert_eq!(lines[300], "299,299.5,2990");

    let (jsonl, _) = export_any_jobs(&dump, "jsonl", &["--columns", "id,late"]);
    let rows: Vec<_> = String::from_utf8(jsonl).unwrap().lines().map(parse_json).collect();
    assert_eq!(rows.len(), 300);
    assert_eq!(rows[149], serde_json::json!({"id": 149, "late": null}));
    assert_eq!(rows[299], serde_json::json!({"id": 299, "late": 2990}));

    let (parquet, _) = export_any_jobs(&dump, "parquet", &[]);
    let reader = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(parquet))
        .unwrap()
        .build()
        .unwrap();
    let (mut late, mut v) = (Vec::new(), Vec::new());
    for batch in reader {
        let batch = batch.unwrap();
        let names: Vec<_> = batch.schema().fields().iter().map(|f| f.name().clone()).collect();
        assert_eq!(names, ["id", "v", "late"]);
        let column = batch.column(2).as_primitive::<Int64Type>();
        late.extend((0..column.len()).map(|i| column.is_valid(i).then(|| column.value(i))));
        v.extend(batch.column(1).as_primitive::<Float64Type>().values().iter().copied());
    }
    let expected: Vec<_> = (0..300).map(|i| (i >= 150).then_some(i * 10)).collect();
    assert_eq!(late, expected);
    assert_eq!(v[10], 10.0);
    assert_eq!(v[200], 200.5);
}

#[test]
fn a_sample_that_misses_rows_fails_unless_skipping_was_asked_for() {
    let dir = folder("late-limit");
    let dump = late_key_dump(&dir, 300, 150);
    let out = dir.join("out.csv");
    let args = |extra: &[&str]| {
        let mut args = vec!["export", dump.to_str().unwrap(), "--to", "csv"];
        args.extend(["-o", out.to_str().unwrap(), "--infer-rows", "100", "--chunk-frames", "9"]);
        args.extend(extra);
        run(&args)
    };
    let failed = args(&[]);
    assert_eq!(code(&failed), 1);
    let message = stderr(&failed);
    assert!(
        message.contains("150 rows do not fit the schema inferred from the first 100 rows"),
        "{message}"
    );
    assert!(message.contains("(the first: frame 150 at offset"), "{message}");
    assert!(message.contains("was not written"), "{message}");
    assert_eq!(names_in(&dir), ["late.bin"], "no output, no temporary file");

    let skipped = args(&["--misfits", "skip"]);
    assert_eq!(code(&skipped), 1, "{}", stderr(&skipped));
    let message = stderr(&skipped);
    assert!(message.contains("150 rows written"), "{message}");
    assert!(message.contains("150 rows that do not fit the schema skipped"), "{message}");
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 1 + 150);

    let rejects = dir.join("rejects.bin");
    let rejected = args(&["--rejects", rejects.to_str().unwrap()]);
    assert_eq!(code(&rejected), 1, "{}", stderr(&rejected));
    assert!(stderr(&rejected).contains("150 rows that do not fit the schema rejected into"));
    let frames = run(&["frames", rejects.to_str().unwrap()]);
    assert_eq!(stdout(&frames).lines().count(), 1 + 150, "{}", stderr(&frames));

    // A column the sample does not have could never be filled: refused, naming the sample.
    let refused = args(&["--columns", "id,late"]);
    assert_eq!(code(&refused), 1, "{}", stderr(&refused));
    let message = stderr(&refused);
    assert!(message.contains("none of the first 100 rows has a value at \"late\""), "{message}");

    let usage = args(&["--misfits", "reject"]);
    assert_eq!(code(&usage), 2, "{}", stderr(&usage));
    let usage = args(&["--misfits", "skip", "--rejects", rejects.to_str().unwrap()]);
    assert_eq!(code(&usage), 2, "{}", stderr(&usage));
}

#[test]
fn dash_streams_to_standard_output() {
    let dump = events_dump("export-dash", 40);
    for format in ["csv", "jsonl"] {
        let (file, _) = export_any_jobs(&dump, format, &[]);
        let output = run(&["export", dump.to_str().unwrap(), "--to", format, "-o", "-"]);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        assert_eq!(output.stdout, file, "{format}");
        assert!(stderr(&output).contains("40 rows written to standard output"));
    }
    // The binary formats need no seeking: a pipe gets the same bytes.
    let (file, _) = export_any_jobs(&dump, "parquet", &[]);
    let output = run(&[
        "export",
        dump.to_str().unwrap(),
        "--to",
        "parquet",
        "-o",
        "-",
        "--chunk-frames",
        "9",
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(output.stdout, file);
}

#[test]
fn a_failed_export_leaves_an_existing_file_as_it_was() {
    let dir = folder("keep-existing");
    let out = dir.join("out.csv");
    std::fs::write(&out, b"precious\n").unwrap();
    let not_a_dump = dir.join("notes.txt");
    std::fs::write(&not_a_dump, b"these are my notes, not a dump\n").unwrap();
    let empty = dir.join("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    for input in [&not_a_dump, &empty] {
        let output =
            run(&["export", input.to_str().unwrap(), "--to", "csv", "-o", out.to_str().unwrap()]);
        assert_eq!(code(&output), 1, "{}", stderr(&output));
        assert_eq!(std::fs::read(&out).unwrap(), b"precious\n");
        assert_eq!(names_in(&dir), ["empty.bin", "notes.txt", "out.csv"]);
    }
    // A dump whose rows do not fit a limited sample: also refused, the file kept.
    let dump = late_key_dump(&dir, 30, 20);
    let args = ["export", dump.to_str().unwrap(), "--to", "parquet", "-o", out.to_str().unwrap()];
    let output = run(&[&args[..], &["--infer-rows", "5"]].concat());
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    assert_eq!(std::fs::read(&out).unwrap(), b"precious\n");
    assert_eq!(names_in(&dir), ["empty.bin", "late.bin", "notes.txt", "out.csv"]);
    // A successful export replaces it, and leaves nothing else.
    let output = run(&args);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(std::fs::read(&out).unwrap().starts_with(b"PAR1"));
    assert_eq!(names_in(&dir), ["empty.bin", "late.bin", "notes.txt", "out.csv"]);
}

#[test]
fn a_closed_pipe_ends_the_export_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let dump = events_dump("export-pipe", 20_000);
    for target in ["-", "/dev/stdout"] {
        for format in ["csv", "parquet"] {
            let mut child = Command::new(env!("CARGO_BIN_EXE_gdvariant"))
                .args(["export", dump.to_str().unwrap(), "--to", format, "-o", target])
                .args(["--chunk-frames", "500"])
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let mut reader = child.stdout.take().unwrap();
            let mut start = [0u8; 16];
            reader.read_exact(&mut start).unwrap();
            drop(reader);
            let output = child.wait_with_output().unwrap();
            assert_eq!(code(&output), 0, "{target} {format}: {}", stderr(&output));
            assert_eq!(stderr(&output), "", "{target} {format}");
        }
    }
    assert!(std::fs::symlink_metadata("/dev/stdout").is_ok(), "/dev/stdout is still there");
}

#[test]
fn columns_are_paths_as_in_get_and_where() {
    let dump = events_dump("export-columns", 10);
    let (csv, _) = export_any_jobs(&dump, "csv", &["--columns", "pos/x,id"]);
    let csv = String::from_utf8(csv).unwrap();
    let lines: Vec<_> = csv.lines().collect();
    assert_eq!(lines[0], "pos/x,id");
    assert_eq!(lines[4], "1.5,3");

    // A header's name selects that column again.
    let (all, _) = export_any_jobs(&dump, "csv", &[]);
    let all = String::from_utf8(all).unwrap();
    let header = all.lines().next().unwrap().to_owned();
    let (again, _) = export_any_jobs(&dump, "csv", &["--columns", &header]);
    let again = String::from_utf8(again).unwrap();
    assert_eq!(again.lines().next().unwrap(), header);
    assert_eq!(again.lines().nth(2), all.lines().nth(2));

    let (parquet, _) = export_any_jobs(&dump, "parquet", &["--columns", "pos/y"]);
    let reader = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(parquet))
        .unwrap()
        .build()
        .unwrap();
    for batch in reader {
        let batch = batch.unwrap();
        assert_eq!(batch.schema().field(0).name(), "pos/y");
        assert!(batch.column(0).as_primitive::<Float32Type>().values().iter().all(|y| *y == -1.0));
    }

    let out = dump.with_extension("nosuch.csv");
    for (columns, wanted) in [("id,nosuch", "\"nosuch\""), ("pos.x", "did you mean \"pos/x\"?")] {
        let output = run(&[
            "export",
            dump.to_str().unwrap(),
            "--to",
            "csv",
            "-o",
            out.to_str().unwrap(),
            "--columns",
            columns,
        ]);
        assert_eq!(code(&output), 1, "{}", stderr(&output));
        assert!(stderr(&output).contains("no row has a value at"), "{}", stderr(&output));
        assert!(stderr(&output).contains(wanted), "{}", stderr(&output));
        assert!(!out.exists());
    }
    let output =
        run(&["export", dump.to_str().unwrap(), "--to", "csv", "-o", "-", "--columns", "a//b"]);
    assert_eq!(code(&output), 2, "{}", stderr(&output));
}

#[test]
fn a_key_holding_a_comma_or_a_slash_is_quoted() {
    let mut frames = FrameWriter::new(Vec::new(), LengthPrefix::store_var(false));
    for i in 0..3 {
        let mut w = Writer::new(Vec::new(), EncodeOptions::godot4());
        w.begin_dictionary(2).unwrap();
        w.string("a,b").unwrap();
        w.int(i).unwrap();
        w.string("c/d").unwrap();
        w.int(i * 2).unwrap();
        frames.write_frame(&w.finish().unwrap()).unwrap();
    }
    let dir = folder("quoted-keys");
    let dump = dir.join("keys.bin");
    std::fs::write(&dump, frames.into_inner()).unwrap();
    let (csv, _) = export_any_jobs(&dump, "csv", &[]);
    let csv = String::from_utf8(csv).unwrap();
    assert_eq!(csv.lines().next().unwrap(), r#""""a,b""","""c/d""""#);
    let (jsonl, _) = export_any_jobs(&dump, "jsonl", &["--columns", r#""c/d","a,b""#]);
    let rows: Vec<_> = String::from_utf8(jsonl).unwrap().lines().map(parse_json).collect();
    assert_eq!(rows[2], serde_json::json!({"\"c/d\"": 4, "\"a,b\"": 2}));
}
