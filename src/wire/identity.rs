//! Godot's rules of dictionary key identity, per version and per place: the one description
//! that the owned values (`owned/key_semantics.rs`, `owned/key_hash.rs`: `decode`,
//! `Dictionary`, serde's last-wins, re-encoding) and the text (`text/key_classes/`) both
//! follow. Each rule names the engine code it comes from; all were checked against Godot 3.2.3
//! and 4.6 (`corpus/probes/dict-keys/godot{3,4}-identity.jsonl`, `tests/identity.rs`), and the
//! `identity` fuzz target holds the two implementations to one relation.
//!
//! | rule | Godot 3.2 | Godot 4.6 |
//! | --- | --- | --- |
//! | values of different types | two keys | two keys, except a `String` and a `StringName` where they are keys ([`Identity::strings_alike`]) |
//! | a float NaN and a NaN | one key at every depth | one where it is a key, none where it is an array element or a dictionary value ([`Identity::float_nans_equal`]) |
//! | `0.0` and `-0.0`, math values, colors, packed vectors | `==` or both NaN, at every depth (math values as the `f32`s Godot holds: [`narrow_real`]) | the same |
//! | a pool of reals | by its bytes, never with a NaN ([`Identity::reals_by_bytes`]) | `==` or both NaN |
//! | dictionaries | by reference: never one key ([`Identity::dictionaries_by_content`]) | by their entries in order, repeated keys merged first |
//! | arrays | element by element (elements in the value place) | the same |
//!
//! Godot 4's places: a top-level key, and a key of a dictionary inside a key, are compared with
//! `StringLikeVariantComparator`; an array element or a dictionary value with
//! `Variant::hash_compare(.., semantic_comparison = false)`.

use super::exact_float::narrow_exact;
use super::options::Version;

/// Where a value sits inside a dictionary key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// A dictionary key: the top-level key, or a key of a dictionary inside one.
    Key,
    /// An array element or a dictionary value.
    Value,
}

/// The key identity of one Godot version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Identity {
    version: Version,
}

impl Identity {
    /// The rules of `version`.
    pub(crate) const fn of(version: Version) -> Self {
        Identity { version }
    }

    /// Whether a `String` and a `StringName` with the same text are one in `place` (Godot 4's
    /// `StringLikeVariantComparator`, used for keys only).
    pub(crate) fn strings_alike(self, place: Place) -> bool {
        self.version == Version::Godot4 && place == Place::Key
    }

    /// Whether a float NaN equals a NaN in `place` (Godot 4 compares array elements and
    /// dictionary values with `==`; Godot 3 and keys are NaN-aware).
    pub(crate) fn float_nans_equal(self, place: Place) -> bool {
        self.version == Version::Godot3 || place == Place::Key
    }

    /// Whether dictionaries compare by content, entry by entry in order (Godot 4), rather than
    /// by reference (Godot 3: two decoded dictionaries are never one key).
    pub(crate) fn dictionaries_by_content(self) -> bool {
        self.version == Version::Godot4
    }

    /// Whether a pool of reals compares by its bytes (Godot 3.2 hashes it by them, so `-0.0`
    /// is not `0.0`) and equals nothing when it holds a NaN (its element test, a macro whose
    /// negation reads `!(a == b) || (isnan(a) && isnan(b))`, fails on two NaNs).
    pub(crate) fn reals_by_bytes(self) -> bool {
        self.version == Version::Godot3
    }
}

/// A real component of a math value as Godot's official builds hold it: narrowed to `f32`,
/// widened back (a NaN stays a NaN). Godot 3 writes math values in `f32` only.
pub(crate) fn narrow_real(value: f64) -> f64 {
    if value.is_nan() { value } else { f64::from(narrow_exact(value)) }
}
