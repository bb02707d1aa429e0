//! The export's work on hostile rows, counted (feature `work-counter`): deep nesting, lists
//! nested to the schema's limit, dictionaries too wide for a struct, rows of many different key
//! sets (the schema widening row after row), rows that do not fit (each cut back), and the CSV
//! of the batch. Inferring the schema, building a batch and writing its CSV stay within a
//! constant factor of validating the same frames, and grow linearly with them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use gdvariant::framing::{self, Frame, FrameWriter, LengthPrefix};
use gdvariant::{EncodeOptions, Options, Writer};
use gdvariant_arrow::{BatchBuilder, ExportSchema, Layout};

/// A dump of `rows` frames, each `{"a": <value written by build>}`.
fn dump(rows: usize, build: impl Fn(&mut Writer<Vec<u8>>, usize)) -> Vec<u8> {
    let mut frames = FrameWriter::new(Vec::new(), LengthPrefix::store_var(false));
    for i in 0..rows {
        let mut w = Writer::new(Vec::new(), EncodeOptions::godot4());
        w.begin_dictionary(1).unwrap();
        w.string("a").unwrap();
        build(&mut w, i);
        frames.write_frame(&w.finish().unwrap()).unwrap();
    }
    frames.into_inner()
}

/// Arrays nested `depth` deep around `width` ints.
fn nested(w: &mut Writer<Vec<u8>>, depth: usize, width: usize) {
    for _ in 0..depth {
        w.begin_array(1).unwrap();
    }
    w.begin_array(width).unwrap();
    for i in 0..width {
        w.int(i as i64).unwrap();
    }
}

/// Units of work to validate every frame, and to infer the schema from every frame and build
/// one batch of them.
fn measure(bytes: &[u8]) -> (u64, u64) {
    let (prefix, options) = (LengthPrefix::store_var(false), Options::godot4());
    let ((), validate) = gdvariant::work::measure(|| {
        for frame in framing::frames(bytes, prefix, options) {
            frame.unwrap();
        }
    });
    let frames: Vec<Frame<'_>> =
        framing::frames(bytes, prefix, options).collect::<Result<_, _>>().unwrap();
    let ((), export) = gdvariant::work::measure(|| {
        let schema = ExportSchema::infer(Layout::default(), frames.iter().map(|f| f.value()));
        let mut batch = BatchBuilder::new(&schema);
        for (i, frame) in frames.iter().enumerate() {
            batch.push_frame(i as u64, frame);
        }
        let (batch, rejected) = batch.finish().unwrap();
        assert_eq!((batch.num_rows(), rejected.len()), (frames.len(), 0));
        let mut csv = Vec::new();
        gdvariant_arrow::csv::write_rows(&batch, &mut csv);
        assert!(csv.len() >= frames.len());
    });
    (validate, export)
}

/// The export's work on `make(n)` and `make(4n)`: within `factor` times validation's, and
/// growing at most 6x.
fn assert_linear(name: &str, n: usize, factor: u64, make: impl Fn(usize) -> Vec<u8>) {
    let (small, large) = (make(n), make(4 * n));
    let (v1, e1) = measure(&small);
    let (v4, e4) = measure(&large);
    eprintln!("{name}: validate {v1} / {v4}, export {e1} / {e4}");
    assert!(
        e1 <= factor * v1 + 10_000 && e4 <= factor * v4 + 10_000,
        "{name}: {e1} {e4} vs {v1} {v4}"
    );
    assert!(e4 <= 6 * e1, "{name}: {e1} then {e4} for 4x the input");
}

#[test]
fn values_nested_past_the_schemas_limit_are_one_pass_of_json() {
    // 1,000 levels: the column is JSON, written by one cursor pass.
    assert_linear("deep", 4, 24, |n| dump(n, |w, _| nested(w, 1000, 2000)));
}

#[test]
fn lists_nested_to_the_schemas_limit_cost_a_bounded_factor() {
    // 7 levels of lists (the schema's limit is 8): each level re-walks its elements once.
    assert_linear("lists", 50, 40, |n| dump(n, |w, _| nested(w, 7, 500)));
}

#[test]
fn dictionaries_too_wide_for_a_struct_are_json() {
    assert_linear("wide", 10, 24, |n| {
        dump(n, |w, i| {
            w.begin_dictionary(1000).unwrap();
            for k in 0..1000 {
                w.string(&format!("k{}", k + i)).unwrap();
                w.int(k as i64).unwrap();
            }
        })
    });
}

/// A dump of `rows` frames, each a dictionary written by `build(writer, row)`.
fn rows(rows: usize, build: impl Fn(&mut Writer<Vec<u8>>, usize)) -> Vec<u8> {
    let mut frames = FrameWriter::new(Vec::new(), LengthPrefix::store_var(false));
    for i in 0..rows {
        let mut w = Writer::new(Vec::new(), EncodeOptions::godot4());
        build(&mut w, i);
        frames.write_frame(&w.finish().unwrap()).unwrap();
    }
    frames.into_inner()
}

#[test]
fn rows_of_many_different_key_sets_widen_the_schema_in_linear_work() {
    // Each row has 200 keys of equal length in its own order, a third of them new: the
    // union passes 256 fields (the rows become one JSON column) after a few rows...
    assert_linear("widening past the limit", 20, 24, |n| {
        rows(n, |w, i| {
            w.begin_dictionary(200).unwrap();
            for j in 0..200 {
                w.string(&format!("key{:05}", (j * 7 + i * 67) % 100_000)).unwrap();
                w.int(j as i64).unwrap();
            }
        })
    });
    // ...and within it: 250 fields, every row naming them in another order (each row's keys
    // compared with every field's name would be 250 x 250 comparisons a row).
    assert_linear("widening within the limit", 20, 24, |n| {
        rows(n, |w, i| {
            w.begin_dictionary(125).unwrap();
            for j in 0..125 {
                w.string(&format!("key{:05}", (j * 2 + i) % 250)).unwrap();
                w.float(j as f64 + 0.5).unwrap();
            }
        })
    });
}

#[test]
fn structs_nested_to_the_schemas_limit() {
    // Dictionaries 7 levels deep, each level wide: struct columns inside struct columns.
    assert_linear("nested structs", 20, 40, |n| {
        rows(n, |w, i| {
            for _ in 0..7 {
                w.begin_dictionary(2).unwrap();
                w.string("x").unwrap();
                w.int(i as i64).unwrap();
                w.string("next").unwrap();
            }
            w.begin_array(50).unwrap();
            for k in 0..50 {
                w.string(&format!("\"{k}\",\n")).unwrap();
            }
        })
    });
}

/// Units to infer a schema from `sample`, then to push every frame of `bytes` (rejecting the
/// misfits) and finish the batch; validation's of `bytes`; the rows and misfits.
fn measure_misfits(sample: &[u8], bytes: &[u8]) -> (u64, u64, usize, usize) {
    let (prefix, options) = (LengthPrefix::store_var(false), Options::godot4());
    let ((), validate) = gdvariant::work::measure(|| {
        for frame in framing::frames(bytes, prefix, options) {
            frame.unwrap();
        }
    });
    let sample: Vec<Frame<'_>> =
        framing::frames(sample, prefix, options).collect::<Result<_, _>>().unwrap();
    let schema = ExportSchema::infer(Layout::default(), sample.iter().map(|f| f.value()));
    let frames: Vec<Frame<'_>> =
        framing::frames(bytes, prefix, options).collect::<Result<_, _>>().unwrap();
    let ((rows, misfits), export) = gdvariant::work::measure(|| {
        let mut batch = BatchBuilder::new(&schema);
        for (i, frame) in frames.iter().enumerate() {
            batch.push_frame(i as u64, frame);
        }
        let (batch, rejected) = batch.finish().unwrap();
        (batch.num_rows(), rejected.len())
    });
    (validate, export, rows, misfits)
}

#[test]
fn rows_that_do_not_fit_are_cut_back_in_linear_work() {
    // The schema: 100 int columns, then rows that fill 99 of them and fail on the last key
    // (a string where an int is due, or a key the schema lacks), each cut back.
    let sample = rows(1, |w, _| {
        w.begin_dictionary(100).unwrap();
        for j in 0..100 {
            w.string(&format!("c{j}")).unwrap();
            w.int(j).unwrap();
        }
    });
    let misfits = |n: usize| {
        rows(n, |w, i| {
            w.begin_dictionary(100).unwrap();
            for j in 0..99 {
                w.string(&format!("c{}", (j + i) % 99)).unwrap();
                w.int(j as i64).unwrap();
            }
            if i % 2 == 0 {
                w.string("c99").unwrap();
                w.string("not an int").unwrap();
            } else {
                w.string("unknown").unwrap();
                w.int(0).unwrap();
            }
        })
    };
    let (small, large) = (misfits(100), misfits(400));
    let (v1, e1, rows1, bad1) = measure_misfits(&sample, &small);
    let (v4, e4, rows4, bad4) = measure_misfits(&sample, &large);
    eprintln!("misfits: validate {v1} / {v4}, export {e1} / {e4}");
    assert_eq!((rows1, bad1, rows4, bad4), (0, 100, 0, 400));
    assert!(e1 <= 8 * v1 && e4 <= 8 * v4, "{e1} {e4} vs {v1} {v4}");
    assert!(e4 <= 6 * e1, "{e1} then {e4} for 4x the rows");
}
