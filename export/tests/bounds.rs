//! The export's work on hostile rows, counted (the library's feature `work-counter`): deep
//! nesting, lists nested to the schema's limit, dictionaries too wide for a struct. Inferring the
//! schema and building a batch stay within a constant factor of validating the same frames,
//! and grow linearly with them.
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
