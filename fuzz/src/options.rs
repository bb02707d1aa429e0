//! The reader settings every byte-level target runs under.

use gdvariant::{Options, Version};

/// Both versions, objects refused and allowed, default depth limit.
pub fn all() -> [Options; 4] {
    [
        Options::new(Version::Godot3),
        Options::new(Version::Godot3).with_allow_objects(true),
        Options::new(Version::Godot4),
        Options::new(Version::Godot4).with_allow_objects(true),
    ]
}

/// Panics unless `error` points inside `input` (the end counts: a value cut short is reported
/// where the missing bytes would start).
pub fn assert_offset_inside(error: &gdvariant::Error, input: &[u8], what: &str) {
    assert!(
        error.offset() <= input.len(),
        "{what}: error offset {} past the {} input bytes: {error}",
        error.offset(),
        input.len()
    );
}
