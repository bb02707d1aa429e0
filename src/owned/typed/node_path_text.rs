//! `NodePath` from a `String` and back, as Godot 4.6's `NodePath(String)` and
//! `String(NodePath)` make them. O(length).

use alloc::string::String;
use alloc::vec::Vec;

use crate::owned::{GdString, NodePath};
use crate::wire::work;

/// `NodePath(String)`: a leading `/` makes it absolute; the text before the first `:` is split
/// on `/` into names (empty ones skipped); the text after it is split on `:` into subnames, an
/// empty subname making the whole path empty (Godot logs "Invalid NodePath") unless it ends the
/// text. No names, no subnames and not absolute is the empty path.
pub(super) fn node_path_from_text(text: &str) -> NodePath {
    work::add(text.len() / 64);
    if text.is_empty() {
        return NodePath::default();
    }
    let absolute = text.starts_with('/');
    let (path, subpath) = match text.split_once(':') {
        Some((path, subpath)) => (path, Some(subpath)),
        None => (text, None),
    };
    let mut subnames = Vec::new();
    if let Some(subpath) = subpath {
        let pieces: Vec<&str> = subpath.split(':').collect();
        let last = pieces.len().saturating_sub(1);
        for (i, piece) in pieces.into_iter().enumerate() {
            if piece.is_empty() {
                if i == last {
                    continue;
                }
                return NodePath::default();
            }
            subnames.push(GdString::from(piece));
        }
    }
    let names: Vec<GdString> =
        path.split('/').filter(|name| !name.is_empty()).map(GdString::from).collect();
    if names.is_empty() && !absolute && subnames.is_empty() {
        return NodePath::default();
    }
    NodePath { names, subnames, absolute }
}

/// `String(NodePath)`: `/` for an absolute path, the names joined by `/`, then `:` and the
/// subnames joined by `:` when that is not empty (a single empty subname is left out).
pub(super) fn node_path_text(path: &NodePath) -> String {
    let mut text = String::new();
    if path.names.is_empty() && path.subnames.is_empty() && !path.absolute {
        return text;
    }
    if path.absolute {
        text.push('/');
    }
    for (i, name) in path.names.iter().enumerate() {
        if i > 0 {
            text.push('/');
        }
        text.push_str(&name.to_string_lossy());
    }
    // The subnames joined by `:` are empty only for no subname or one empty subname.
    let subpath_empty = path.subnames.iter().all(GdString::is_empty) && path.subnames.len() <= 1;
    if !subpath_empty {
        for subname in &path.subnames {
            text.push(':');
            text.push_str(&subname.to_string_lossy());
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(names: &[&str], subnames: &[&str], absolute: bool) -> NodePath {
        NodePath {
            names: names.iter().map(|s| GdString::from(*s)).collect(),
            subnames: subnames.iter().map(|s| GdString::from(*s)).collect(),
            absolute,
        }
    }

    #[test]
    fn parses_as_godot() {
        assert_eq!(node_path_from_text("a/b:c"), path(&["a", "b"], &["c"], false));
        assert_eq!(node_path_from_text("/a//b:c:d:"), path(&["a", "b"], &["c", "d"], true));
        assert_eq!(node_path_from_text("a::b"), NodePath::default());
        assert_eq!(node_path_from_text(":x"), path(&[], &["x"], false));
        assert_eq!(node_path_from_text("/"), path(&[], &[], true));
        assert_eq!(node_path_from_text(":"), NodePath::default());
    }

    #[test]
    fn text_as_godot() {
        assert_eq!(node_path_text(&path(&["a", "b"], &["c"], false)), "a/b:c");
        assert_eq!(node_path_text(&path(&["a"], &[""], false)), "a");
        assert_eq!(node_path_text(&path(&["a"], &["", ""], false)), "a::");
        assert_eq!(node_path_text(&path(&[], &[], true)), "/");
    }
}
