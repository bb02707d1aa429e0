//! [`Dictionary`]: an owned dictionary in wire (insertion) order, with Godot's key semantics.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;
use core::hash::BuildHasher;

use hashbrown::{DefaultHashBuilder, HashTable};

use super::Variant;
use super::key_semantics::{KeyRules, hash_key, keys_equal, never_equal};
use super::lookup::LookupKey;
use super::variant::dispose;
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
/// Lookups and inserts are O(1) expected: a dictionary of up to 8 entries compares the key with
/// each of its keys in order (no hashing, no index to allocate); a larger one indexes its entries
/// by a hash of the key (randomly seeded, so crafted keys cannot force collisions cheaply), then
/// compares with Godot's rules. Container keys hash and compare in O(size of the key), without
/// recursion. `PartialEq` compares the types and the entries in order.
#[derive(Clone)]
pub struct Dictionary {
    /// The declared key type ([`ElementType::Untyped`] for a plain `Dictionary`).
    pub key_type: ElementType<String>,
    /// The declared value type.
    pub value_type: ElementType<String>,
    entries: Vec<(Variant, Variant)>,
    /// The hash index, once there are more than [`LINEAR`] entries (boxed: most dictionaries
    /// have none, and stay small).
    index: Option<Box<Index>>,
    rules: KeyRules,
}

/// Up to this many entries, a dictionary has no hash index: lookups compare keys in order.
const LINEAR: usize = 8;

/// Positions in a dictionary's entries, by key hash.
#[derive(Clone)]
struct Index {
    table: HashTable<usize>,
    hasher: DefaultHashBuilder,
}

impl Index {
    fn hash(&self, key: &Variant) -> u64 {
        hash_with(&self.hasher, key)
    }
}

/// The hash of `key` under `hasher`.
fn hash_with(hasher: &DefaultHashBuilder, key: &Variant) -> u64 {
    let mut state = hasher.build_hasher();
    hash_key(key, hasher, &mut state);
    core::hash::Hasher::finish(&state)
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
        Dictionary { key_type, value_type, entries: Vec::new(), index: None, rules }
    }

    /// Room for `additional` more entries.
    pub(crate) fn reserve_exact(&mut self, additional: usize) {
        self.entries.reserve_exact(additional);
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The value of `key` (a `&Variant`, or what a lazy lookup takes: `"hp"`, `3`, a
    /// [`Key`](crate::Key); see [`LookupKey`]), if present. O(1) expected; a key given as text
    /// is copied once.
    pub fn get<'k>(&self, key: impl Into<LookupKey<'k>>) -> Option<&Variant> {
        let index = self.find(&key.into().to_variant())?;
        self.entries.get(index).map(|(_, value)| value)
    }

    /// The value of `key`, mutably, if present. O(1) expected. Takes what
    /// [`get`](Self::get) takes.
    pub fn get_mut<'k>(&mut self, key: impl Into<LookupKey<'k>>) -> Option<&mut Variant> {
        let index = self.find(&key.into().to_variant())?;
        self.entries.get_mut(index).map(|(_, value)| value)
    }

    /// Whether `key` is present. O(1) expected. Takes what [`get`](Self::get) takes.
    pub fn contains_key<'k>(&self, key: impl Into<LookupKey<'k>>) -> bool {
        self.find(&key.into().to_variant()).is_some()
    }

    /// Sets `key` to `value`, as `d[key] = value` does in Godot: an existing equal key keeps its
    /// position (and its own bits and type) and gets the new value, which returns the old one;
    /// otherwise the entry goes last. O(1) expected. A key that is already present is dropped
    /// without recursion, however deep it is.
    pub fn insert(
        &mut self,
        key: impl Into<Variant>,
        value: impl Into<Variant>,
    ) -> Option<Variant> {
        self.insert_owned(key.into(), value.into())
    }

    fn insert_owned(&mut self, key: Variant, value: Variant) -> Option<Variant> {
        let Some(index) = &self.index else {
            // Few entries: compare with each key (a key equal to none is found by none).
            if let Some(position) = position_in(&self.entries, &key, self.rules) {
                if let Some((_, slot)) = self.entries.get_mut(position) {
                    dispose(key);
                    return Some(core::mem::replace(slot, value));
                }
            }
            self.entries.push((key, value));
            if self.entries.len() > LINEAR {
                self.reindex();
            }
            return None;
        };
        if never_equal(&key, self.rules) {
            // Equal to no key: never looked up, so not indexed.
            self.entries.push((key, value));
            return None;
        }
        let hash = index.hash(&key);
        if let Some(position) = self.find_hashed(index, &key, hash) {
            if let Some((_, slot)) = self.entries.get_mut(position) {
                dispose(key);
                return Some(core::mem::replace(slot, value));
            }
        }
        let position = self.entries.len();
        self.entries.push((key, value));
        if let Some(index) = &mut self.index {
            let Index { table, hasher } = &mut **index;
            let entries = &self.entries;
            table.insert_unique(hash, position, |&i| rehash(hasher, entries, i));
        }
        None
    }

    /// Removes `key` and returns its value; the entries after it move up one place, keeping their
    /// order. O(n). The removed key is dropped without recursion. Takes what
    /// [`get`](Self::get) takes.
    pub fn remove<'k>(&mut self, key: impl Into<LookupKey<'k>>) -> Option<Variant> {
        let index = self.find(&key.into().to_variant())?;
        if index >= self.entries.len() {
            return None;
        }
        let (key, value) = self.entries.remove(index);
        dispose(key);
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

    /// The rules its keys compare by.
    pub(crate) fn rules(&self) -> KeyRules {
        self.rules
    }

    /// The entries whose key may equal `key`: those with its hash once there is an index, else
    /// all of them. Feeds the content comparison of dictionaries.
    pub(crate) fn candidates<'a>(&'a self, key: &Variant) -> Candidates<'a> {
        match &self.index {
            None => Candidates::All(self.entries.iter()),
            Some(index) => Candidates::Hashed {
                positions: index.table.iter_hash(index.hash(key)),
                entries: &self.entries,
            },
        }
    }

    /// The position of `key` among the entries.
    fn find(&self, key: &Variant) -> Option<usize> {
        match &self.index {
            None => position_in(&self.entries, key, self.rules),
            Some(index) => {
                if never_equal(key, self.rules) {
                    return None;
                }
                self.find_hashed(index, key, index.hash(key))
            }
        }
    }

    /// The position of `key`, whose hash is `hash`, among the indexed entries.
    fn find_hashed(&self, index: &Index, key: &Variant, hash: u64) -> Option<usize> {
        let rules = self.rules;
        index
            .table
            .find(hash, |&i| self.entries.get(i).is_some_and(|(k, _)| keys_equal(k, key, rules)))
            .copied()
    }

    /// Rebuilds the index after entries moved, or drops it when there are few entries.
    fn reindex(&mut self) {
        if self.entries.len() <= LINEAR {
            self.index = None;
            return;
        }
        let Dictionary { entries, index, rules, .. } = self;
        let Index { table, hasher } = &mut **index.get_or_insert_with(|| {
            Box::new(Index { table: HashTable::new(), hasher: DefaultHashBuilder::default() })
        });
        table.clear();
        for position in 0..entries.len() {
            if entries.get(position).is_none_or(|(key, _)| never_equal(key, *rules)) {
                continue;
            }
            let hash = rehash(hasher, entries, position);
            table.insert_unique(hash, position, |&i| rehash(hasher, entries, i));
        }
    }
}

/// The position of `key` among `entries`, comparing it with each key in order.
fn position_in(entries: &[(Variant, Variant)], key: &Variant, rules: KeyRules) -> Option<usize> {
    // The most common keys, compared without the general comparison.
    match key {
        Variant::String(text) => entries.iter().position(|(k, _)| match k {
            Variant::String(other) => other == text,
            Variant::StringName(other) => !rules.godot3 && other == text,
            _ => false,
        }),
        Variant::Int(int) => {
            entries.iter().position(|(k, _)| matches!(k, Variant::Int(other) if other == int))
        }
        _ => entries.iter().position(|(k, _)| keys_equal(k, key, rules)),
    }
}

/// The entries of a dictionary whose key may equal a given key.
pub(crate) enum Candidates<'a> {
    /// Every entry (no index).
    All(core::slice::Iter<'a, (Variant, Variant)>),
    /// The entries at the positions the index gives for the key's hash.
    Hashed {
        positions: hashbrown::hash_table::IterHash<'a, usize>,
        entries: &'a [(Variant, Variant)],
    },
}

impl<'a> Iterator for Candidates<'a> {
    type Item = &'a (Variant, Variant);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Candidates::All(entries) => entries.next(),
            Candidates::Hashed { positions, entries } => {
                positions.find_map(|&position| entries.get(position))
            }
        }
    }
}

/// The hash of the key at `position` (0 for a position that does not exist, which never happens).
fn rehash(hasher: &DefaultHashBuilder, entries: &[(Variant, Variant)], position: usize) -> u64 {
    entries.get(position).map_or(0, |(key, _)| hash_with(hasher, key))
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
