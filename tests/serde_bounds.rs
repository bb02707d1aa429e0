//! Serde paths read each byte a bounded number of times, whatever the nesting and however keys
//! repeat: work counted (feature `work-counter`) on generated worst cases at two sizes; and the
//! deepest values Godot accepts go through the crate's own paths on a 256 KiB stack.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use common::with_big_stack;
use common::work::{assert_linear, on_small_stack, units};
use gdvariant::{EncodeOptions, Options, Variant, Writer};
use serde::Deserialize;
use serde::de::{MapAccess, SeqAccess, Visitor};

/// `depth` arrays of one element around an array of `width` ints, then the same again as a
/// dictionary value: the shape that makes per-level re-walks cost O(bytes x depth).
fn deep_around_wide(depth: usize, width: usize) -> Vec<u8> {
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

/// A dictionary of `entries` entries whose keys are two-int arrays and one-entry dictionaries
/// (all alike to a cheap hash), each key four times, and whose values are arrays holding the
/// same again one level down, `depth` times.
fn repeated_container_keys(entries: usize, depth: usize) -> Vec<u8> {
    fn level(writer: &mut Writer<Vec<u8>>, entries: usize, depth: usize) {
        writer.begin_dictionary(entries).unwrap();
        for i in 0..entries {
            let key = (i % (entries / 4).max(1)) as i64;
            if i % 2 == 0 {
                writer.begin_array(2).unwrap();
                writer.int(key).unwrap();
                writer.int(7).unwrap();
            } else {
                writer.begin_dictionary(1).unwrap();
                writer.string("k").unwrap();
                writer.int(key).unwrap();
            }
            if depth > 0 && i + 1 == entries {
                writer.begin_array(1).unwrap();
                level(writer, entries, depth - 1);
            } else {
                writer.int(i as i64).unwrap();
            }
        }
    }
    let mut writer = Writer::new(Vec::new(), EncodeOptions::godot4());
    level(&mut writer, entries, depth);
    writer.finish().unwrap()
}

/// A dictionary of 16 entries (the most `from_bytes` reads in one pass) whose keys are `len`
/// bytes long and differ only in their last byte, so that finding repeated keys compares every
/// pair of them to the end; the values are ints.
fn near_equal_long_keys(len: usize) -> Vec<u8> {
    let mut writer = Writer::new(Vec::new(), EncodeOptions::godot4());
    writer.begin_dictionary(16).unwrap();
    for i in 0..16u8 {
        let mut key = "k".repeat(len.max(1));
        key.push(char::from(b'a' + i));
        writer.string(&key).unwrap();
        writer.int(i64::from(i)).unwrap();
    }
    writer.finish().unwrap()
}

/// Dictionaries nested `depth` deep as keys, each level `{inner: 1, [0]: 2, [0]: 3}` (the
/// repeated small key makes every level compare its keys exactly, the big one included), the
/// innermost a dictionary of `width` entries with each key twice.
fn nested_repeated_keys(depth: usize, width: usize) -> Vec<u8> {
    let mut writer = Writer::new(Vec::new(), EncodeOptions::godot4());
    for _ in 0..depth {
        writer.begin_dictionary(3).unwrap();
    }
    writer.begin_dictionary(width).unwrap();
    for i in 0..width {
        writer.int((i / 2) as i64).unwrap();
        writer.int(i as i64).unwrap();
    }
    for _ in 0..depth {
        writer.int(1).unwrap();
        for value in [2, 3] {
            writer.begin_array(1).unwrap();
            writer.int(0).unwrap();
            writer.int(value).unwrap();
        }
    }
    writer.finish().unwrap()
}

/// Any Godot value, as a recursive type of your own would read it.
#[derive(Debug)]
enum Tree {
    Leaf,
    List(Vec<Tree>),
    Map(Vec<(Tree, Tree)>),
}

impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TreeVisitor;
        impl<'de> Visitor<'de> for TreeVisitor {
            type Value = Tree;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("anything")
            }
            fn visit_unit<E>(self) -> Result<Tree, E> {
                Ok(Tree::Leaf)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Tree, E> {
                Ok(Tree::Leaf)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Tree, E> {
                Ok(Tree::Leaf)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Tree, E> {
                Ok(Tree::Leaf)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Tree, E> {
                Ok(Tree::Leaf)
            }
            fn visit_borrowed_str<E>(self, _: &'de str) -> Result<Tree, E> {
                Ok(Tree::Leaf)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tree, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Tree::List(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tree, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Tree::Map(entries))
            }
        }
        deserializer.deserialize_any(TreeVisitor)
    }
}

/// The number of values in a tree.
fn count(tree: &Tree) -> usize {
    let mut pending = vec![tree];
    let mut seen = 0;
    while let Some(tree) = pending.pop() {
        seen += 1;
        match tree {
            Tree::Leaf => {}
            Tree::List(items) => pending.extend(items),
            Tree::Map(entries) => pending.extend(entries.iter().flat_map(|(k, v)| [k, v])),
        }
    }
    seen
}

/// Serializes the parsed value to JSON (lossless form).
fn serialize_ref(bytes: &[u8], options: Options) {
    let value = gdvariant::parse(bytes, options).unwrap();
    let json = serde_json::to_vec(&value).unwrap();
    assert!(json.len() > bytes.len() / 4);
}

/// Reads the value into [`Tree`].
fn into_tree(bytes: &[u8], options: Options) {
    let tree: Tree = gdvariant::serde::from_bytes(bytes, options).unwrap();
    assert!(count(&tree) > 1);
    std::mem::forget(tree);
}

/// Reads the value into an owned [`Variant`].
fn into_variant(bytes: &[u8], options: Options) {
    let value: Variant = gdvariant::serde::from_bytes(bytes, options).unwrap();
    assert!(!value.is_nil());
    std::mem::forget(value);
}

/// Makes a worst case of about `n` units: its bytes and options.
type Make = fn(usize) -> (Vec<u8>, Options);

/// Worst cases, each a value Godot accepts, by name.
fn worst_cases() -> [(&'static str, Make); 4] {
    [
        ("deep around wide", |n| (deep_around_wide((n / 10).min(1000), n), Options::godot4())),
        ("repeated container keys", |n| {
            (repeated_container_keys((n / 40).max(8), 40), Options::godot4())
        }),
        ("nested repeated keys", |n| {
            (nested_repeated_keys((n / 20).min(1000), n), Options::godot4())
        }),
        ("near-equal long keys", |n| (near_equal_long_keys(n * 4), Options::godot4())),
    ]
}

#[test]
fn the_worst_cases_are_values_godot_accepts() {
    for (name, make) in worst_cases() {
        let (bytes, options) = make(4_000);
        assert_eq!(gdvariant::validate(&bytes, options), Ok(()), "{name}");
    }
}

#[test]
fn serializing_a_borrowed_value_reads_each_byte_a_bounded_number_of_times() {
    with_big_stack(|| {
        for (name, make) in worst_cases() {
            let m = assert_linear(&format!("serialize, {name}"), 2_000, 12, make, serialize_ref);
            eprintln!("serialize, {name}: {m:?}");
        }
    });
}

#[test]
fn reading_a_recursive_type_of_your_own_reads_each_byte_a_bounded_number_of_times() {
    with_big_stack(|| {
        for (name, make) in worst_cases() {
            // 16x: repeated keys are found by sorting each dictionary's key numbers, O(k log k)
            // (12.1x validate's work at 38 KB, 12.9x at 154 KB, 15.9x at 2.1 MB).
            let m = assert_linear(&format!("from_bytes Tree, {name}"), 2_000, 16, make, into_tree);
            eprintln!("from_bytes Tree, {name}: {m:?}");
        }
    });
}

#[test]
fn reading_a_variant_from_godot_bytes_is_decoding() {
    // Dictionaries nested as keys are left out: hashing owned keys is the owned dictionary's
    // cost, not this path's.
    for (name, make) in worst_cases().into_iter().take(2) {
        let m = assert_linear(&format!("from_bytes Variant, {name}"), 2_000, 6, make, into_variant);
        eprintln!("from_bytes Variant, {name}: {m:?}");
    }
    // The same value as `decode`, read through the struct-mapping deserializer, also as a field.
    for (_, make) in worst_cases() {
        let (bytes, options) = make(500);
        let decoded = gdvariant::decode(&bytes, options).unwrap();
        let read: Variant = gdvariant::serde::from_bytes(&bytes, options).unwrap();
        assert!(read.same(&decoded));
        if let Some(array) = decoded.as_array() {
            #[derive(Deserialize)]
            struct Holder(Vec<Variant>);
            let holder: Holder = gdvariant::serde::from_bytes(&bytes, options).unwrap();
            assert_eq!(holder.0.len(), array.len());
            assert!(holder.0.iter().zip(array.iter()).all(|(a, b)| a.same(b)));
        }
    }
}

/// The old way, for scale: iterating each container level by level costs a factor of the depth
/// more than one pass, which the serializer no longer does.
#[test]
fn the_serializer_does_not_cost_a_factor_of_the_depth() {
    let options = Options::godot4();
    let bytes = deep_around_wide(1000, 20_000);
    let (serialized, validated) = with_big_stack(move || {
        (units(|| serialize_ref(&bytes, options)), common::work::validate_units(&bytes, options))
    });
    assert!(serialized < 12 * validated, "{serialized} units, validate {validated}");
}

/// `levels` levels of Godot 4 arrays (`"arrays"`), dictionaries nested as keys (`"keys"`) or as
/// values (`"values"`), the innermost empty: 1025 levels is the deepest value Godot accepts.
fn nested(shape: &str, levels: usize) -> Vec<u8> {
    let (level, after): (&[u32], &[u32]) = match shape {
        "arrays" => (&[0x1C, 1], &[]),
        "keys" => (&[0x1B, 1], &[0]),
        _ => (&[0x1B, 1, 0], &[]),
    };
    let mut words = Vec::new();
    for _ in 1..levels {
        words.extend_from_slice(level);
    }
    words.extend([level[0], 0]);
    for _ in 1..levels {
        words.extend_from_slice(after);
    }
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

const SHAPES: [&str; 3] = ["arrays", "keys", "values"];

#[test]
fn the_deepest_values_read_into_a_variant_on_a_small_stack() {
    for shape in SHAPES {
        let bytes = nested(shape, 1025);
        let options = Options::godot4();
        assert_eq!(gdvariant::validate(&bytes, options), Ok(()));
        let decoded = Box::new(gdvariant::decode(&bytes, options).unwrap());
        let read = on_small_stack(move || {
            let read: Variant = gdvariant::serde::from_bytes(&bytes, options).unwrap();
            // Dropping is recursive: not on this stack.
            Box::new(read)
        });
        assert!(read.same(&decoded), "{shape}");
        std::mem::forget((read, decoded));
    }
    // One level more is refused, as Godot refuses it.
    let deeper = nested("arrays", 1026);
    let refused = gdvariant::serde::from_bytes::<Variant>(&deeper, Options::godot4());
    assert!(refused.unwrap_err().decode_error().is_some());
}

/// Runs `f` on a thread with a stack of `bytes`.
fn on_stack<T: Send + 'static>(bytes: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(bytes).spawn(f).unwrap().join().unwrap()
}

/// The stack that writing 1025 levels into serde_json takes, with the format's own frames (the
/// serde module docs give the figures): 256 KiB in an optimised build; unoptimised, serde_json
/// alone needs 1.2 to 1.6 MiB, this crate's frames 1 MiB more.
const WRITE_STACK: usize = if cfg!(debug_assertions) { 3 << 20 } else { 256 << 10 };

/// The stack that reading 1025 levels back from serde_json takes (serde_json alone needs 343 to
/// 423 KiB optimised, 2.1 to 2.8 MiB unoptimised): 1 MiB optimised, 5 MiB unoptimised.
const READ_STACK: usize = if cfg!(debug_assertions) { 5 << 20 } else { 1 << 20 };

#[test]
fn the_deepest_values_serialize_into_json_within_the_documented_stack() {
    let options = Options::godot4();
    for shape in SHAPES {
        let bytes = nested(shape, 1025);
        let owned = Box::new(gdvariant::decode(&bytes, options).unwrap());
        let (from_ref, from_owned) = on_stack(WRITE_STACK, move || {
            let value = gdvariant::parse(&bytes, options).unwrap();
            let from_ref = serde_json::to_vec(&value).unwrap();
            let from_owned = serde_json::to_vec(&*owned).unwrap();
            std::mem::forget(owned);
            (from_ref, from_owned)
        });
        assert_eq!(from_ref, from_owned, "{shape}");
        // Read back on the documented stack too, and compared with the decoded value.
        let back = on_stack(READ_STACK, move || {
            let mut deserializer = serde_json::Deserializer::from_slice(&from_ref);
            deserializer.disable_recursion_limit();
            Box::new(Variant::deserialize(&mut deserializer).unwrap())
        });
        let decoded = Box::new(gdvariant::decode(&nested(shape, 1025), options).unwrap());
        assert!(back.same(&decoded), "{shape}");
        std::mem::forget((back, decoded));
    }
}
