//! A dictionary's entries in print order, in memory (feature `alloc`): repeated keys merged
//! (first position, last value) and the keys sorted with Godot's order.
//!
//! Up to [`MERGE_BEFORE_SORT`] entries, repeated keys are merged first, then sorted; past that,
//! all entries are sorted and a repeat is merged into an equal key kept in the same run of
//! tied keys. Up to [`INSERTION_SORT_MAX`] keys are sorted by Godot's insertion sort, more by a
//! stable merge sort. Godot's `<` is not a strict weak order (NaN, types without `<`, and in
//! Godot 4 strings compared by text but with other types by type id), so the result depends on
//! the exact algorithm: these are the ones the text has always been printed with.
//!
//! Costs, for a dictionary of k entries whose keys take K bytes: every key's sort form
//! ([`SortForms`]), O(K), and equality class ([`KeyClasses`], O(1) for a key numbered before,
//! since numbers are kept for the whole printing); O(k log k) comparisons of forms, each at most
//! the shorter key's tokens, and a merge sort outputs one of the two keys it compares, so
//! sorting is O((K + k) log k); merging is O(k) with the classes in a table. Memory is
//! O(k + K).

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::key_classes::KeyClasses;
use super::sort_form::SortForms;
use crate::view::tape::Part;
use crate::wire::error::Error;
use crate::wire::options::Version;
use crate::wire::work;

/// Entries up to which repeated keys are merged before sorting.
const MERGE_BEFORE_SORT: usize = 256;

/// Godot sorts up to this many keys by insertion (stable), more with introsort.
const INSERTION_SORT_MAX: usize = 16;

/// An entry being put in order.
#[derive(Clone, Copy)]
struct Item<K, V> {
    key: K,
    value: V,
    /// The key's index in wire order (its sort form).
    index: usize,
    /// The key's equality class (0: equal to no key).
    class: u32,
}

/// The entries of a dictionary (in wire order) in print order: repeated keys merged (first
/// position, last value), sorted with Godot's key order.
/// `keys` are the entries' keys, read for their sort forms and numbered by `numbers`; `entries`
/// are what is returned for each entry, `(key, value)`.
pub(super) fn sorted<'a, K: Copy, V: Copy>(
    keys: &[Part<'_, 'a>],
    entries: Vec<(K, V)>,
    numbers: &mut KeyClasses<'a>,
    version: Version,
) -> Result<Vec<(K, V)>, Error> {
    let classes = numbers.classes(keys)?;
    let forms = SortForms::new(keys, version)?;
    let mut items: Vec<Item<K, V>> = entries
        .into_iter()
        .enumerate()
        .map(|(index, (key, value))| {
            let class = classes.get(index).copied().unwrap_or(0);
            Item { key, value, index, class }
        })
        .collect();
    let merged_first = items.len() <= MERGE_BEFORE_SORT;
    if merged_first {
        items = merge_repeats(items, |_, _| true);
    }
    let mut less = |a: &Item<K, V>, b: &Item<K, V>| forms.cmp(a.index, b.index) == Ordering::Less;
    if items.len() <= INSERTION_SORT_MAX {
        insertion_sort(&mut items, &mut less);
    } else {
        merge_sort(&mut items, &mut less);
    }
    if !merged_first {
        // Repeats of one key are tied; a stable sort leaves them in runs of tied keys.
        items = merge_repeats(items, |a, b| forms.cmp(a.index, b.index).is_eq());
    }
    Ok(items.into_iter().map(|item| (item.key, item.value)).collect())
}

/// Merges entries with equal keys into the first one, which takes the last one's value. A run
/// of entries ends where `same_run(last kept entry, entry)` is false; only entries kept in the
/// current run are merged into.
fn merge_repeats<K: Copy, V: Copy>(
    items: Vec<Item<K, V>>,
    same_run: impl Fn(&Item<K, V>, &Item<K, V>) -> bool,
) -> Vec<Item<K, V>> {
    work::add(items.len());
    // For each class (numbered from 1 to k at most): the run it was last kept in and where.
    let mut kept_at: Vec<Option<(usize, usize)>> = alloc::vec![None; items.len().saturating_add(1)];
    let mut kept: Vec<Item<K, V>> = Vec::with_capacity(items.len());
    let mut run = 0usize;
    for item in items {
        if let Some(last) = kept.last() {
            if !same_run(last, &item) {
                run = run.saturating_add(1);
            }
        }
        // Class 0: equal to no key.
        let slot = kept_at.get_mut(item.class as usize).filter(|_| item.class != 0);
        match slot {
            Some(Some((in_run, at))) if *in_run == run => {
                if let Some(first) = kept.get_mut(*at) {
                    first.value = item.value;
                }
            }
            Some(slot) => {
                *slot = Some((run, kept.len()));
                kept.push(item);
            }
            None => kept.push(item),
        }
    }
    kept
}

/// Godot's insertion sort: an element less than the first goes to the front, otherwise it moves
/// back past every element it is less than.
fn insertion_sort<T: Copy>(items: &mut [T], less: &mut impl FnMut(&T, &T) -> bool) {
    for i in 1..items.len() {
        let Some(&value) = items.get(i) else { break };
        let to = match items.first() {
            Some(first) if less(&value, first) => 0,
            _ => {
                let mut j = i;
                while let Some(previous) = j.checked_sub(1).and_then(|p| items.get(p)) {
                    if !less(&value, previous) {
                        break;
                    }
                    j = j.saturating_sub(1);
                }
                j
            }
        };
        if let Some(range) = items.get_mut(to..=i) {
            range.rotate_right(1);
        }
    }
}

/// A stable bottom-up merge sort that never panics, whatever `less` answers. Each comparison
/// outputs one of the two elements it compares.
pub(super) fn merge_sort<T: Copy>(items: &mut Vec<T>, less: &mut impl FnMut(&T, &T) -> bool) {
    let n = items.len();
    let mut from = items.clone();
    let mut to = items.clone();
    let mut width = 1usize;
    while width < n {
        let mut start = 0usize;
        while start < n {
            let mid = start.saturating_add(width).min(n);
            let end = start.saturating_add(width.saturating_mul(2)).min(n);
            let (mut i, mut j) = (start, mid);
            for slot in to.get_mut(start..end).unwrap_or(&mut []) {
                let take_right = match (from.get(i), from.get(j)) {
                    (Some(left), Some(right)) if i < mid && j < end => less(right, left),
                    _ => i >= mid,
                };
                let source = if take_right { &mut j } else { &mut i };
                if let Some(item) = from.get(*source) {
                    *slot = *item;
                }
                *source = source.saturating_add(1);
            }
            start = end;
        }
        core::mem::swap(&mut from, &mut to);
        width = width.saturating_mul(2);
    }
    *items = from;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_sort_is_stable() {
        let mut items: Vec<(u8, usize)> = (0..100).map(|i| (((i * 7) % 5) as u8, i)).collect();
        merge_sort(&mut items, &mut |a, b| a.0 < b.0);
        assert!(items.windows(2).all(|w| w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 < w[1].1)));
    }
}
