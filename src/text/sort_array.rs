//! Godot's `SortArray` (`core/templates/sort_array.h`), which orders a dictionary's keys for its
//! text in both engines, step for step: up to 16 items an insertion sort; more, an introsort
//! (median-of-three quicksort, a heap sort past `2 * log2(n)` levels) that leaves runs of at most
//! 16 items, then an insertion sort whose first 16 items are guarded and the rest not.
//!
//! Godot's key orders are not strict weak orders (NaN, types without `<`, Godot 3's `<` on
//! arrays), so which of several tied or inconsistent keys comes first depends on this exact
//! sequence of comparisons. Both engines' builds check for such comparisons (`ERR_BAD_COMPARE`:
//! "bad comparison function; sorting will be broken") where a scan would run past the range,
//! and stop that scan there; so does this.
//!
//! Godot's quicksort recursion is an explicit stack here (the ranges it sorts are disjoint, so
//! the order in which they are sorted does not change the result). Comparisons are asked of a
//! `less` that may refuse to answer (its budget of work is spent): the sort then stops with
//! [`Exhausted`], leaving the items in some order. With a consistent order the sort makes
//! O(n log n) comparisons; with an inconsistent one the unguarded insertion sort can make
//! O(n^2), which the budget stops.

use alloc::vec::Vec;

/// Godot's threshold between quicksort and insertion sort.
const THRESHOLD: usize = 16;

/// The comparison budget ran out before the sort ended.
#[derive(Debug)]
pub(super) struct Exhausted;

/// Sorts `items` as Godot's `SortArray::sort` does with `less`; `less` answers `None` to stop.
pub(super) fn sort(
    items: &mut [usize],
    less: impl FnMut(usize, usize) -> Option<bool>,
) -> Result<(), Exhausted> {
    let len = items.len();
    if len == 0 {
        return Ok(());
    }
    let mut sorter = Sorter { items, less };
    sorter.introsort(0, len, bitlog(len).saturating_mul(2))?;
    sorter.final_insertion_sort(0, len)
}

/// `floor(log2(n))` for `n >= 1`.
fn bitlog(mut n: usize) -> usize {
    let mut k = 0usize;
    while n > 1 {
        n >>= 1;
        k = k.saturating_add(1);
    }
    k
}

struct Sorter<'s, L> {
    items: &'s mut [usize],
    less: L,
}

impl<L: FnMut(usize, usize) -> Option<bool>> Sorter<'_, L> {
    fn at(&self, i: usize) -> usize {
        self.items.get(i).copied().unwrap_or(0)
    }

    fn set(&mut self, i: usize, value: usize) {
        if let Some(slot) = self.items.get_mut(i) {
            *slot = value;
        }
    }

    fn less(&mut self, a: usize, b: usize) -> Result<bool, Exhausted> {
        (self.less)(a, b).ok_or(Exhausted)
    }

    fn median_of_3(&mut self, a: usize, b: usize, c: usize) -> Result<usize, Exhausted> {
        Ok(if self.less(a, b)? {
            if self.less(b, c)? {
                b
            } else if self.less(a, c)? {
                c
            } else {
                a
            }
        } else if self.less(a, c)? {
            a
        } else if self.less(b, c)? {
            c
        } else {
            b
        })
    }

    fn push_heap(
        &mut self,
        first: usize,
        mut hole: usize,
        top: usize,
        value: usize,
    ) -> Result<(), Exhausted> {
        while hole > top {
            let parent = hole.saturating_sub(1) / 2;
            if !self.less(self.at(first.saturating_add(parent)), value)? {
                break;
            }
            self.set(first.saturating_add(hole), self.at(first.saturating_add(parent)));
            hole = parent;
        }
        self.set(first.saturating_add(hole), value);
        Ok(())
    }

    fn adjust_heap(
        &mut self,
        first: usize,
        mut hole: usize,
        len: usize,
        value: usize,
    ) -> Result<(), Exhausted> {
        let top = hole;
        let mut second = hole.saturating_mul(2).saturating_add(2);
        while second < len {
            let right = self.at(first.saturating_add(second));
            let left = self.at(first.saturating_add(second).saturating_sub(1));
            if self.less(right, left)? {
                second = second.saturating_sub(1);
            }
            self.set(first.saturating_add(hole), self.at(first.saturating_add(second)));
            hole = second;
            second = second.saturating_add(1).saturating_mul(2);
        }
        if second == len {
            let last = self.at(first.saturating_add(second).saturating_sub(1));
            self.set(first.saturating_add(hole), last);
            hole = second.saturating_sub(1);
        }
        self.push_heap(first, hole, top, value)
    }

    /// Moves the top of the heap `first..last` to `result` and puts `value` in the heap.
    fn pop_heap(
        &mut self,
        first: usize,
        last: usize,
        result: usize,
        value: usize,
    ) -> Result<(), Exhausted> {
        self.set(result, self.at(first));
        self.adjust_heap(first, 0, last.saturating_sub(first), value)
    }

    fn make_heap(&mut self, first: usize, last: usize) -> Result<(), Exhausted> {
        let len = last.saturating_sub(first);
        if len < 2 {
            return Ok(());
        }
        let mut parent = len.saturating_sub(2) / 2;
        loop {
            self.adjust_heap(first, parent, len, self.at(first.saturating_add(parent)))?;
            if parent == 0 {
                return Ok(());
            }
            parent = parent.saturating_sub(1);
        }
    }

    /// Godot's `partial_sort(first, last, last)`: a heap sort of `first..last`.
    fn heap_sort(&mut self, first: usize, mut last: usize) -> Result<(), Exhausted> {
        self.make_heap(first, last)?;
        while last.saturating_sub(first) > 1 {
            let end = last.saturating_sub(1);
            self.pop_heap(first, end, end, self.at(end))?;
            last = end;
        }
        Ok(())
    }

    fn partitioner(
        &mut self,
        mut first: usize,
        mut last: usize,
        pivot: usize,
    ) -> Result<usize, Exhausted> {
        let (start, end) = (first, last);
        loop {
            while self.less(self.at(first), pivot)? {
                if first == end.saturating_sub(1) {
                    break; // bad comparison function
                }
                first = first.saturating_add(1);
            }
            last = last.saturating_sub(1);
            while self.less(pivot, self.at(last))? {
                if last == start {
                    break; // bad comparison function
                }
                last = last.saturating_sub(1);
            }
            if first >= last {
                return Ok(first);
            }
            let (x, y) = (self.at(first), self.at(last));
            self.set(first, y);
            self.set(last, x);
            first = first.saturating_add(1);
        }
    }

    fn introsort(&mut self, first: usize, last: usize, depth: usize) -> Result<(), Exhausted> {
        // Ranges still to sort; Godot recurses into the right part and loops on the left one.
        let mut ranges: Vec<(usize, usize, usize)> = alloc::vec![(first, last, depth)];
        while let Some((first, mut last, mut depth)) = ranges.pop() {
            while last.saturating_sub(first) > THRESHOLD {
                if depth == 0 {
                    self.heap_sort(first, last)?;
                    break;
                }
                depth = depth.saturating_sub(1);
                let middle = first.saturating_add(last.saturating_sub(first) / 2);
                let (a, b, c) = (self.at(first), self.at(middle), self.at(last.saturating_sub(1)));
                let pivot = self.median_of_3(a, b, c)?;
                let cut = self.partitioner(first, last, pivot)?;
                ranges.push((cut, last, depth));
                last = cut;
            }
        }
        Ok(())
    }

    fn unguarded_linear_insert(&mut self, mut last: usize, value: usize) -> Result<(), Exhausted> {
        let mut next = last.saturating_sub(1);
        while self.less(value, self.at(next))? {
            if next == 0 {
                break; // bad comparison function
            }
            self.set(last, self.at(next));
            last = next;
            next = next.saturating_sub(1);
        }
        self.set(last, value);
        Ok(())
    }

    fn linear_insert(&mut self, first: usize, last: usize) -> Result<(), Exhausted> {
        let value = self.at(last);
        if self.less(value, self.at(first))? {
            if let Some(range) = self.items.get_mut(first..=last) {
                range.rotate_right(1);
            }
            Ok(())
        } else {
            self.unguarded_linear_insert(last, value)
        }
    }

    fn insertion_sort(&mut self, first: usize, last: usize) -> Result<(), Exhausted> {
        for i in first.saturating_add(1)..last {
            self.linear_insert(first, i)?;
        }
        Ok(())
    }

    fn final_insertion_sort(&mut self, first: usize, last: usize) -> Result<(), Exhausted> {
        if last.saturating_sub(first) > THRESHOLD {
            let guarded = first.saturating_add(THRESHOLD);
            self.insertion_sort(first, guarded)?;
            for i in guarded..last {
                self.unguarded_linear_insert(i, self.at(i))?;
            }
            Ok(())
        } else {
            self.insertion_sort(first, last)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(n: usize, less: impl Fn(usize, usize) -> bool) -> Vec<usize> {
        let mut items: Vec<usize> = (0..n).collect();
        sort(&mut items, |a, b| Some(less(a, b))).unwrap();
        items
    }

    #[test]
    fn sorts_a_consistent_order() {
        for n in [0, 1, 2, 16, 17, 100, 1000] {
            let keys: Vec<u64> = (0..n as u64).map(|i| (i * 7919) % 1013).collect();
            let order = sorted(n, |a, b| keys[a] < keys[b]);
            assert!(order.windows(2).all(|w| keys[w[0]] <= keys[w[1]]), "{n}");
        }
    }

    #[test]
    fn an_order_where_every_other_item_is_less_stops_at_the_ends() {
        // Godot 3.2.3 prints {PoolIntArray(i % 7, i): i for i in 0..40} in this order: every
        // pool array is "less" than every other, not than itself.
        let godot3 = [
            15, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19,
            18, 17, 16, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
        ];
        assert_eq!(sorted(40, |a, b| a != b), godot3);
    }

    #[test]
    fn a_spent_budget_stops_the_sort() {
        let mut items: Vec<usize> = (0..100).collect();
        let mut left = 50;
        let result = sort(&mut items, |a, b| {
            left -= 1;
            (left > 0).then_some(a > b)
        });
        assert!(result.is_err());
        items.sort_unstable();
        assert_eq!(items, (0..100).collect::<Vec<_>>());
    }
}
