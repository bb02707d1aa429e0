//! [`Dictionary`]: an owned dictionary in wire (insertion) order, with Godot's key semantics.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use hashbrown::HashTable;

use super::Variant;
use super::key_hash::{NEVER, key_hash};
use super::key_semantics::{KeyRules, keys_equal};
use super::lookup::LookupKey;
use crate::ElementType;
use crate::wire::work;

/// A `Dictionary`: entries in insertion order (the order Godot writes and iterates them), the
/// declared key and value types of a typed dictionary (Godot 4.4+), and Godot's key equality.
///
/// Keys follow Godot, not Rust's `PartialEq`: `1` and `1.0` are different keys, `0.0` and `-0.0`
/// are one key, every NaN is the same key, `"a"` and `&"a"` (a `StringName`) are one key, strings
/// compare by code point (a Godot 3 key decoded from an overlong spelling of `"type"` is `"type"`,
/// see [`GdString`](crate::owned::GdString)), math values as the `f32`s Godot holds, arrays element by
/// element and dictionaries entry by entry in order. Inside a container key, Godot 4 compares an
/// array element or a dictionary value more strictly: a float NaN there equals nothing (so a key
/// `[NAN]` is never found, and two are two keys), and `"a"` never equals `&"a"` there (`["a"]`
/// and `[&"a"]` are two keys; `{"a": 1}` and `{&"a": 1}` one). A key holding an object (other
/// than a null one) is an instance of its own, as every decoded object is in Godot: it equals no
/// other key and is never found by a lookup. A dictionary decoded from Godot 3 bytes keeps Godot
/// 3's rules (`String` and `StringName` apart, a NaN equal to a NaN at every depth, dictionary
/// keys by reference, so never found either, and a `PackedFloat32Array` by its bytes, never
/// found when it holds a NaN). Inserting an
/// existing key replaces its value and keeps its position and its first key, as `d[k] = v` does
/// in Godot, and as Godot's decoder does with repeated keys on the wire.
///
/// Costs: a dictionary keeps a hash of each key (randomly seeded once per process, so crafted
/// keys cannot force collisions), computed once when the key goes in, in O(size of the key)
/// (nested dictionaries' keys excluded: those dictionaries keep their hashes). A lookup hashes
/// the key it is given, then compares it with the keys of the same hash only: among the hashes of
/// up to 8 entries, or in a hash index past that; so `get`, `insert` and `contains_key` are O(1)
/// expected after the hash, plus one comparison with the key that matches, which is O(size of
/// the key) and compares no pair of nested containers twice. `remove` is O(n) (it keeps the
/// order). Hashing, comparing, cloning, `==` and `Debug` are iterative, and dropping recurses at
/// most 8 levels before a walk that allocates nothing takes over, so a key or a value nested as
/// deep as Godot allows needs no deep call stack. `PartialEq` compares the types
/// and the entries in order (`f64` equality, like [`Variant`]'s).
pub struct Dictionary {
    /// The declared key type ([`ElementType::Untyped`] for a plain `Dictionary`).
    pub key_type: ElementType<String>,
    /// The declared value type.
    pub value_type: ElementType<String>,
    /// The entries, in order.
    pub(super) entries: Vec<(Variant, Variant)>,
    /// The hash of each entry's key under `rules` ([`NEVER`]: it equals no key), by position
    /// (in place up to [`LINEAR`] entries: most dictionaries need no allocation for them).
    pub(super) hashes: Hashes,
    /// The positions of the entries whose key can be found, by key hash, once there are more
    /// than [`LINEAR`] entries (boxed: most dictionaries have none).
    pub(super) index: Option<Box<HashTable<usize>>>,
    pub(super) rules: KeyRules,
}

/// Up to this many entries, a dictionary has no hash index: lookups scan the keys' hashes.
const LINEAR: usize = 8;

/// The hashes of a dictionary's keys, by position: up to [`LINEAR`] in place, more on the heap.
#[derive(Clone)]
pub(super) enum Hashes {
    /// The first `len` of `hashes`.
    Inline {
        len: u8,
        hashes: [u64; LINEAR],
    },
    Heap(Vec<u64>),
}

impl Hashes {
    /// No hashes, with room for `capacity`.
    fn with_capacity(capacity: usize) -> Hashes {
        if capacity <= LINEAR {
            Hashes::Inline { len: 0, hashes: [NEVER; LINEAR] }
        } else {
            Hashes::Heap(Vec::with_capacity(capacity))
        }
    }

    /// The hashes, in order.
    fn as_slice(&self) -> &[u64] {
        match self {
            Hashes::Inline { len, hashes } => hashes.get(..usize::from(*len)).unwrap_or(hashes),
            Hashes::Heap(hashes) => hashes,
        }
    }

    fn len(&self) -> usize {
        self.as_slice().len()
    }

    fn get(&self, position: usize) -> Option<&u64> {
        self.as_slice().get(position)
    }

    /// Adds `hash` last, moving to the heap past [`LINEAR`] hashes.
    fn push(&mut self, hash: u64) {
        match self {
            Hashes::Inline { len, hashes } => match hashes.get_mut(usize::from(*len)) {
                Some(slot) => {
                    *slot = hash;
                    *len = len.saturating_add(1);
                }
                None => {
                    let mut heap = Vec::with_capacity(LINEAR.saturating_mul(2));
                    heap.extend_from_slice(hashes);
                    heap.push(hash);
                    *self = Hashes::Heap(heap);
                }
            },
            Hashes::Heap(hashes) => hashes.push(hash),
        }
    }

    /// Removes the last hash.
    fn pop(&mut self) {
        match self {
            Hashes::Inline { len, .. } => *len = len.saturating_sub(1),
            Hashes::Heap(hashes) => {
                hashes.pop();
            }
        }
    }

    /// Removes the hash at `position` (in bounds), moving the later ones up.
    fn remove(&mut self, position: usize) {
        match self {
            Hashes::Inline { len, hashes } => {
                if let Some(tail) = hashes.get_mut(position..usize::from(*len)) {
                    tail.rotate_left(1);
                    *len = len.saturating_sub(1);
                }
            }
            Hashes::Heap(hashes) => {
                hashes.remove(position);
            }
        }
    }
}

/// What [`Dictionary::settle`] did with a value.
pub(crate) enum Settled {
    /// The pending key was new: the entry stays, last.
    Added,
    /// The pending key was already at `position`: it went, and the value replaced `old`.
    Replaced { position: usize, old: Variant },
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
            hashes: Hashes::with_capacity(0),
            index: None,
            rules,
        }
    }

    /// An empty dictionary with room for `capacity` entries (and their index, past [`LINEAR`]).
    pub(crate) fn with_capacity(
        key_type: ElementType<String>,
        value_type: ElementType<String>,
        rules: KeyRules,
        capacity: usize,
    ) -> Self {
        Dictionary {
            key_type,
            value_type,
            entries: Vec::with_capacity(capacity),
            hashes: Hashes::with_capacity(capacity),
            index: (capacity > LINEAR).then(|| Box::new(HashTable::with_capacity(capacity))),
            rules,
        }
    }

    /// Decoding into a used dictionary: empties it (its entries dropped without deep recursion)
    /// and leaves it as [`with_capacity`](Self::with_capacity) would make it, untyped, with
    /// `rules`, keeping the room its entries, hashes and index already had. O(what it held).
    pub(crate) fn recycle(&mut self, rules: KeyRules, capacity: usize) {
        super::dismantle::clear_entries(&mut self.entries);
        self.entries.reserve(capacity);
        self.key_type = ElementType::Untyped;
        self.value_type = ElementType::Untyped;
        self.rules = rules;
        match (&mut self.hashes, capacity > LINEAR) {
            (Hashes::Heap(hashes), true) => {
                hashes.clear();
                hashes.reserve(capacity);
            }
            _ => self.hashes = Hashes::with_capacity(capacity),
        }
        match (&mut self.index, capacity > LINEAR) {
            (Some(index), true) => {
                index.clear();
                // Empty, so nothing is hashed again.
                index.reserve(capacity, |_| NEVER);
            }
            (index, more) => *index = more.then(|| Box::new(HashTable::with_capacity(capacity))),
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

    /// The value of `key` (a `&Variant`, or what a lazy lookup takes: `"hp"`, `3`, a
    /// [`Key`](crate::Key); see [`LookupKey`]), if present. O(1) expected; a key given as text
    /// is copied once.
    pub fn get<'k>(&self, key: impl Into<LookupKey<'k>>) -> Option<&Variant> {
        let position = self.find(&key.into().to_variant())?;
        self.entries.get(position).map(|(_, value)| value)
    }

    /// The value of `key`, mutably, if present. O(1) expected. Takes what
    /// [`get`](Self::get) takes.
    pub fn get_mut<'k>(&mut self, key: impl Into<LookupKey<'k>>) -> Option<&mut Variant> {
        let position = self.find(&key.into().to_variant())?;
        self.entries.get_mut(position).map(|(_, value)| value)
    }

    /// Whether `key` is present. O(1) expected. Takes what [`get`](Self::get) takes.
    pub fn contains_key<'k>(&self, key: impl Into<LookupKey<'k>>) -> bool {
        self.find(&key.into().to_variant()).is_some()
    }

    /// Sets `key` to `value`, as `d[key] = value` does in Godot: an existing equal key keeps its
    /// position (and its own bits and type) and gets the new value, which returns the old one;
    /// otherwise the entry goes last. O(1) expected after hashing `key`, which is
    /// O(size of `key`). A key that is already present is dropped (without deep recursion, however
    /// deep it is).
    pub fn insert(
        &mut self,
        key: impl Into<Variant>,
        value: impl Into<Variant>,
    ) -> Option<Variant> {
        let key = key.into();
        let hash = key_hash(&key, self.rules);
        if let Some(position) = self.find_hashed(&key, hash, self.entries.len()) {
            if let Some((_, slot)) = self.entries.get_mut(position) {
                return Some(core::mem::replace(slot, value.into()));
            }
        }
        self.push(key, hash, value.into());
        None
    }

    /// Removes `key` and returns its value; the entries after it move up one place, keeping their
    /// order. O(n). The removed key is dropped without deep recursion. Takes what
    /// [`get`](Self::get) takes.
    pub fn remove<'k>(&mut self, key: impl Into<LookupKey<'k>>) -> Option<Variant> {
        let position = self.find(&key.into().to_variant())?;
        if position >= self.entries.len() {
            return None;
        }
        let (_, value) = self.entries.remove(position);
        if position < self.hashes.len() {
            self.hashes.remove(position);
        }
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
    pub fn into_entries(mut self) -> Vec<(Variant, Variant)> {
        core::mem::take(&mut self.entries)
    }

    /// The rules its keys compare by.
    pub(crate) fn rules(&self) -> KeyRules {
        self.rules
    }

    /// The hash of each key, by position ([`NEVER`] for keys that equal no key).
    pub(crate) fn key_hashes(&self) -> &[u64] {
        self.hashes.as_slice()
    }

    /// The position of `key` among the entries.
    fn find(&self, key: &Variant) -> Option<usize> {
        self.find_hashed(key, key_hash(key, self.rules), self.entries.len())
    }

    /// The position of `key`, whose hash is `hash`, among the first `limit` entries: one index
    /// probe (or a scan of the hashes of at most [`LINEAR`] entries), then a comparison with
    /// each key of the same hash.
    fn find_hashed(&self, key: &Variant, hash: u64, limit: usize) -> Option<usize> {
        if hash == NEVER {
            return None;
        }
        let rules = self.rules;
        let equal = |position: usize| {
            work::add(1);
            position < limit
                && self.hashes.get(position) == Some(&hash)
                && self.entries.get(position).is_some_and(|(k, _)| keys_equal(k, key, rules))
        };
        match &self.index {
            Some(table) => table.find(hash, |&position| equal(position)).copied(),
            None => {
                let all = self.hashes.as_slice();
                let hashes = all.get(..limit).unwrap_or(all);
                work::add(hashes.len());
                hashes.iter().enumerate().find(|&(p, &h)| h == hash && equal(p)).map(|(p, _)| p)
            }
        }
    }

    /// Adds an entry whose key, of hash `hash`, is not present.
    fn push(&mut self, key: Variant, hash: u64, value: Variant) {
        let position = self.entries.len();
        self.entries.push((key, value));
        self.hashes.push(hash);
        self.index_last(position, hash);
    }

    /// Indexes the entry at `position` (the last), building the index when it is due.
    fn index_last(&mut self, position: usize, hash: u64) {
        match &mut self.index {
            Some(table) if hash != NEVER => {
                let hashes = &self.hashes;
                table.insert_unique(hash, position, |&p| hashes.get(p).copied().unwrap_or(NEVER));
            }
            Some(_) => {}
            None if self.entries.len() > LINEAR => self.reindex(),
            None => {}
        }
    }

    /// Rebuilds the index after entries moved (from the kept hashes: no key is hashed again), or
    /// drops it when there are few entries. O(n).
    fn reindex(&mut self) {
        if self.entries.len() <= LINEAR {
            self.index = None;
            return;
        }
        let table = self.index.get_or_insert_with(Box::default);
        table.clear();
        let hashes = self.hashes.as_slice();
        work::add(hashes.len());
        for (position, &hash) in hashes.iter().enumerate() {
            if hash != NEVER {
                table.insert_unique(hash, position, |&p| hashes.get(p).copied().unwrap_or(NEVER));
            }
        }
    }

    /// Decoding: adds `key`, of hash `hash`, as a last entry whose value comes next (see
    /// [`settle`](Self::settle)); it is not indexed or looked up yet.
    pub(crate) fn push_pending(&mut self, key: Variant, hash: u64) {
        self.entries.push((key, Variant::Nil));
        self.hashes.push(hash);
    }

    /// Decoding: adds `key`, of hash `hash`, with `value`, as [`push_pending`](Self::push_pending)
    /// then [`settle`](Self::settle) would: when the key is already present, `key` goes (dropped,
    /// without deep recursion), `value` replaces that entry's value, and the old value is
    /// returned. O(1) expected, plus one key comparison.
    pub(crate) fn push_decoded(
        &mut self,
        key: Variant,
        hash: u64,
        value: Variant,
    ) -> Option<Variant> {
        // Fewer than `LINEAR` entries, their hashes in place: the search of `find_hashed` and
        // the push of `push`, without the index to keep.
        if let (None, Hashes::Inline { len, hashes }) = (&self.index, &mut self.hashes) {
            let count = usize::from(*len);
            if count < LINEAR && count == self.entries.len() {
                if hash != NEVER {
                    work::add(count);
                    let mut found = None;
                    for (position, &h) in hashes.iter().take(count).enumerate() {
                        if h == hash {
                            work::add(1);
                            let entry = self.entries.get(position);
                            if entry.is_some_and(|(k, _)| keys_equal(k, &key, self.rules)) {
                                found = Some(position);
                                break;
                            }
                        }
                    }
                    if let Some(position) = found {
                        let slot = self.entries.get_mut(position).map(|(_, slot)| slot);
                        return slot.map(|slot| core::mem::replace(slot, value));
                    }
                }
                if let Some(slot) = hashes.get_mut(count) {
                    *slot = hash;
                    *len = len.saturating_add(1);
                    self.entries.push((key, value));
                    return None;
                }
            }
        }
        if let Some(position) = self.find_hashed(&key, hash, self.entries.len()) {
            return self.entries.get_mut(position).map(|(_, slot)| core::mem::replace(slot, value));
        }
        self.push(key, hash, value);
        None
    }

    /// Decoding: gives the pending last entry its value. When its key is already present, the
    /// pending key goes (dropped, without deep recursion) and `value` replaces that entry's value, as
    /// Godot's decoder does with a repeated key. O(1) expected, plus one key comparison.
    pub(crate) fn settle(&mut self, value: Variant) -> Settled {
        let Some(last) = self.entries.len().checked_sub(1) else {
            return Settled::Added;
        };
        let hash = self.hashes.get(last).copied().unwrap_or(NEVER);
        let earlier = self.entries.get(last).and_then(|(key, _)| self.find_hashed(key, hash, last));
        if let Some(position) = earlier {
            self.entries.pop();
            self.hashes.pop();
            if let Some((_, slot)) = self.entries.get_mut(position) {
                let old = core::mem::replace(slot, value);
                return Settled::Replaced { position, old };
            }
            return Settled::Added;
        }
        if let Some((_, slot)) = self.entries.get_mut(last) {
            *slot = value;
        }
        self.index_last(last, hash);
        Settled::Added
    }
}

impl Clone for Dictionary {
    /// A deep copy, iterative (see [`Dictionary`]). O(size).
    fn clone(&self) -> Self {
        super::deep::clone_dictionary(self)
    }
}

impl Drop for Dictionary {
    /// Takes nested containers apart without deep recursion and without allocating.
    fn drop(&mut self) {
        super::dismantle::entries(core::mem::take(&mut self.entries));
    }
}

impl PartialEq for Dictionary {
    /// The same types and the same entries in the same order (`f64` equality). Iterative.
    fn eq(&self, other: &Self) -> bool {
        self.key_type == other.key_type
            && self.value_type == other.value_type
            && super::deep::entries_equal(&self.entries, &other.entries)
    }
}

impl fmt::Debug for Dictionary {
    /// `Dictionary[K, V] ` for a typed dictionary, then the entries as a map. Iterative.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::debug::dictionary(self, f)
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
        self.into_entries().into_iter()
    }
}
