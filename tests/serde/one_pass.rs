//! `from_bytes` reads a small dictionary of leaves (most packets) in one pass, checking it as it
//! reads: on every input it gives what checking the whole value with `validate` first and then
//! reading it gives, the same value or the same error, for structs, maps, owned values and
//! `deserialize_any`. Inputs: every value case of both corpora, and packets of every kind of
//! leaf (text Godot refuses, Godot 3 overlong forms, NUL, a byte order mark, repeated keys, a
//! StringName key, keys and values that are not leaves) cut at every length and with every byte
//! changed four ways.

use std::borrow::Cow;

use super::*;

/// A packet as a server reads it.
#[derive(Debug, Deserialize)]
#[allow(dead_code)] // read through `Debug`
struct Packet<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Option<Cow<'a, str>>,
    #[serde(default)]
    seq: Option<i64>,
    #[serde(default)]
    pos: Option<Vector2<f32>>,
    #[serde(default)]
    payload: Option<String>,
    #[serde(default)]
    name: Option<&'a str>,
}

/// `validate`, then the lazy value's deserializer: what `from_bytes` answered before it read
/// small dictionaries in one pass.
fn checked_first<'de, T: Deserialize<'de>>(
    bytes: &'de [u8],
    options: Options,
) -> Result<T, DeError> {
    gdvariant::validate(bytes, options)?;
    let element = gdvariant::parse_prefix(bytes, options)?;
    T::deserialize(gdvariant::serde::VariantDeserializer::from_element(&element))
}

/// Every target type agrees on `bytes`; returns whether the one-pass read applied (the value is
/// a dictionary Godot accepts).
fn agree(bytes: &[u8], options: Options, what: &str) {
    macro_rules! same {
        ($ty:ty) => {
            let one: Result<$ty, DeError> = from_bytes(bytes, options);
            let two: Result<$ty, DeError> = checked_first(bytes, options);
            assert_eq!(
                format!("{one:?}"),
                format!("{two:?}"),
                "{what}: {} differs on {bytes:02x?}",
                stringify!($ty)
            );
        };
    }
    same!(Packet<'_>);
    same!(BTreeMap<String, Variant>);
    same!(BTreeMap<Cow<'_, str>, IgnoredAny>);
    same!(Variant);
    same!(Value);
}

/// A String element holding exactly `text` (no check), for [`Writer::splice`].
fn raw_string(version: Version, text: &[u8]) -> Vec<u8> {
    let mut bytes = 4u32.to_le_bytes().to_vec();
    bytes.extend_from_slice(&u32::try_from(text.len()).unwrap().to_le_bytes());
    bytes.extend_from_slice(text);
    bytes.resize(bytes.len().next_multiple_of(4), 0);
    assert!(gdvariant::parse_prefix(&bytes, Options::new(version)).is_ok());
    bytes
}

/// Packets of every kind of leaf, in `version`'s encoding.
fn packets(version: Version) -> Vec<Vec<u8>> {
    let options = EncodeOptions::new(version);
    let raw = |w: &mut Writer<Vec<u8>>, text: &[u8]| {
        let bytes = raw_string(version, text);
        w.splice(&gdvariant::parse_prefix(&bytes, Options::new(version)).unwrap()).unwrap();
    };
    let texts: [&[u8]; 7] = [
        b"move",
        "d\u{e9}j\u{e0}".as_bytes(),
        b"a\0b",
        b"\xEF\xBB\xBFbom",
        b"\xC1\x81overlong",
        b"\xFF",
        b"\xED\xA0\x80",
    ];
    let mut out = Vec::new();
    for text in texts {
        // The text as a value, then as a key.
        out.push(written(options, |w| {
            w.begin_dictionary(4).unwrap();
            w.string("seq").unwrap();
            w.int(7).unwrap();
            w.string("type").unwrap();
            raw(w, text);
            w.string("pos").unwrap();
            w.vector2(Vector2 { x: 1.5f32, y: -2.0 }).unwrap();
            w.string("payload").unwrap();
            w.string("a payload of more than twenty-two bytes").unwrap();
        }));
        out.push(written(options, |w| {
            w.begin_dictionary(2).unwrap();
            raw(w, text);
            w.int(1).unwrap();
            w.string("name").unwrap();
            w.string("ana").unwrap();
        }));
    }
    // Repeated keys, leaves the short path does not read, a 64-bit int.
    out.push(written(options, |w| {
        w.begin_dictionary(6).unwrap();
        w.string("type").unwrap();
        w.string("first").unwrap();
        w.string("flag").unwrap();
        w.bool(true).unwrap();
        w.string("type").unwrap();
        w.string("last").unwrap();
        w.string("seq").unwrap();
        w.int(1 << 40).unwrap();
        w.string("where").unwrap();
        w.node_path(false, ["a", "b"], [""; 0]).unwrap();
        w.string("names").unwrap();
        w.packed_strings(["x", "y"]).unwrap();
    }));
    // A key that is not a string; a value that holds values.
    out.push(written(options, |w| {
        w.begin_dictionary(2).unwrap();
        w.string("type").unwrap();
        w.string("x").unwrap();
        w.int(3).unwrap();
        w.float(0.5).unwrap();
    }));
    out.push(written(options, |w| {
        w.begin_dictionary(2).unwrap();
        w.string("type").unwrap();
        w.string("x").unwrap();
        w.string("pos").unwrap();
        w.begin_array(1).unwrap();
        w.int(1).unwrap();
    }));
    if version == Version::Godot4 {
        out.push(written(options, |w| {
            w.begin_dictionary(2).unwrap();
            w.string("type").unwrap();
            w.int(1).unwrap();
            w.string_name("type").unwrap();
            w.int(2).unwrap();
        }));
    }
    out
}

#[test]
fn one_pass_agrees_with_checking_first_on_every_corpus_case() {
    on_8_mib_stack(|| {
        for case in value_cases() {
            agree(&case.bytes, case.options(), &case.name);
        }
    });
}

#[test]
fn one_pass_agrees_with_checking_first_on_cut_and_changed_packets() {
    let mut read = 0;
    for version in VERSIONS {
        let options = Options::new(version);
        for packet in packets(version) {
            read += usize::from(from_bytes::<BTreeMap<String, Variant>>(&packet, options).is_ok());
            for len in 0..packet.len() {
                agree(&packet[..len], options, "cut");
            }
            for i in 0..packet.len() {
                let byte = packet[i];
                for changed in [0x00, 0xFF, byte ^ 0x80, byte.wrapping_add(1)] {
                    let mut bytes = packet.clone();
                    bytes[i] = changed;
                    agree(&bytes, options, "changed");
                }
            }
        }
    }
    // Most of the packets are ones Godot accepts (the rest hold text it refuses).
    assert!(read >= 20, "only {read} packets read");
}
