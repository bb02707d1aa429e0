//! Godot 3 strings spelled with overlong forms cost linear work wherever the game's text is
//! read from them: lookups that compare them with a key (`get`, and `get_with_end`, which also
//! finds the dictionary's end), the text writer that sorts and merges
//! them, serde and owned decoding that merge repeated keys, and `get_is`, which also compares
//! the last value with a text. Work counted (feature
//! `work-counter`) on generated worst cases at two sizes.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use std::collections::BTreeMap;

use common::work::assert_linear;
use gdvariant::{Key, Options, Version};

/// `t` as the overlong 3-byte form Godot 3 reads as `t`.
const OVERLONG_T: &[u8] = b"\xE0\x81\xB4";

/// A Godot 3 string value holding `body`.
fn string(out: &mut Vec<u8>, body: &[u8]) {
    out.extend_from_slice(&4u32.to_le_bytes());
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend_from_slice(body);
    out.resize(out.len().next_multiple_of(4), 0);
}

/// A Godot 3 dictionary of `count` entries whose keys are `len` overlong `t`s and a suffix
/// (`y`, then the entry's number; every other key repeats the one before, spelled plainly),
/// each worth its number: every key costs a lookup of `len` `t`s and an `x` a decoding of all
/// its `t`s before it differs.
fn respelled_keys(count: usize, len: usize) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&18u32.to_le_bytes());
    out.extend_from_slice(&(count as u32).to_le_bytes());
    for i in 0..count {
        let mut key = Vec::new();
        if i % 2 == 0 {
            key.extend(std::iter::repeat_n(OVERLONG_T, len).flatten());
        } else {
            key.extend(std::iter::repeat_n(b't', len));
        }
        key.extend_from_slice(format!("y{}", i / 2).as_bytes());
        string(&mut out, &key);
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&(i as u32).to_le_bytes());
    }
    out
}

#[test]
fn looking_up_keys_spelled_with_overlong_forms_is_linear() {
    let options = Options::godot3();
    let missing = format!("{}x", "t".repeat(20));
    assert_linear(
        "lookup, many keys",
        1_000,
        3,
        |n| (respelled_keys(n, 20), options),
        |bytes, options| {
            let dictionary = gdvariant::parse(bytes, options).unwrap();
            let dictionary = dictionary.as_dictionary().unwrap();
            assert!(dictionary.get(missing.as_str()).unwrap().is_none());
            // The last pair: spelled with overlong forms, then plainly; the last value wins.
            let last = format!("{}y{}", "t".repeat(20), count(bytes) / 2 - 1);
            let found = dictionary.get(last.as_str()).unwrap().and_then(|v| v.as_int());
            assert_eq!(found, Some(count(bytes) as i64 - 1));
            let path = [Key::from(missing.as_str())];
            let value = gdvariant::parse(bytes, options).unwrap();
            assert!(value.lookup(&path).unwrap().is_none());
        },
    );
    // The relay's one pass: the value of the last pair, and where the dictionary ends.
    assert_linear(
        "get_with_end, many keys",
        1_000,
        3,
        |n| (respelled_keys(n, 20), options),
        |bytes, options| {
            let dictionary = gdvariant::parse(bytes, options).unwrap();
            let dictionary = dictionary.as_dictionary().unwrap();
            let last = format!("{}y{}", "t".repeat(20), count(bytes) / 2 - 1);
            let (found, end) = dictionary.get_with_end(last.as_str()).unwrap();
            assert_eq!(found.and_then(|e| e.value().as_int()), Some(count(bytes) as i64 - 1));
            assert_eq!(end, bytes.len());
            let (found, end) = dictionary.get_with_end(missing.as_str()).unwrap();
            assert!(found.is_none());
            assert_eq!(end, bytes.len());
        },
    );
    // One long key, looked up with its text but for the last character.
    assert_linear(
        "lookup, a long key",
        10_000,
        3,
        |n| (respelled_keys(1, n), options),
        |bytes, options| {
            let dictionary = gdvariant::parse(bytes, options).unwrap();
            let dictionary = dictionary.as_dictionary().unwrap();
            let len = (bytes.len() - 24) / 3;
            let text = format!("{}x", "t".repeat(len));
            assert!(dictionary.get(text.as_str()).unwrap().is_none());
            assert_eq!(dictionary.get_with_end(text.as_str()).unwrap().1, bytes.len());
        },
    );
}

/// A Godot 3 dictionary of `count` entries whose keys repeat `cmd` (every other one spelled
/// with an overlong `c`) and whose values are strings of `len` `t`s spelled with overlong forms
/// (the last one plainly when `plain_last`), then `x`: every key is the one looked up, every
/// value is read whole by the game's decoding before it differs from the text asked for.
fn respelled_commands(count: usize, len: usize) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&18u32.to_le_bytes());
    out.extend_from_slice(&(count as u32).to_le_bytes());
    let value: Vec<u8> =
        std::iter::repeat_n(OVERLONG_T, len).flatten().copied().chain(*b"x").collect();
    for i in 0..count {
        let key: &[u8] = if i % 2 == 0 { b"\xE0\x81\xA3md" } else { b"cmd" };
        string(&mut out, key);
        string(&mut out, &value);
    }
    out
}

#[test]
fn get_is_reads_respelled_keys_and_values_in_linear_work() {
    let options = Options::godot3();
    // Many keys, all of them the key asked for: each is compared, the last value is read.
    assert_linear(
        "get_is, many keys",
        1_000,
        3,
        |n| (respelled_commands(n, 8), options),
        |bytes, options| {
            let dictionary = gdvariant::parse(bytes, options).unwrap();
            let dictionary = dictionary.as_dictionary().unwrap();
            let text = format!("{}x", "t".repeat(8));
            assert!(dictionary.get_is("cmd", text.as_str()).unwrap());
            let near = format!("{}y", "t".repeat(8));
            assert!(!dictionary.get_is("cmd", near.as_str()).unwrap());
            assert!(!dictionary.get_is("cmx", text.as_str()).unwrap());
        },
    );
    // One long value spelled with overlong forms, asked for with its text but for the last
    // character: decoded whole.
    assert_linear(
        "get_is, a long value",
        10_000,
        3,
        |n| (respelled_commands(1, n), options),
        |bytes, options| {
            let dictionary = gdvariant::parse(bytes, options).unwrap();
            let dictionary = dictionary.as_dictionary().unwrap();
            let value = dictionary.get("cmd").unwrap().unwrap();
            let len = (value.as_gd_str().unwrap().raw_bytes().len() - 1) / 3;
            let text = format!("{}x", "t".repeat(len));
            assert!(dictionary.get_is("cmd", text.as_str()).unwrap());
            let near = format!("{}y", "t".repeat(len));
            assert!(!dictionary.get_is("cmd", near.as_str()).unwrap());
        },
    );
}

#[test]
fn text_serde_and_owned_values_merge_respelled_keys_in_linear_work() {
    let options = Options::godot3();
    let [_, m] = assert_linear(
        "text",
        500,
        32,
        |n| (respelled_keys(n, 20), options),
        |bytes, options| {
            let value = gdvariant::parse(bytes, options).unwrap();
            let text = gdvariant::text::to_text_as(value, Version::Godot3).unwrap();
            // Each pair of keys is one key, as in Godot.
            assert_eq!(text.matches(": ").count(), count(bytes) / 2);
        },
    );
    eprintln!("text: {m:?}");
    assert_linear(
        "serde",
        500,
        32,
        |n| (respelled_keys(n, 20), options),
        |bytes, options| {
            let map: BTreeMap<String, i64> = gdvariant::serde::from_bytes(bytes, options).unwrap();
            assert_eq!(map.len(), count(bytes) / 2);
        },
    );
    assert_linear(
        "decode",
        500,
        32,
        |n| (respelled_keys(n, 20), options),
        |bytes, options| {
            let value = gdvariant::decode(bytes, options).unwrap();
            assert_eq!(value.as_dictionary().unwrap().len(), count(bytes) / 2);
        },
    );
}

/// The entries a dictionary of [`respelled_keys`] declares.
fn count(bytes: &[u8]) -> usize {
    u32::from_le_bytes(bytes[4..8].try_into().unwrap()) as usize
}
