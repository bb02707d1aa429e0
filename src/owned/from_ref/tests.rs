//! `fill_leaves` against the general loop: on every corpus value of both versions, and on every
//! truncation and single-byte change of small packets, `decode` gives what the general loop
//! gives, value (bit for bit, key hashes included) or exact error.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]
#![allow(clippy::arithmetic_side_effects)]

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

use super::*;
use crate::EncodeOptions;
use crate::math::Vector2;

/// The option sets compared: plain, objects allowed, and the game view.
fn option_sets(version: Version) -> [Options; 3] {
    let plain = Options::new(version);
    [plain, plain.with_allow_objects(true), plain.with_allow_objects(true).with_game_view(true)]
}

/// The key hashes of every dictionary in `value`, in order (what `same` does not see).
fn key_hashes(value: &Variant, out: &mut Vec<u64>) {
    match value {
        Variant::Dictionary(dictionary) => {
            out.extend_from_slice(dictionary.key_hashes());
            for (key, value) in dictionary.iter() {
                key_hashes(key, out);
                key_hashes(value, out);
            }
        }
        Variant::Array(array) => array.iter().for_each(|element| key_hashes(element, out)),
        _ => {}
    }
}

/// Used values for `decode_into` to read into: nothing, a leaf, dictionaries with and without
/// an index (Godot 3 and Godot 4 key rules, typed, holding containers), an array holding a
/// dictionary, a packet.
fn spares() -> Vec<Variant> {
    let mut large = Dictionary::new();
    for i in 0..20 {
        large.insert(format!("key{i}").as_str(), Variant::from(vec![Variant::from(i)]));
    }
    let large3 = {
        let bytes = crate::encode(&Variant::from(large.clone()), EncodeOptions::godot3()).unwrap();
        decode(&bytes, Options::godot3()).unwrap()
    };
    let mut typed = Dictionary::typed(ElementType::Builtin(VariantType::Int), ElementType::Untyped);
    typed.insert(1, Variant::from(mixed_inner()));
    let array = vec![Variant::from(mixed_inner()), Variant::from("x"), Variant::Nil];
    vec![
        Variant::Nil,
        Variant::from(5),
        Variant::from(large),
        large3,
        Variant::from(typed),
        Variant::from(array),
        small_values().swap_remove(0),
    ]
}

/// Asserts that `value` is `expected` as `decode` made it: the same value, the same key hashes,
/// and every key of a root dictionary found as in `expected`.
fn same_decode(value: &Variant, expected: &Variant, what: &str) {
    assert!(value.same(expected), "{what}: {value:?} against {expected:?}");
    let (mut a, mut b) = (Vec::new(), Vec::new());
    key_hashes(value, &mut a);
    key_hashes(expected, &mut b);
    assert_eq!(a, b, "{what}: key hashes");
    if let (Variant::Dictionary(value), Variant::Dictionary(expected)) = (value, expected) {
        assert_eq!(value.rules(), expected.rules(), "{what}: key rules");
        for key in expected.keys() {
            let (found, wanted) = (value.get(key), expected.get(key));
            assert_eq!(found.is_some(), wanted.is_some(), "{what}: lookup of {key:?}");
            if let (Some(found), Some(wanted)) = (found, wanted) {
                assert!(found.same(wanted), "{what}: lookup of {key:?}");
            }
        }
    }
}

/// Asserts that both paths agree on `bytes`, and that `decode_into` (into one of [`spares`],
/// picked by the bytes) gives what they give; returns whether it decoded.
fn agree(bytes: &[u8], options: Options, what: &str) -> bool {
    let fast = convert_with(bytes, 0, options, 0, true, None);
    let general = convert_with(bytes, 0, options, 0, false, None);
    let mut spares = spares();
    let pick = bytes.iter().fold(bytes.len(), |sum, &b| sum.wrapping_add(usize::from(b)));
    let mut into = spares.swap_remove(pick % spares.len());
    let reused = decode_into(bytes, options, &mut into);
    match (&fast, &general) {
        (Ok(fast), Ok(general)) => {
            same_decode(fast, general, what);
            assert_eq!(reused, Ok(()), "{what}: into");
            same_decode(&into, general, &format!("{what}: into"));
            true
        }
        (Err(fast), Err(general)) => {
            assert_eq!(fast, general, "{what}");
            assert_eq!(reused.as_ref(), Err(general), "{what}: into");
            assert!(matches!(into, Variant::Nil), "{what}: into after an error");
            false
        }
        _ => panic!("{what}: {fast:?} against {general:?}"),
    }
}

/// Every case of both corpora, under every option set.
#[test]
fn corpus_values_agree() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus");
    let mut decoded = 0;
    for version in [Version::Godot3, Version::Godot4] {
        let folder =
            format!("{root}/{}", if version == Version::Godot3 { "godot3" } else { "godot4" });
        let mut names: Vec<_> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "bin"))
            .collect();
        names.sort();
        assert!(names.len() > 100, "{folder}: {} cases", names.len());
        for path in names {
            let bytes = std::fs::read(&path).unwrap();
            for options in option_sets(version) {
                decoded += usize::from(agree(&bytes, options, &format!("{}", path.display())));
            }
        }
    }
    assert!(decoded > 600, "{decoded} decoded");
}

/// Small values whose every cut and byte change is compared.
fn small_values() -> Vec<Variant> {
    let mut move_packet = Dictionary::new();
    move_packet.insert("seq", 7);
    move_packet.insert("type", "move");
    move_packet.insert("pos", Vector2 { x: 3.0, y: -0.0 });
    move_packet.insert("payload", "abcdefghijklmnopqrstuvwxyz0123");
    let mut ping = Dictionary::new();
    ping.insert("type", "ping");
    ping.insert("seq", i64::from(u32::MAX) + 5);
    ping.insert("time", 1234.5678);
    let mut mixed = Dictionary::new();
    mixed.insert(1, Variant::Nil);
    mixed.insert(true, vec![Variant::from(1), Variant::from("x")]);
    mixed.insert(Variant::from(vec![Variant::from(2)]), "k");
    mixed.insert(1.5, f64::NAN);
    mixed.insert("s", Variant::from(mixed_inner()));
    let array = vec![
        Variant::from(1),
        Variant::from("two"),
        Variant::from(Vector2 { x: 1.5, y: 2.5 }),
        Variant::from(ping.clone()),
        Variant::Nil,
        Variant::from(false),
    ];
    vec![
        Variant::from(move_packet),
        Variant::from(ping),
        Variant::from(mixed),
        Variant::from(array),
    ]
}

fn mixed_inner() -> Dictionary {
    let mut inner = Dictionary::new();
    inner.insert("a", 1);
    inner.insert("b", "é");
    inner
}

/// A dictionary `{key: 1, key: 2, "z": 3}` written by hand: the repeated key keeps its first
/// place and takes the last value.
fn repeated_keys(version: Version, key: &[u8]) -> Vec<u8> {
    let int = |v: u32| [2u32.to_le_bytes(), v.to_le_bytes()].concat();
    let id: u32 = if version == Version::Godot3 { 18 } else { 27 };
    let mut bytes = [id.to_le_bytes(), 3u32.to_le_bytes()].concat();
    for (k, v) in [(key, 1), (key, 2), (&b"\x04\0\0\0\x01\0\0\0z\0\0\0"[..], 3)] {
        bytes.extend_from_slice(k);
        bytes.extend_from_slice(&int(v));
    }
    bytes
}

/// Every truncation and single-byte change of small packets, arrays and dictionaries, both
/// versions.
#[test]
fn cut_and_changed_small_values_agree() {
    let mut inputs: Vec<(Version, Vec<u8>)> = Vec::new();
    for version in [Version::Godot3, Version::Godot4] {
        for value in small_values() {
            inputs.push((version, crate::encode(&value, EncodeOptions::new(version)).unwrap()));
        }
        // Dense: 300 nulls reserve more ahead than 2 bytes per input byte and 1 KiB, so the
        // value is validated first, and the root is not opened from its header.
        let nulls = Variant::from(vec![Variant::Nil; 300]);
        inputs.push((version, crate::encode(&nulls, EncodeOptions::new(version)).unwrap()));
        // Repeated keys: a string, a float (0.0 and -0.0 are one key), an int.
        inputs.push((version, repeated_keys(version, b"\x04\0\0\0\x01\0\0\0k\0\0\0")));
        let float_zero = [3u32.to_le_bytes(), 0u32.to_le_bytes()].concat();
        let mut float_twice = repeated_keys(version, &float_zero);
        float_twice[8 + 8 + 8 + 7] = 0x80; // the second key is -0.0
        inputs.push((version, float_twice));
    }
    // Godot 3: a key spelled with an overlong form ("t" as E0 81 B4) after the plain one.
    let mut overlong = repeated_keys(Version::Godot3, b"\x04\0\0\0\x01\0\0\0t\0\0\0");
    let spelled = b"\x04\0\0\0\x03\0\0\0\xE0\x81\xB4\0";
    overlong.splice(28..40, spelled.iter().copied());
    inputs.push((Version::Godot3, overlong));

    let mut decoded = 0;
    for (index, (version, bytes)) in inputs.iter().enumerate() {
        for options in option_sets(*version) {
            let whole = agree(bytes, options, &format!("input {index}"));
            assert!(whole, "input {index} decodes: {:?}", decode(bytes, options));
            for cut in 0..bytes.len() {
                agree(&bytes[..cut], options, &format!("input {index} cut at {cut}"));
            }
            for at in 0..bytes.len() {
                for change in [0x01u8, 0x02, 0x04, 0x10, 0x80, 0xFF] {
                    let mut changed = bytes.clone();
                    changed[at] ^= change;
                    let what = format!("input {index}, byte {at} ^ {change:#x}");
                    decoded += usize::from(agree(&changed, options, &what));
                }
            }
        }
    }
    assert!(decoded > 1000, "{decoded} changed inputs decoded");
}

/// The repeated-key rule holds on the fast path: first place, last value, first key.
#[test]
fn repeated_keys_keep_first_place_and_last_value() {
    let bytes = repeated_keys(Version::Godot4, b"\x04\0\0\0\x01\0\0\0k\0\0\0");
    let value = decode(&bytes, Options::godot4()).unwrap();
    let dictionary = value.as_dictionary().unwrap();
    let entries: Vec<_> = dictionary.iter().collect();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0], (&Variant::from("k"), &Variant::from(2)));
    assert_eq!(entries[1], (&Variant::from("z"), &Variant::from(3)));
    assert_eq!(dictionary.get("k"), Some(&Variant::from(2)));

    // Godot 3: "t", then "t" spelled with an overlong form, are one key.
    let mut bytes = repeated_keys(Version::Godot3, b"\x04\0\0\0\x01\0\0\0t\0\0\0");
    bytes.splice(28..40, b"\x04\0\0\0\x03\0\0\0\xE0\x81\xB4\0".iter().copied());
    let value = decode(&bytes, Options::godot3()).unwrap();
    let entries: Vec<_> = value.as_dictionary().unwrap().iter().collect();
    assert_eq!(
        entries,
        [(&Variant::from("t"), &Variant::from(2)), (&Variant::from("z"), &Variant::from(3))]
    );
}
