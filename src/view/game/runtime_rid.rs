//! The classes whose new object has a RID: Godot 4.6 allocates one when it makes the object, so
//! its id, which an `Array[RID]` holding such a full object stores, is known only to the running
//! game. Generated from `corpus/probes/typed/godot4-extra.jsonl` (the `rid_full_*` cases: an
//! `Array[RID]` holding a full object of each class the decoder instantiates); a unit test keeps
//! the two equal.

/// Whether a new object of class `class` (its text) has a RID that is not 0. O(log n).
pub(crate) fn has_runtime_rid(class: &[u8]) -> bool {
    CLASSES.binary_search_by(|name| name.as_bytes().cmp(class)).is_ok()
}

/// Sorted.
const CLASSES: &[&str] = &["ImageTexture", "PlaceholderTexture2D"];
