//! Godot 3 strings spelled with overlong forms cost linear work wherever the game's text is
//! read from them: lookups that compare them with a key (`get`, and `get_with_end`, which also
//! finds the dictionary's end), the text writer that sorts and merges
//! them, serde and owned decoding that merge repeated keys. Work counted (feature
//! `work-counter`) on generated worst cases at two sizes.
#![cfg(feature = "work-counter")]
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
