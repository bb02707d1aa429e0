//! Exact dictionary-key identity over a [`Tape`]: every value inside a key gets a number, equal
//! for values Godot's key equality calls equal, so that a repeated key is found by comparing
//! numbers.
//!
//! The numbers are given bottom-up, each value once (hash-consing): a leaf is made owned and
//! looked up among the distinct leaves seen so far (with the owned
//! [`Dictionary`](crate::owned::Dictionary)'s hash and equality, which are decoding's, O(size of the
//! leaf)); an array is numbered by the numbers of its elements; a Godot 4 dictionary by its
//! entries as Godot decodes them (a repeated key keeps its first position and takes its last
//! value), sorted by key, since its equality ignores order; a value that equals nothing (a
//! non-null object, a Godot 3 dictionary, anything holding one) gets a number of its own. So
//! numbering everything inside a dictionary's keys costs O(n log n) over those keys, however
//! they nest, and a part already numbered costs O(1) when it is met again (inside an outer key
//! first, then as the key of its own dictionary). The walk keeps its pending parts on the heap.

use alloc::vec::Vec;
use core::hash::{BuildHasher, Hasher};

use hashbrown::{DefaultHashBuilder, HashMap};

use crate::owned::Variant;
use crate::owned::key_semantics::{KeyRules, hash_key, keys_equal, never_equal};
use crate::view::tape::Part;
use crate::wire::work;
use crate::{VariantRef, view::ObjectRef};

/// A part that has no number yet.
const UNKNOWN: u32 = u32::MAX;

/// The numbers given so far on one tape.
pub(crate) struct KeyIds {
    rules: KeyRules,
    /// By part index; [`UNKNOWN`] until numbered.
    ids: Vec<u32>,
    /// The next fresh number.
    fresh: u32,
    hasher: DefaultHashBuilder,
    /// The distinct leaves, by hash.
    leaves: HashMap<u64, Vec<(Variant, u32)>>,
    /// Arrays by their elements' numbers.
    arrays: HashMap<Vec<u32>, u32>,
    /// Godot 4 dictionaries by their entries' numbers (key, value, ...), sorted by key.
    dictionaries: HashMap<Vec<u32>, u32>,
}

impl KeyIds {
    /// Numbers for a tape of `parts` parts read under `rules`.
    pub(crate) fn new(parts: usize, rules: KeyRules) -> Self {
        KeyIds {
            rules,
            ids: alloc::vec![UNKNOWN; parts],
            fresh: 0,
            hasher: DefaultHashBuilder::default(),
            leaves: HashMap::new(),
            arrays: HashMap::new(),
            dictionaries: HashMap::new(),
        }
    }

    /// The number of `root`, numbering what inside it has none yet. O(size of what is newly
    /// numbered, times log for dictionaries); O(1) for a part numbered before.
    ///
    /// # Errors
    /// A leaf that cannot be made owned (a string Godot refuses).
    pub(crate) fn id(&mut self, root: Part<'_, '_>) -> crate::Result<u32> {
        if let Some(id) = self.known(root) {
            return Ok(id);
        }
        // Parts to number, each pushed again (`true`) once its children are pending.
        let mut pending: Vec<(Part<'_, '_>, bool)> = Vec::from([(root, false)]);
        while let Some((part, opened)) = pending.pop() {
            if self.known(part).is_some() {
                continue;
            }
            let id = match part.value() {
                VariantRef::Array(_) | VariantRef::Dictionary(_) if !self.fresh_container(part) => {
                    if !opened {
                        pending.push((part, true));
                        let children = part.children().filter(|c| self.known(*c).is_none());
                        pending.extend(children.map(|c| (c, false)));
                        continue;
                    }
                    self.container(part)
                }
                VariantRef::Array(_)
                | VariantRef::Dictionary(_)
                | VariantRef::Object(ObjectRef::Full(_)) => self.next_fresh(),
                _ => self.leaf(part)?,
            };
            if let Some(slot) = self.ids.get_mut(part.index() as usize) {
                *slot = id;
            }
        }
        Ok(self.known(root).unwrap_or(UNKNOWN))
    }

    fn known(&self, part: Part<'_, '_>) -> Option<u32> {
        self.ids.get(part.index() as usize).copied().filter(|&id| id != UNKNOWN)
    }

    /// The number of a part whose number is known (its children's, when its own is made).
    fn id_of(&self, part: Part<'_, '_>) -> u32 {
        self.known(part).unwrap_or(UNKNOWN)
    }

    fn next_fresh(&mut self) -> u32 {
        let id = self.fresh;
        self.fresh = self.fresh.saturating_add(1);
        id
    }

    /// Whether a container equals nothing without looking inside: a Godot 3 dictionary.
    fn fresh_container(&self, part: Part<'_, '_>) -> bool {
        self.rules.godot3 && matches!(part.value(), VariantRef::Dictionary(_))
    }

    /// The number of an array or Godot 4 dictionary whose children are numbered.
    fn container(&mut self, part: Part<'_, '_>) -> u32 {
        let mut numbers: Vec<u32> = part.children().map(|c| self.id_of(c)).collect();
        work::add(numbers.len());
        let table = if matches!(part.value(), VariantRef::Dictionary(_)) {
            numbers = merged_sorted(&numbers);
            &mut self.dictionaries
        } else {
            &mut self.arrays
        };
        if let Some(&id) = table.get(&numbers) {
            return id;
        }
        let id = self.fresh;
        table.insert(numbers, id);
        self.fresh = self.fresh.saturating_add(1);
        id
    }

    /// The number of a leaf: that of an equal leaf seen before, or a new one.
    fn leaf(&mut self, part: Part<'_, '_>) -> crate::Result<u32> {
        let owned = Variant::from_element(&part.element())?;
        if never_equal(&owned, self.rules) {
            return Ok(self.next_fresh());
        }
        let mut state = self.hasher.build_hasher();
        hash_key(&owned, &self.hasher, &mut state);
        let hash = state.finish();
        let rules = self.rules;
        let bucket = self.leaves.entry(hash).or_default();
        work::add(bucket.len());
        if let Some((_, id)) = bucket.iter().find(|(seen, _)| keys_equal(seen, &owned, rules)) {
            return Ok(*id);
        }
        let id = self.fresh;
        self.fresh = self.fresh.saturating_add(1);
        bucket.push((owned, id));
        Ok(id)
    }
}

/// A dictionary's `(key, value)` numbers, alternating, as Godot decodes the dictionary (one
/// entry per key number, with the last value), sorted by key number. O(k log k).
fn merged_sorted(numbers: &[u32]) -> Vec<u32> {
    let mut entries: Vec<(u32, usize, u32)> = numbers
        .chunks(2)
        .enumerate()
        .map(|(at, pair)| match *pair {
            [key, value] => (key, at, value),
            _ => (UNKNOWN, at, UNKNOWN),
        })
        .collect();
    // By key, then by position: the last of each key is the last of its run.
    entries.sort_unstable();
    work::add(sort_cost(entries.len()));
    let mut out = Vec::with_capacity(numbers.len());
    let mut iter = entries.iter().peekable();
    while let Some(&(key, _, value)) = iter.next() {
        if iter.peek().is_some_and(|next| next.0 == key) {
            continue;
        }
        out.push(key);
        out.push(value);
    }
    out
}

/// The steps of sorting `len` items: `len` times its bit length.
pub(crate) fn sort_cost(len: usize) -> usize {
    let bits = usize::BITS.saturating_sub(len.leading_zeros());
    len.saturating_mul(bits as usize)
}
