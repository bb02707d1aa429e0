//! A dictionary's entries in print order, in memory (feature `alloc`): repeated keys merged
//! (first position, last value) and the keys sorted with Godot's order.

use super::KeyOrder;
use super::order;
use crate::VariantRef;
use crate::view::dictionary::DictionaryRef;
use crate::view::element::Element;
use crate::wire::error::Error;
use crate::wire::options::Version;

/// Entries up to which repeated keys are merged before sorting (O(k²) equality checks).
const MERGE_BEFORE_SORT: usize = 256;

/// Godot sorts up to this many keys by insertion (stable), more with introsort.
const INSERTION_SORT_MAX: usize = 16;

/// The entries of `dictionary` in print order: repeated keys merged (first position, last
/// value), sorted with Godot's key order.
pub(super) fn sorted<'a>(
    dictionary: DictionaryRef<'a>,
    version: Version,
) -> Result<KeyOrder<'a>, Error> {
    use alloc::vec::Vec;
    let mut entries: Vec<(Element<'a>, Element<'a>)> = Vec::new();
    for entry in dictionary.entries() {
        entries.push(entry?);
    }
    let merged_first = entries.len() <= MERGE_BEFORE_SORT;
    if merged_first {
        entries = merge_repeats(entries, version, |_, _| Ok(true))?;
    }
    let mut failure = None;
    let mut less =
        |a: &(Element<'a>, Element<'a>), b: &(Element<'a>, Element<'a>)| match order::key_less(
            &a.0.value(),
            &b.0.value(),
            version,
        ) {
            Ok(less) => less,
            Err(error) => {
                failure.get_or_insert(error);
                false
            }
        };
    if entries.len() <= INSERTION_SORT_MAX {
        insertion_sort(&mut entries, &mut less);
    } else {
        merge_sort(&mut entries, &mut less);
    }
    if let Some(error) = failure {
        return Err(error);
    }
    if !merged_first {
        // Repeats of one key are neighbours of equal rank after a stable sort.
        entries = merge_repeats(entries, version, |a, b| {
            Ok(!order::key_less(a, b, version)? && !order::key_less(b, a, version)?)
        })?;
    }
    Ok(KeyOrder::Sorted { entries, next: 0 })
}

/// Merges entries with equal keys into the first one, which takes the last one's value. Only
/// entries kept since the last one for which `same_run` was false are compared.
fn merge_repeats<'a>(
    entries: alloc::vec::Vec<(Element<'a>, Element<'a>)>,
    version: Version,
    same_run: impl Fn(&VariantRef<'a>, &VariantRef<'a>) -> Result<bool, Error>,
) -> Result<alloc::vec::Vec<(Element<'a>, Element<'a>)>, Error> {
    let mut kept: alloc::vec::Vec<(Element<'a>, Element<'a>)> = alloc::vec::Vec::new();
    let mut run_start = 0usize;
    for (key, value) in entries {
        let key_value = key.value();
        if let Some((last_key, _)) = kept.last() {
            if !same_run(&last_key.value(), &key_value)? {
                run_start = kept.len();
            }
        }
        let mut merged = false;
        for (kept_key, kept_value) in kept.iter_mut().skip(run_start) {
            if order::key_eq(&kept_key.value(), &key_value, version, 0)? {
                *kept_value = value;
                merged = true;
                break;
            }
        }
        if !merged {
            kept.push((key, value));
        }
    }
    Ok(kept)
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

/// A stable bottom-up merge sort that never panics, whatever `less` answers.
fn merge_sort<T: Copy>(items: &mut alloc::vec::Vec<T>, less: &mut impl FnMut(&T, &T) -> bool) {
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
        let mut items: alloc::vec::Vec<(u8, usize)> =
            (0..100).map(|i| (((i * 7) % 5) as u8, i)).collect();
        merge_sort(&mut items, &mut |a, b| a.0 < b.0);
        assert!(items.windows(2).all(|w| w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 < w[1].1)));
    }
}
