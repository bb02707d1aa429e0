//! [`NodePath`]: an owned node path.

use alloc::string::String;
use alloc::vec::Vec;

use super::GdString;

/// A `NodePath`: node names, then subnames (properties and sub-resources), and whether it is
/// absolute. `"/root/Player:position:x"` is absolute, names `["root", "Player"]`, subnames
/// `["position", "x"]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(::serde::Serialize, ::serde::Deserialize))]
pub struct NodePath {
    /// The node names, in order.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = super::arbitrary::godot_strings))]
    pub names: Vec<GdString>,
    /// The subnames, in order.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = super::arbitrary::godot_strings))]
    pub subnames: Vec<GdString>,
    /// Whether the path starts at the root (`/`).
    pub absolute: bool,
}

impl NodePath {
    /// Godot's text form: `/` before an absolute path, names joined by `/`, each subname after a
    /// `:`; code points `str` cannot hold (Godot 3 only) as U+FFFD. O(length).
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        if self.absolute {
            text.push('/');
        }
        for (i, name) in self.names.iter().enumerate() {
            if i > 0 {
                text.push('/');
            }
            text.push_str(&name.to_string_lossy());
        }
        for subname in &self.subnames {
            text.push(':');
            text.push_str(&subname.to_string_lossy());
        }
        text
    }
}
