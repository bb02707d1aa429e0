//! [`Dictionary`]: an owned dictionary in wire (insertion) order, with Godot's key semantics.

use alloc::vec::Vec;
use core::fmt;
use core::hash::BuildHasher;

use hashbrown::{DefaultHashBuilder, HashTable};

use super::Variant;
use super::key_semantics::{KeyRules, hash_key, keys_equal, never_equal};
use crate::ElementType;
use alloc::string::String;

/// A `Dictionary`: entries in insertion order (the order Godot writes and iterates them), the
/// declared key and value types of a typed dictionary (Godot 4.4+), and Godot's key equality.
///
/// Keys follow Godot, not Rust's `PartialEq`: `1` and `1.0` are different keys, `0.0` and `-0.0`
/// are one key, every NaN is the same key, `"a"` and `&"a"` (a `StringName`) are one key, arrays
/// and dictionaries compare by content. A key holding an object (other than a null one) is an
/// instance of its own, as every decoded object is in Godot: it equals no other key and is never
/// found by a lookup. A dictionary decoded from Godot 3 bytes keeps Godot 3's rules (`String` and
/// `StringName` apart, dictionary keys by reference, so never found either). Inserting an
/// existing key replaces its value and keeps its position and its first key, as `d[k] = v` does
/// in Godot, and as Godot's decoder does with repeated keys on the wire.
///
/// Lookups and inserts are O(1) expected: entries are indexed by a hash of the key (randomly
/// seeded, so crafted keys cannot force collisions cheaply), then compared with Godot's rules.
/// `PartialEq` compares the types and the entries in order.
#[derive(Clone)]
pub struct Dictionary {
    /// The declared key type ([`ElementType::Untyped`] for a plain `Dictionary`).
    pub key_type: ElementType<String>,
    /// The declared value type.
    pub value_type: ElementType<String>,
    entries: Vec<(Variant, Variant)>,
    /// Positions in `entries`, by key hash.
    index: HashTable<usize>,
    hasher: DefaultHashBuilder,
    rules: KeyRules,
}

impl Default for Dictionary {
    fn default() -> Self {
        Dictionary::with_rules(ElementType::Untyped, ElementType::Untyped, KeyRules::GODOT4)
    }
}

impl Dictionary {
    /// An empty untyped dictionary.
    pub fn new() -> Self {
        Dictionary::default()
    }

    /// An empty typed dictionary.
    pub fn typed(key_type: ElementType<String>, value_type: ElementType<String>) -> Self {
        Dictionary::with_rules(key_type, value_type, KeyRules::GODOT4)
    }

    /// An empty dictionary with the key equality of `rules`.
    pub(crate) fn with_rules(
        key_type: ElementType<String>,
        value_type: ElementType<String>,
        rules: KeyRules,
    ) -> Self {
        Dictionary {
            key_type,
            value_type,
            entries: Vec::new(),
            index: HashTable::new(),
            hasher: DefaultHashBuilder::default(),
            rules,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The value of `key`, if present. O(1) expected.
    pub fn get(&self, key: &Variant) -> Option<&Variant> {
        let index = self.find(key)?;
        self.entries.get(index).map(|(_, value)| value)
    }

    /// The value of `key`, mutably, if present. O(1) expected.
    pub fn get_mut(&mut self, key: &Variant) -> Option<&mut Variant> {
        let index = self.find(key)?;
        self.entries.get_mut(index).map(|(_, value)| value)
    }

    /// Whether `key` is present. O(1) expected.
    pub fn contains_key(&self, key: &Variant) -> bool {
        self.find(key).is_some()
    }

    /// Sets `key` to `value`, as `d[key] = value` does in Godot: an existing equal key keeps its
    /// position (and its own bits and type) and gets the new value, which returns the old one;
    /// otherwise the entry goes last. O(1) expected.
    pub fn insert(
        &mut self,
        key: impl Into<Variant>,
        value: impl Into<Variant>,
    ) -> Option<Variant> {
        let (key, value) = (key.into(), value.into());
        if never_equal(&key, self.rules) {
            // Equal to no key: never looked up, so not indexed.
            self.entries.push((key, value));
            return None;
        }
        let hash = self.hash_of(&key);
        if let Some(index) = self.find_hashed(&key, hash) {
            if let Some((_, slot)) = self.entries.get_mut(index) {
                return Some(core::mem::replace(slot, value));
            }
        }
        let position = self.entries.len();
        self.entries.push((key, value));
        let Dictionary { entries, index, hasher, .. } = self;
        index.insert_unique(hash, position, |&i| rehash(hasher, entries, i));
        None
    }

    /// Removes `key` and returns its value; the entries after it move up one place, keeping their
    /// order. O(n).
    pub fn remove(&mut self, key: &Variant) -> Option<Variant> {
        let index = self.find(key)?;
        if index >= self.entries.len() {
            return None;
        }
        let (_, value) = self.entries.remove(index);
        self.reindex();
        Some(value)
    }

    /// The entries in order.
    pub fn iter(
        &self,
    ) -> impl DoubleEndedIterator<Item = (&Variant, &Variant)> + ExactSizeIterator {
        self.entries.iter().map(|(key, value)| (key, value))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Variant> + ExactSizeIterator {
        self.entries.iter().map(|(key, _)| key)
    }

    /// The values in order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Variant> + ExactSizeIterator {
        self.entries.iter().map(|(_, value)| value)
    }

    /// The values in order, mutably (keys cannot change: they are indexed).
    pub fn values_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = &mut Variant> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, value)| value)
    }

    /// The entries in order, as a slice.
    pub fn entries(&self) -> &[(Variant, Variant)] {
        &self.entries
    }

    /// The entries in order, consuming the dictionary.
    pub fn into_entries(self) -> Vec<(Variant, Variant)> {
        self.entries
    }

    fn hash_of(&self, key: &Variant) -> u64 {
        let mut state = self.hasher.build_hasher();
        hash_key(key, &self.hasher, &mut state);
        core::hash::Hasher::finish(&state)
    }

    /// The position of `key` among the entries.
    fn find(&self, key: &Variant) -> Option<usize> {
        if self.entries.is_empty() || never_equal(key, self.rules) {
            return None;
        }
        self.find_hashed(key, self.hash_of(key))
    }

    /// The position of `key`, whose hash is `hash`, among the indexed entries.
    fn find_hashed(&self, key: &Variant, hash: u64) -> Option<usize> {
        let rules = self.rules;
        self.index
            .find(hash, |&i| self.entries.get(i).is_some_and(|(k, _)| keys_equal(k, key, rules)))
            .copied()
    }

    /// Rebuilds the index after entries moved.
    fn reindex(&mut self) {
        let Dictionary { entries, index, hasher, rules, .. } = self;
        index.clear();
        for position in 0..entries.len() {
            if entries.get(position).is_none_or(|(key, _)| never_equal(key, *rules)) {
                continue;
            }
            let hash = rehash(hasher, entries, position);
            index.insert_unique(hash, position, |&i| rehash(hasher, entries, i));
        }
    }
}

/// The hash of the key at `position` (0 for a position that does not exist, which never happens).
fn rehash(hasher: &DefaultHashBuilder, entries: &[(Variant, Variant)], position: usize) -> u64 {
    let mut state = hasher.build_hasher();
    if let Some((key, _)) = entries.get(position) {
        hash_key(key, hasher, &mut state);
    }
    core::hash::Hasher::finish(&state)
}

impl PartialEq for Dictionary {
    fn eq(&self, other: &Self) -> bool {
        self.key_type == other.key_type
            && self.value_type == other.value_type
            && self.entries == other.entries
    }
}

impl fmt::Debug for Dictionary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.key_type.is_untyped() || !self.value_type.is_untyped() {
            write!(f, "Dictionary[{:?}, {:?}] ", self.key_type, self.value_type)?;
        }
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Into<Variant>, V: Into<Variant>> FromIterator<(K, V)> for Dictionary {
    /// Inserts each pair in order, with [`Dictionary::insert`]'s rules for repeated keys.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut dictionary = Dictionary::new();
        for (key, value) in iter {
            dictionary.insert(key, value);
        }
        dictionary
    }
}

impl<K: Into<Variant>, V: Into<Variant>> Extend<(K, V)> for Dictionary {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (key, value) in iter {
            self.insert(key, value);
        }
    }
}

impl IntoIterator for Dictionary {
    type Item = (Variant, Variant);
    type IntoIter = alloc::vec::IntoIter<(Variant, Variant)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}
