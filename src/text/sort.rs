//! A dictionary's entries in print order, in memory (feature `alloc`): repeated keys merged as
//! Godot's decoder merges them (first position, last value), then sorted as Godot's text writer
//! sorts them.
//!
//! Godot sorts with its `SortArray` ([`sort_array`](super::sort_array)), which is reproduced
//! comparison for comparison, so keys that Godot's `<` does not order (ties, NaN, inconsistent
//! orders) come out as they do in the engine. That sort can take O(k^2) comparisons when the
//! order is inconsistent (Godot 3's `<` on arrays and pool arrays, where different values are
//! each less than the other); it gets a budget of work proportional to (K + k) log k, and when
//! the budget is spent the entries are sorted again with a stable merge sort: the text is then
//! ordered by Godot's `<` but not necessarily as the engine orders it.
//!
//! Costs, for a dictionary of k entries whose keys take K bytes: every key's sort form
//! ([`SortForms`]), O(K), and equality class ([`KeyClasses`], O(1) for a key numbered before,
//! since numbers are kept for the whole printing); merging O(k) with the classes in a table;
//! sorting within the budget, O((K + k) log k), and the merge sort after it O((K + k) log k) (it
//! outputs one of the two keys it compares). Memory is O(k + K).
//!
//! A dictionary whose keys are all plain `String`s (the common case) takes a shorter way with
//! the same result: one stable sort of the keys' bytes, O(K log k) (`string_keys`).

use alloc::vec::Vec;

use super::key_classes::KeyClasses;
use super::sort_array;
use super::sort_form::SortForms;
use crate::view::tape::Part;
use crate::wire::error::Error;
use crate::wire::options::Version;
use crate::wire::work;

/// Entries in print order: each key, its value as read when it was (so that printing does not
/// read it again), and the entry's value (`None`: one Godot does not find).
pub(super) type Sorted<'a, K, V> = Vec<(K, Option<crate::VariantRef<'a>>, Option<V>)>;

/// The entries in print order when every key is a `String` whose wire bytes are its shortest
/// form (every Godot 4 string; Godot 3 ones without overlong forms), else `None`. Such keys
/// are equal exactly when their bytes are, and Godot's `<` on them is the order of their bytes
/// (of their code points), a strict total order on distinct keys: every correct sort puts them
/// in the engine's order, so one stable sort by bytes merges the repeats (the first of a run
/// gives the position, the last the value) and orders the keys. O(K log k): each level of the
/// merge sort compares each key a bounded number of times, reading at most its length.
fn string_keys<'a, K: Copy, V: Copy>(
    keys: &[Part<'_, 'a>],
    entries: &[(K, V)],
) -> Result<Option<Sorted<'a, K, V>>, Error> {
    let mut texts = Vec::with_capacity(keys.len());
    for (index, key) in keys.iter().enumerate() {
        let crate::VariantRef::String(s) = key.value() else { return Ok(None) };
        let alloc::borrow::Cow::Borrowed(bytes) = s.game_text()?.shortest_bytes() else {
            return Ok(None);
        };
        texts.push((bytes, index, s));
    }
    // Each key's text is read once, and each comparison reads up to the shorter text (a unit
    // per 64 bytes, as the sort forms count).
    let read: usize = texts.iter().map(|(bytes, ..)| bytes.len() / 64).sum();
    work::add(read.saturating_add(keys.len()));
    texts.sort_by(|a, b| {
        work::add((a.0.len().min(b.0.len()) / 64).saturating_add(1));
        a.0.cmp(b.0)
    });
    let mut sorted = Vec::with_capacity(texts.len());
    let mut runs = texts.chunk_by(|a, b| a.0 == b.0);
    for run in &mut runs {
        let (Some(first), Some(last)) = (run.first(), run.last()) else { continue };
        let (Some(key), Some(value)) = (entries.get(first.1), entries.get(last.1)) else {
            continue;
        };
        sorted.push((key.0, Some(crate::VariantRef::String(first.2)), Some(value.1)));
    }
    Ok(Some(sorted))
}

/// The exact sort's budget, in work units per unit of (K + k) log k, and for every dictionary.
const BUDGET_FACTOR: usize = 2;
const BUDGET_BASE: usize = 4096;

/// An entry being put in order.
#[derive(Clone, Copy)]
struct Item<K, V> {
    key: K,
    value: V,
    /// The key's index in wire order (its sort form).
    index: usize,
    /// The key's equality class (0: equal to no key, not even itself).
    class: u32,
}

/// The entries of a dictionary (in wire order) in print order: repeated keys merged (first
/// position, last value), sorted with Godot's key order. A key that equals no key, not even
/// itself (Godot 3: a pool of reals holding a NaN), is not found when Godot looks its value up
/// to print it: its value is `None`, printed `null`.
/// `keys` are the entries' keys, read for their sort forms and numbered by `numbers`; `entries`
/// are what is returned for each entry, `(key, value)`.
pub(super) fn sorted<'a, K: Copy, V: Copy>(
    keys: &[Part<'_, 'a>],
    entries: Vec<(K, V)>,
    numbers: &mut KeyClasses<'a>,
    version: Version,
) -> Result<Sorted<'a, K, V>, Error> {
    if let Some(sorted) = string_keys(keys, &entries)? {
        return Ok(sorted);
    }
    let classes = numbers.classes(keys)?;
    let mut forms = SortForms::new(keys, version)?;
    let items: Vec<Item<K, V>> = entries
        .into_iter()
        .enumerate()
        .map(|(index, (key, value))| {
            let class = classes.get(index).copied().unwrap_or(0);
            Item { key, value, index, class }
        })
        .collect();
    let items = merge_repeats(items);
    let mut order: Vec<usize> = (0..items.len()).collect();
    let key_of = |i: usize| items.get(i).map_or(0, |item| item.index);
    let budget = BUDGET_FACTOR
        .saturating_mul(forms.size().saturating_add(items.len()))
        .saturating_mul(log2(items.len()).saturating_add(2))
        .saturating_add(BUDGET_BASE);
    let mut spent = 0usize;
    let exact = sort_array::sort(&mut order, |a, b| {
        let (less, cost) = forms.less(key_of(a), key_of(b));
        spent = spent.saturating_add(cost);
        (spent <= budget).then_some(less)
    });
    work::add(spent);
    if exact.is_err() {
        order = (0..items.len()).collect();
        merge_sort(&mut order, &mut |a, b| {
            let (less, cost) = forms.less(key_of(*a), key_of(*b));
            work::add(cost);
            less
        });
    }
    Ok(order
        .into_iter()
        .filter_map(|i| items.get(i))
        .map(|item| (item.key, None, (item.class != 0).then_some(item.value)))
        .collect())
}

/// `floor(log2(n))`, 0 for 0.
fn log2(n: usize) -> usize {
    usize::BITS.saturating_sub(n.leading_zeros()).saturating_sub(1) as usize
}

/// Merges entries with equal keys into the first one, which takes the last one's value.
fn merge_repeats<K: Copy, V: Copy>(items: Vec<Item<K, V>>) -> Vec<Item<K, V>> {
    work::add(items.len());
    // For each class (numbered from 1 to k at most): where it was kept.
    let mut kept_at: Vec<Option<usize>> = alloc::vec![None; items.len().saturating_add(1)];
    let mut kept: Vec<Item<K, V>> = Vec::with_capacity(items.len());
    for item in items {
        // Class 0: equal to no key.
        match kept_at.get_mut(item.class as usize).filter(|_| item.class != 0) {
            Some(Some(at)) => {
                if let Some(first) = kept.get_mut(*at) {
                    first.value = item.value;
                }
            }
            Some(slot) => {
                *slot = Some(kept.len());
                kept.push(item);
            }
            None => kept.push(item),
        }
    }
    kept
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
