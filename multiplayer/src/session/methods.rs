//! The project's RPC method lists, as Godot 4 numbers them.
//!
//! Godot 4 sends no method names: an RPC carries an index into the target node's methods,
//! sorted by name (Unicode code points, which is Rust's `str` order): first the methods set up
//! with `Node.rpc_config` (ids with bit 15 set), then the script's `@rpc` functions, inherited
//! ones included. SIMPLIFY_PATH carries the MD5 of every name of both lists in that order,
//! concatenated, so a list that does not match the peer's is detected, not silently misnamed.
//!
//! [`RpcMethods`] holds lists per node path pattern (a rules file's), per exact node path (a
//! project's scenes, [`crate::project`]) and per script (found by their checksum). Building a
//! list sorts it: O(k log k) for k names. Finding the list of a path is O(patterns x path
//! length + log paths); of a checksum, O(log lists).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::checksum_of;

/// One node's RPC methods: the `Node.rpc_config` ones and the script's, each sorted as Godot
/// sorts them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodList {
    native: Vec<String>,
    script: Vec<String>,
    checksum: [u8; 32],
}

impl MethodList {
    /// A list from the script's `@rpc` functions (inherited ones included), in any order.
    pub fn script<S: Into<String>>(script: impl IntoIterator<Item = S>) -> Self {
        Self::new(core::iter::empty::<String>(), script)
    }

    /// A list from the methods configured with `Node.rpc_config` and the script's, each in any
    /// order (repeated names count once, as dictionary keys do in Godot).
    pub fn new<A: Into<String>, B: Into<String>>(
        native: impl IntoIterator<Item = A>,
        script: impl IntoIterator<Item = B>,
    ) -> Self {
        let sorted = |names: Vec<String>| {
            let mut names = names;
            names.sort_unstable();
            names.dedup();
            names
        };
        let native = sorted(native.into_iter().map(Into::into).collect());
        let script = sorted(script.into_iter().map(Into::into).collect());
        let checksum = checksum_of(native.iter().chain(script.iter()).map(String::as_str));
        MethodList { native, script, checksum }
    }

    /// The checksum SIMPLIFY_PATH carries for this list.
    pub fn checksum(&self) -> &[u8; 32] {
        &self.checksum
    }

    /// The name of method `id` (bit 15: the `Node.rpc_config` list). O(1).
    pub fn name(&self, id: u16) -> Option<&str> {
        let list = if id & 0x8000 != 0 { &self.native } else { &self.script };
        list.get(usize::from(id & 0x7FFF)).map(String::as_str)
    }

    /// The id Godot's sender uses for `name` (a script method wins over a native one of the
    /// same name). O(log names + name length).
    pub fn id(&self, name: &str) -> Option<u16> {
        let index = |list: &[String]| {
            list.binary_search_by(|n| n.as_str().cmp(name)).ok().and_then(|i| u16::try_from(i).ok())
        };
        index(&self.script).or_else(|| index(&self.native).map(|i| i | 0x8000))
    }
}

/// A node path pattern: segments separated by `/`; a segment `*` matches any one name, a
/// segment ending in `*` any name with that beginning, and a last segment `**` any number of
/// names (at least one). Matching is O(path length).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathPattern {
    segments: Vec<String>,
}

impl PathPattern {
    /// The pattern `text` (`World/Players/*`, `Level/**`).
    pub fn new(text: &str) -> Self {
        PathPattern { segments: text.split('/').map(String::from).collect() }
    }

    /// Whether `path` (a canonical relative path, `World/Player`) matches.
    pub fn matches(&self, path: &str) -> bool {
        let mut names = path.split('/');
        for (i, segment) in self.segments.iter().enumerate() {
            if segment == "**" && i.saturating_add(1) == self.segments.len() {
                return names.next().is_some();
            }
            let Some(name) = names.next() else { return false };
            crate::work(1);
            let ok = match segment.strip_suffix('*') {
                Some(prefix) => name.starts_with(prefix),
                None => name == segment,
            };
            if !ok {
                return false;
            }
        }
        names.next().is_none()
    }
}

/// Where a node's method names come from, and whether the peer agrees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Checksum {
    /// A list was found (for the node's path, or by the checksum), and its checksum is the one
    /// the peer sent: ids name methods.
    Verified,
    /// The list given for the node's path has another checksum than the peer's: the lists
    /// differ, and ids are not named.
    Mismatch,
    /// No list for the node, and none with the peer's checksum.
    Unlisted,
    /// The node was addressed by path without a SIMPLIFY_PATH seen before: named from the list
    /// of its path, not verified.
    Unchecked,
}

impl Checksum {
    /// Lowercase name: `verified`, `mismatch`, `unlisted`, `unchecked`.
    pub const fn name(self) -> &'static str {
        match self {
            Checksum::Verified => "verified",
            Checksum::Mismatch => "mismatch",
            Checksum::Unlisted => "unlisted",
            Checksum::Unchecked => "unchecked",
        }
    }
}

/// The project's RPC method lists: per node path pattern, and per script (a list without a
/// path, found by the checksum a peer sends).
#[derive(Clone, Debug, Default)]
pub struct RpcMethods {
    lists: Vec<MethodList>,
    nodes: Vec<(PathPattern, usize)>,
    /// Exact paths read from a project: their list is a guess (a script can be swapped at run
    /// time), so a checksum that disagrees falls back to the lists per checksum.
    exact: BTreeMap<String, usize>,
    by_checksum: BTreeMap<[u8; 32], Vec<usize>>,
}

impl RpcMethods {
    /// No lists: Godot 4 method ids stay unnamed.
    pub fn new() -> Self {
        Self::default()
    }

    /// The methods of the nodes whose path matches `pattern` (the first pattern added that
    /// matches a path is the one used).
    pub fn node(&mut self, pattern: &str, list: MethodList) -> &mut Self {
        let index = self.add(list);
        self.nodes.push((PathPattern::new(pattern), index));
        self
    }

    /// The methods of the node at exactly `path`, as read from a project's scenes. A pattern
    /// given with [`RpcMethods::node`] that matches the path wins; a path given twice keeps its
    /// first list. When the peer's checksum is not this list's, the node is named by a list
    /// with the peer's checksum if there is one (a script set at run time), else its methods
    /// stay unnamed ([`Checksum::Mismatch`]).
    pub fn project_node(&mut self, path: &str, list: MethodList) -> &mut Self {
        if !self.exact.contains_key(path) {
            let index = self.add(list);
            self.exact.insert(path.into(), index);
        }
        self
    }

    /// Whether a pattern given with [`RpcMethods::node`] or a path given with
    /// [`RpcMethods::project_node`] matches `path`.
    pub fn names_path(&self, path: &str) -> bool {
        self.for_path(path).is_some()
    }

    /// The node patterns given with [`RpcMethods::node`], in order.
    pub fn patterns(&self) -> impl Iterator<Item = &PathPattern> {
        self.nodes.iter().map(|(pattern, _)| pattern)
    }

    /// The number of method lists held (of every kind).
    pub fn len(&self) -> usize {
        self.lists.len()
    }

    /// Whether no list is held.
    pub fn is_empty(&self) -> bool {
        self.lists.is_empty()
    }

    /// The methods of a script, for any node whose SIMPLIFY_PATH carries its checksum.
    pub fn script(&mut self, list: MethodList) -> &mut Self {
        self.add(list);
        self
    }

    fn add(&mut self, list: MethodList) -> usize {
        let index = self.lists.len();
        self.by_checksum.entry(list.checksum).or_default().push(index);
        self.lists.push(list);
        index
    }

    /// The list at `index`.
    pub(crate) fn list(&self, index: usize) -> Option<&MethodList> {
        self.lists.get(index)
    }

    /// The list given for `path`: the first pattern that matches, else the exact path.
    pub(crate) fn for_path(&self, path: &str) -> Option<usize> {
        self.nodes
            .iter()
            .find(|(pattern, _)| pattern.matches(path))
            .map(|&(_, index)| index)
            .or_else(|| self.exact.get(path).copied())
    }

    /// The list for a node at `path` announced with `checksum`, and what the checksum says: the
    /// path's list when it has this checksum; else, when no path pattern matches, a script list
    /// with this checksum (the first one given, if several share it). A project's exact path
    /// whose list has another checksum falls back to the lists per checksum.
    pub(crate) fn resolve(&self, path: &str, checksum: &[u8]) -> (Option<usize>, Checksum) {
        let same = |index: usize| {
            self.lists.get(index).is_some_and(|list| list.checksum.as_slice() == checksum)
        };
        let found = <[u8; 32]>::try_from(checksum)
            .ok()
            .and_then(|key| self.by_checksum.get(&key))
            .and_then(|indexes| indexes.first().copied());
        if let Some(index) =
            self.nodes.iter().find(|(pattern, _)| pattern.matches(path)).map(|&(_, i)| i)
        {
            return if same(index) {
                (Some(index), Checksum::Verified)
            } else {
                (None, Checksum::Mismatch)
            };
        }
        if let Some(&index) = self.exact.get(path) {
            return match (same(index), found) {
                (true, _) => (Some(index), Checksum::Verified),
                (false, Some(other)) => (Some(other), Checksum::Verified),
                (false, None) => (None, Checksum::Mismatch),
            };
        }
        match found {
            Some(index) => (Some(index), Checksum::Verified),
            None => (None, Checksum::Unlisted),
        }
    }
}
