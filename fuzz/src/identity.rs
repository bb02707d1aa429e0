//! `identity`: the text and the owned values hold one rule of key identity and key order.
//!
//! Under both versions, with objects refused and allowed: when the input validates, decodes and
//! prints, its owned value (whose dictionaries merged their repeated keys by the owned rule,
//! `owned/key_semantics.rs`) is encoded (single precision, full objects written when they were
//! allowed in), and the text of those bytes must be the text of the input (whose repeated keys
//! the text found by its own rule, `text/key_classes/`): the two rules merge the same keys,
//! keep the same spelling and value, and the text orders the survivors alike. Values that
//! Godot's own encoding rewrites (see [`reencode`](super::reencode)) are skipped.

use gdvariant::EncodeOptions;

use super::options;
use super::reencode::rewritten_by_godot;

/// The target.
pub fn check(data: &[u8]) {
    for options in options::all() {
        if gdvariant::validate(data, options).is_err() {
            continue;
        }
        let Ok(value) = gdvariant::decode(data, options) else { continue };
        let parsed = gdvariant::parse(data, options).expect("validated");
        let Ok(text) = gdvariant::text::to_text_as(parsed, options.version()) else { continue };
        if rewritten_by_godot(&value, options.allow_objects()) {
            continue;
        }
        let encode_options =
            EncodeOptions::new(options.version()).with_full_objects(options.allow_objects());
        let bytes = value.encode(encode_options).expect("a decoded value encodes");
        let again = gdvariant::parse(&bytes, options).expect("re-encoded bytes parse");
        let text_again =
            gdvariant::text::to_text_as(again, options.version()).expect("re-encoded bytes print");
        assert!(
            text == text_again,
            "{options:?}: the text of the re-encoded value differs:\n{text}\n---\n{text_again}"
        );
    }
}
