//! Whole-value traversals read each byte a bounded number of times, whatever the nesting:
//! work counted (feature `work-counter`) on generated worst cases at two sizes.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use common::work::{assert_linear, units, validate_units};
use gdvariant::{EncodeOptions, Options, Writer, view::Cursor};

/// `depth` arrays of one element around an array of `width` ints, then the same again as a
/// dictionary value (the writer closes each container after its last child): the shape that makes per-level re-walks cost O(bytes x depth).
pub fn deep_around_wide(depth: usize, width: usize) -> Vec<u8> {
    let mut writer = Writer::new(Vec::new(), EncodeOptions::godot4());
    writer.begin_array(2).unwrap();
    for _ in 0..depth {
        writer.begin_array(1).unwrap();
    }
    writer.begin_array(width).unwrap();
    for i in 0..width {
        writer.int(i as i64).unwrap();
    }
    for _ in 0..depth {
        writer.begin_dictionary(1).unwrap();
        writer.string("k").unwrap();
    }
    writer.begin_array(width).unwrap();
    for i in 0..width {
        writer.string(if i % 2 == 0 { "even" } else { "odd" }).unwrap();
    }
    writer.finish().unwrap()
}

/// Every event of a cursor over the value.
fn stream(bytes: &[u8], options: Options) {
    for event in Cursor::new(bytes, options) {
        event.unwrap();
    }
}

#[test]
fn the_cursor_reads_each_byte_once_at_any_depth() {
    let options = Options::godot4();
    // Depth grows with the input too: both are read once.
    assert_linear(
        "cursor, depth and width",
        2_000,
        3,
        |n| (deep_around_wide((n / 10).min(1000), n), options),
        stream,
    );
    let bytes = deep_around_wide(1000, 50_000);
    let streamed = units(|| stream(&bytes, options));
    assert!(streamed <= 2 * validate_units(&bytes, options), "{streamed}");
}

/// Every step of `Cursor::next_read` over the value.
fn read_all(bytes: &[u8], options: Options) {
    let mut cursor = Cursor::new(bytes, options);
    while let Some(step) = cursor.next_read() {
        step.unwrap();
    }
}

#[test]
fn next_read_reads_each_byte_once_at_any_depth() {
    let options = Options::godot4();
    assert_linear(
        "next_read, depth and width",
        2_000,
        3,
        |n| (deep_around_wide((n / 10).min(1000), n), options),
        read_all,
    );
    let bytes = deep_around_wide(1000, 50_000);
    let read = units(|| read_all(&bytes, options));
    assert!(read <= 2 * validate_units(&bytes, options), "{read}");
}

#[test]
fn json_reads_each_byte_once_at_any_depth() {
    let options = Options::godot4();
    assert_linear(
        "json",
        2_000,
        3,
        |n| (deep_around_wide((n / 10).min(1000), n), options),
        |bytes, options| {
            gdvariant::json::to_json(gdvariant::parse(bytes, options).unwrap()).unwrap();
        },
    );
}

/// The measure is not vacuous: visiting the same value by iterating each container found by
/// the iterators (which walk every element to find its end) costs a factor of the depth more.
#[test]
fn iterating_nested_containers_level_by_level_costs_a_factor_of_the_depth() {
    fn visit(value: gdvariant::VariantRef<'_>) {
        match value {
            gdvariant::VariantRef::Array(array) => array.iter().for_each(|v| visit(v.unwrap())),
            gdvariant::VariantRef::Dictionary(dictionary) => {
                dictionary.iter().for_each(|e| visit(e.unwrap().1));
            }
            _ => {}
        }
    }
    let options = Options::godot4();
    let bytes = deep_around_wide(200, 5_000);
    let per_level = common::with_big_stack(move || {
        let bytes = bytes;
        (
            units(|| visit(gdvariant::parse(&bytes, options).unwrap())),
            validate_units(&bytes, options),
        )
    });
    assert!(per_level.0 > 50 * per_level.1, "{per_level:?}");
}

#[test]
fn a_tape_is_built_and_visited_in_one_pass() {
    let options = Options::godot4();
    assert_linear(
        "tape",
        2_000,
        3,
        |n| (deep_around_wide((n / 10).min(1000), n), options),
        |bytes, options| {
            let tape = gdvariant::view::Tape::new(bytes, options).unwrap();
            let mut pending = vec![tape.root()];
            let mut seen = 0usize;
            while let Some(part) = pending.pop() {
                seen += 1;
                let _ = part.value();
                pending.extend(part.children());
            }
            assert_eq!(seen, tape.len());
        },
    );
}

/// Godot 4 dictionaries nested as keys `depth` deep: `{{{...}: 1}: 1}`, each level's key holding
/// the rest, so a printer that reads each key's forms per level reads the rest once per level.
pub fn dictionaries_as_keys(depth: usize) -> Vec<u8> {
    let mut writer = Writer::new(Vec::new(), EncodeOptions::godot4());
    for _ in 0..depth {
        writer.begin_dictionary(1).unwrap();
    }
    writer.begin_dictionary(0).unwrap();
    for _ in 0..depth {
        writer.int(1).unwrap();
    }
    writer.finish().unwrap()
}

#[test]
fn text_reads_each_byte_a_bounded_number_of_times_at_any_depth() {
    let options = Options::godot4();
    for version in [gdvariant::Version::Godot3, gdvariant::Version::Godot4] {
        let print = move |bytes: &[u8], options: Options| {
            let value = gdvariant::parse(bytes, options).unwrap();
            gdvariant::text::to_text_as(value, version).unwrap();
        };
        assert_linear(
            "text, depth and width",
            2_000,
            32,
            |n| (deep_around_wide((n / 10).min(1000), n), options),
            print,
        );
    }
}

/// Keys nested inside keys: each part inside a key is numbered for key equality once for the
/// whole printing, and read for Godot's `<` for one dictionary at most.
#[test]
fn text_of_dictionaries_nested_as_keys_is_linear() {
    let options = Options::godot4();
    for version in [gdvariant::Version::Godot3, gdvariant::Version::Godot4] {
        let print = move |bytes: &[u8], options: Options| {
            gdvariant::text::to_text_as(gdvariant::parse(bytes, options).unwrap(), version)
                .unwrap();
        };
        let m = assert_linear(
            "text, dictionaries as keys",
            200,
            16,
            |n| (dictionaries_as_keys(n.min(1000)), options),
            print,
        );
        eprintln!("text, dictionaries as keys: {m:?}");
        let m = assert_linear(
            "text, wide keys inside keys",
            200,
            16,
            |n| (wide_keys_inside_keys(n / 2, 20), options),
            print,
        );
        eprintln!("text, wide keys inside keys: {m:?}");
    }
}

/// `depth` dictionaries nested as keys, each key also holding arrays nested as keys and a wide
/// array: `{[{[...]: 1, "w": [0, 1, ...]}]: 1}`, so that every level's key forms reach into
/// every level below.
pub fn wide_keys_inside_keys(depth: usize, width: usize) -> Vec<u8> {
    let mut writer = Writer::new(Vec::new(), EncodeOptions::godot4());
    for _ in 0..depth {
        writer.begin_dictionary(2).unwrap();
        writer.begin_array(1).unwrap();
    }
    writer.begin_array(0).unwrap();
    for level in 0..depth {
        writer.int(1).unwrap();
        writer.string("w").unwrap();
        writer.begin_array(width).unwrap();
        for i in 0..width {
            writer.int((i + level) as i64).unwrap();
        }
    }
    writer.finish().unwrap()
}

/// A dictionary of `count` keys, each a dictionary nested `depth` deep as a key of a key (the
/// natural writer writes such keys as their lossless text, then passes over them).
fn keys_in_keys(count: usize, depth: usize) -> Vec<u8> {
    let mut writer = Writer::new(Vec::new(), EncodeOptions::godot4());
    writer.begin_dictionary(count).unwrap();
    for i in 0..count {
        for _ in 0..depth {
            writer.begin_dictionary(1).unwrap();
        }
        writer.int(i as i64).unwrap();
        for _ in 0..depth {
            writer.string("v").unwrap();
        }
        writer.string("value").unwrap();
    }
    writer.finish().unwrap()
}

#[test]
fn natural_json_reads_each_byte_a_bounded_number_of_times() {
    let options = Options::godot4();
    let natural = |bytes: &[u8], options| {
        gdvariant::json::to_natural_json(gdvariant::parse(bytes, options).unwrap()).unwrap();
    };
    assert_linear(
        "natural json, depth and width",
        2_000,
        12,
        |n| (deep_around_wide((n / 10).min(1000), n), options),
        natural,
    );
    assert_linear(
        "natural json, keys nested in keys",
        50,
        16,
        |n| (keys_in_keys(n, 1000), options),
        natural,
    );
}
