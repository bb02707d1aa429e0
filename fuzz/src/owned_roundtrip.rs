//! `owned_roundtrip`: generated owned values survive encode and decode bit for bit.
//!
//! The first input byte picks the writer settings (Godot 3 or 4, full objects or not, Godot 4
//! single or double precision); the rest drives `Variant::arbitrary_for`, which generates only
//! values Godot itself round-trips under those settings. Asserted: the value encodes; the bytes
//! are a multiple of 4, validate, are a prefix of exactly their own length, and walk lazily
//! without error; they decode to a value `same` (bitwise) as the original; that value encodes to
//! the same bytes; decoding it into another generated value gives the same; `validate` and
//! `decode` agree (the `differential` property) on them.

use arbitrary::Unstructured;
use gdvariant::{EncodeOptions, Options, Variant, math::Precision};

use super::lazy_walk;

/// The six writer settings, picked by the first input byte.
fn settings(selector: u8) -> EncodeOptions {
    let base = match selector % 3 {
        0 => EncodeOptions::godot3(),
        1 => EncodeOptions::godot4(),
        _ => EncodeOptions::godot4().with_precision(Precision::Double),
    };
    base.with_full_objects(selector / 3 % 2 == 1)
}

/// The target.
pub fn check(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else { return };
    let encode_options = settings(selector);
    let read =
        Options::new(encode_options.version()).with_allow_objects(encode_options.full_objects());
    let mut u = Unstructured::new(rest);
    let Ok(value) = Variant::arbitrary_for(&mut u, encode_options) else { return };

    let bytes = value
        .encode(encode_options)
        .unwrap_or_else(|e| panic!("encode {value:?} with {encode_options:?}: {e}"));
    assert_eq!(bytes.len() % 4, 0, "{} bytes", bytes.len());
    if let Err(e) = gdvariant::validate(&bytes, read) {
        panic!("encoded bytes do not validate: {e}\n{value:?}");
    }
    let prefix = gdvariant::parse_prefix(&bytes, read).expect("validated bytes are a value");
    assert_eq!(prefix.len(), bytes.len(), "parse_prefix length");
    let parsed = gdvariant::parse(&bytes, read).expect("validated bytes parse");
    lazy_walk::walk(parsed, &bytes).expect("validated bytes walk");

    let decoded = gdvariant::decode(&bytes, read)
        .unwrap_or_else(|e| panic!("encoded bytes do not decode: {e}\n{value:?}"));
    assert!(decoded.same(&value), "decoded differently:\n{value:?}\n{decoded:?}");
    let again = decoded.encode(encode_options).expect("a decoded value encodes");
    assert!(again == bytes, "re-encoding gave other bytes for {value:?}");

    // Decoding into a used value (another generated one) gives what `decode` gives.
    let mut used = Variant::arbitrary_for(&mut u, encode_options).unwrap_or_default();
    gdvariant::decode_into(&bytes, read, &mut used)
        .unwrap_or_else(|e| panic!("encoded bytes do not decode into a used value: {e}"));
    assert!(used.same(&decoded), "decoded into a used value differently:\n{decoded:?}\n{used:?}");
}
