//! `differential`: the readers agree on every input.
//!
//! Under both versions, with objects refused and allowed:
//!
//! * `validate` and owned `decode` give the same result: both accept, or both refuse with the
//!   same error (kind and offset). The one exception is a Godot 3 string that Godot accepts but
//!   a Rust `String` cannot hold (surrogates, code points above U+10FFFF): `validate` accepts,
//!   `decode` refuses with `NotUnicode`.
//! * `validate` and a full lazy walk ([`lazy_walk::walk`](super::lazy_walk::walk)) accept the
//!   same inputs. When both refuse, the error is the same (kind and offset), with one ordering
//!   difference that is part of the lazy design: a container's iterator checks an element's whole
//!   *structure* before the walk reads any of that element's *text*, so when an element holds bad
//!   text and, later in its bytes, a structural error, the lazy walk reports the structural error
//!   while `validate` (which reads in byte order) reports the text. Godot 4's check of a full
//!   object's `script` property (a `res://` path) belongs to `validate` alone (the lazy API
//!   hands the property over as it is) and is met in byte order too. So: either the same error,
//!   or `validate` reports such a content error at an offset before the lazy walk's structural
//!   error, or (for the script) the lazy walk accepts.
//! * `parse_prefix` (structure only) accepts whatever `validate` accepts, and refuses it only
//!   for invalid text or a bad `script` property; when it refuses, `validate` refuses with the
//!   same error or with invalid text earlier in the bytes.
//! * Every error offset lies inside the input.

use gdvariant::{Error, ErrorKind};

use super::{lazy_walk, options};

/// The target.
pub fn check(data: &[u8]) {
    for options in options::all() {
        let validated = gdvariant::validate(data, options);
        let lazy = gdvariant::parse(data, options).and_then(|v| lazy_walk::walk(v, data));
        let prefix = gdvariant::parse_prefix(data, options);
        let decoded = gdvariant::decode(data, options).map(|_| ());
        for (what, result) in [
            ("validate", &validated),
            ("lazy walk", &lazy),
            ("decode", &decoded),
            ("parse_prefix", &prefix.map(|_| ())),
        ] {
            if let Err(error) = result {
                options::assert_offset_inside(error, data, what);
            }
        }
        let context = || format!("{options:?} on {} bytes", data.len());

        match (&validated, &decoded) {
            (Ok(()), Ok(())) => {}
            (Err(a), Err(b)) if a == b => {}
            (Ok(()), Err(e)) if e.kind() == ErrorKind::NotUnicode => {}
            _ => panic!("validate {validated:?} but decode {decoded:?} ({})", context()),
        }

        match (&validated, &lazy) {
            (Ok(()), Ok(())) => {}
            (Err(v), Ok(())) if v.kind() == ErrorKind::InvalidScript => {}
            (Err(v), Err(l)) if v == l || content_before_structure(v, l) => {}
            _ => panic!("validate {validated:?} but lazy walk {lazy:?} ({})", context()),
        }

        match (&validated, &prefix) {
            (Ok(()), Ok(element)) => assert!(element.len() <= data.len()),
            // Text and the script property are what a structural walk leaves unread.
            (Err(v), Ok(_))
                if matches!(v.kind(), ErrorKind::InvalidUtf8 | ErrorKind::InvalidScript) => {}
            (Err(v), Err(p)) if v == p || content_before_structure(v, p) => {}
            _ => panic!("validate {validated:?} but parse_prefix {prefix:?} ({})", context()),
        }
    }
}

/// `content` is a problem of content (invalid text, or a bad `script` property) that
/// `validate` met, in byte order, before the error `later` that a structure-first reader met
/// (that error may be text too: class names are read, and checked, with the structure).
fn content_before_structure(content: &Error, later: &Error) -> bool {
    matches!(content.kind(), ErrorKind::InvalidUtf8 | ErrorKind::InvalidScript)
        && content.offset() < later.offset()
}
