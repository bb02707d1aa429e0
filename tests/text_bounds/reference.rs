//! Straightforward statements of Godot's key rules, for comparison: its `<` and its key
//! equality by recursion, its sort written out as in `sort_array.h`.

use std::cmp::Ordering;

use gdvariant::{VariantRef, Version, view::ObjectRef};

use super::{G3, G4};

fn is_string(v: &VariantRef<'_>) -> bool {
    matches!(v, VariantRef::String(_) | VariantRef::StringName(_))
}

fn text<'a>(v: &VariantRef<'a>) -> &'a [u8] {
    v.as_gd_str().map_or(&[], |s| s.text_bytes())
}

fn type_id(v: &VariantRef<'_>, version: Version) -> u8 {
    let ty = v.variant_type();
    ty.id(version).or_else(|| ty.id(G4)).unwrap()
}

fn items<'a>(v: &VariantRef<'a>) -> Vec<VariantRef<'a>> {
    v.as_array().unwrap().iter().map(Result::unwrap).collect()
}

fn entries<'a>(v: &VariantRef<'a>) -> Vec<(VariantRef<'a>, VariantRef<'a>)> {
    v.as_dictionary().unwrap().iter().map(Result::unwrap).collect()
}

/// Real components as a single-precision engine stores them.
fn reals(v: &VariantRef<'_>) -> Option<Vec<f64>> {
    let narrow = |c: f64| f64::from(c as f32);
    match v {
        VariantRef::Vector2(r) => Some(vec![narrow(r.get().x), narrow(r.get().y)]),
        VariantRef::Color(c) => Some([c.r, c.g, c.b, c.a].map(f64::from).to_vec()),
        _ => None,
    }
}

fn floats(v: &VariantRef<'_>) -> Vec<f32> {
    match v {
        VariantRef::PackedFloat32Array(p) => p.iter().collect(),
        _ => unreachable!(),
    }
}

/// Godot's vector `<`.
fn lexicographic_less(a: &[f64], b: &[f64]) -> bool {
    for i in 0..a.len() {
        if i == a.len() - 1 || a[i] != b[i] {
            return a[i] < b[i];
        }
    }
    false
}

/// The text writer's key order: `StringLikeVariantOrder` in Godot 4, `Variant::operator<`
/// in Godot 3.
pub fn key_less(a: &VariantRef<'_>, b: &VariantRef<'_>, version: Version) -> bool {
    match version {
        G4 if is_string(a) && is_string(b) => text(a) < text(b),
        G4 => cmp4(a, b) == Ordering::Less,
        G3 => less3(a, b),
    }
}

/// Godot 4's `Variant::operator<`, both ways at once (`Array::operator<` asks `<` both ways
/// for each element, and Godot 4's `<` is never true both ways).
fn cmp4(a: &VariantRef<'_>, b: &VariantRef<'_>) -> Ordering {
    let (ta, tb) = (type_id(a, G4), type_id(b, G4));
    if ta != tb {
        return ta.cmp(&tb);
    }
    let both = |less: bool, greater: bool| match (less, greater) {
        (true, _) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => Ordering::Equal,
    };
    match (a, b) {
        (VariantRef::Bool(x), VariantRef::Bool(y)) => x.cmp(y),
        (VariantRef::Int(x), VariantRef::Int(y)) => x.cmp(y),
        (VariantRef::Float(x), VariantRef::Float(y)) => both(x < y, y < x),
        (VariantRef::String(_) | VariantRef::StringName(_), _) => text(a).cmp(text(b)),
        (VariantRef::Vector2(_), _) => {
            let (x, y) = (reals(a).unwrap(), reals(b).unwrap());
            both(lexicographic_less(&x, &y), lexicographic_less(&y, &x))
        }
        (VariantRef::Array(_), VariantRef::Array(_)) => {
            let (x, y) = (items(a), items(b));
            for (p, q) in x.iter().zip(&y) {
                let order = cmp4(p, q);
                if order != Ordering::Equal {
                    return order;
                }
            }
            x.len().cmp(&y.len())
        }
        _ => Ordering::Equal,
    }
}

/// Godot 3's `Variant::operator<`.
fn less3(a: &VariantRef<'_>, b: &VariantRef<'_>) -> bool {
    let (ta, tb) = (type_id(a, G3), type_id(b, G3));
    if ta != tb {
        return ta < tb;
    }
    match (a, b) {
        (VariantRef::Bool(x), VariantRef::Bool(y)) => !x && *y,
        (VariantRef::Int(x), VariantRef::Int(y)) => x < y,
        (VariantRef::Float(x), VariantRef::Float(y)) => x < y,
        (VariantRef::String(_), _) => text(a) < text(b),
        (VariantRef::Vector2(_), _) => lexicographic_less(&reals(a).unwrap(), &reals(b).unwrap()),
        (VariantRef::Array(_), _) => {
            // `variant_op.cpp`: not longer, and some element not less.
            let (x, y) = (items(a), items(b));
            if y.len() < x.len() {
                return false;
            }
            (0..x.len()).any(|i| !less3(&x[i], &y[i]))
        }
        (VariantRef::PackedInt32Array(x), VariantRef::PackedInt32Array(y)) => {
            x.to_vec() != y.to_vec()
        }
        (VariantRef::PackedFloat32Array(_), _) => {
            let (x, y) = (floats(a), floats(b));
            x.len() != y.len() || x.iter().zip(&y).any(|(p, q)| p != q)
        }
        (VariantRef::Object(x), VariantRef::Object(y)) => {
            matches!(x, ObjectRef::Null) && !matches!(y, ObjectRef::Null)
        }
        _ => false,
    }
}

fn float_eq(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

/// Whether Godot 3 does not find `v` when it looks it up as a key: a pool of reals holding
/// a NaN (never equal, not even to itself), an array holding a lost value, or a value holding
/// a dictionary with a lost key (printing that dictionary adds an entry for it, which changes
/// the hash of what holds it).
pub fn lost(v: &VariantRef<'_>, version: Version) -> bool {
    version == G3 && (irreflexive(v) || mutates(v))
}

fn irreflexive(v: &VariantRef<'_>) -> bool {
    match v {
        VariantRef::PackedFloat32Array(_) => floats(v).iter().any(|f| f.is_nan()),
        VariantRef::Array(_) => items(v).iter().any(irreflexive),
        _ => false,
    }
}

fn mutates(v: &VariantRef<'_>) -> bool {
    match v {
        VariantRef::Array(_) => items(v).iter().any(mutates),
        VariantRef::Dictionary(_) => {
            entries(v).iter().any(|(k, value)| lost(k, G3) || mutates(k) || mutates(value))
        }
        _ => false,
    }
}

/// Godot's key equality (`hash_compare`, with Godot 3's hash of a pool of reals by its
/// bytes). Godot 4 compares floats in array elements and dictionary values with `==`
/// (`semantic` false), so a NaN there differs from everything.
fn eq(a: &VariantRef<'_>, b: &VariantRef<'_>, version: Version, semantic: bool) -> bool {
    use VariantRef as V;
    if lost(a, version) || lost(b, version) {
        return false;
    }
    if is_string(a) && is_string(b) {
        let same_type = a.variant_type() == b.variant_type();
        return (same_type || version == G4) && text(a) == text(b);
    }
    if a.variant_type() != b.variant_type() {
        return false;
    }
    if let (Some(x), Some(y)) = (reals(a), reals(b)) {
        return x.iter().zip(&y).all(|(p, q)| float_eq(*p, *q));
    }
    match (a, b) {
        (V::Nil, V::Nil) => true,
        (V::Bool(x), V::Bool(y)) => x == y,
        (V::Int(x), V::Int(y)) => x == y,
        (V::Float(x), V::Float(y)) => {
            if semantic || version == G3 {
                float_eq(*x, *y)
            } else {
                x == y
            }
        }
        (V::PackedInt32Array(x), V::PackedInt32Array(y)) => x.to_vec() == y.to_vec(),
        (V::PackedFloat32Array(_), _) => {
            let (x, y) = (floats(a), floats(b));
            match version {
                G3 => x.iter().map(|f| f.to_bits()).eq(y.iter().map(|f| f.to_bits())),
                G4 => {
                    x.len() == y.len()
                        && x.iter().zip(&y).all(|(p, q)| p == q || p.is_nan() && q.is_nan())
                }
            }
        }
        (V::Object(x), V::Object(y)) => {
            matches!(x, ObjectRef::Null) && matches!(y, ObjectRef::Null)
        }
        (V::Array(_), V::Array(_)) => {
            let (x, y) = (items(a), items(b));
            x.len() == y.len() && x.iter().zip(&y).all(|(p, q)| eq(p, q, version, false))
        }
        (V::Dictionary(_), V::Dictionary(_)) if version == G4 => {
            let (x, y) = (entries(a), entries(b));
            x.len() == y.len()
                && x.iter().zip(&y).all(|((pk, pv), (qk, qv))| {
                    eq(pk, qk, version, true) && eq(pv, qv, version, false)
                })
        }
        _ => false,
    }
}

type Entry<'a> = (VariantRef<'a>, Option<VariantRef<'a>>);

/// Godot's decoder: each entry set in wire order (an equal key keeps its place and takes
/// the new value). A lost key is set anew each time, and printed with `null`.
fn merge<'a>(wire: Vec<(VariantRef<'a>, VariantRef<'a>)>, version: Version) -> Vec<Entry<'a>> {
    let mut kept: Vec<Entry<'a>> = Vec::new();
    for (key, value) in wire {
        if lost(&key, version) {
            kept.push((key, None));
            continue;
        }
        match kept.iter_mut().find(|(k, _)| eq(k, &key, version, true)) {
            Some(entry) => entry.1 = Some(value),
            None => kept.push((key, Some(value))),
        }
    }
    kept
}

/// `SortArray::sort` of `core/templates/sort_array.h`, with its checks for bad comparison
/// functions (both engines' builds have them).
struct Sort<'l, T> {
    less: &'l dyn Fn(&T, &T) -> bool,
}

impl<T: Copy> Sort<'_, T> {
    fn median_of_3(&self, a: T, b: T, c: T) -> T {
        let less = self.less;
        if less(&a, &b) {
            if less(&b, &c) {
                b
            } else if less(&a, &c) {
                c
            } else {
                a
            }
        } else if less(&a, &c) {
            a
        } else if less(&b, &c) {
            c
        } else {
            b
        }
    }

    fn push_heap(&self, first: usize, mut hole: usize, top: usize, value: T, v: &mut [T]) {
        while hole > top && (self.less)(&v[first + (hole - 1) / 2], &value) {
            let parent = (hole - 1) / 2;
            v[first + hole] = v[first + parent];
            hole = parent;
        }
        v[first + hole] = value;
    }

    fn adjust_heap(&self, first: usize, mut hole: usize, len: usize, value: T, v: &mut [T]) {
        let top = hole;
        let mut second = 2 * hole + 2;
        while second < len {
            if (self.less)(&v[first + second], &v[first + second - 1]) {
                second -= 1;
            }
            v[first + hole] = v[first + second];
            hole = second;
            second = 2 * (second + 1);
        }
        if second == len {
            v[first + hole] = v[first + second - 1];
            hole = second - 1;
        }
        self.push_heap(first, hole, top, value, v);
    }

    fn pop_heap(&self, first: usize, last: usize, result: usize, value: T, v: &mut [T]) {
        v[result] = v[first];
        self.adjust_heap(first, 0, last - first, value, v);
    }

    fn partial_sort(&self, first: usize, last: usize, v: &mut [T]) {
        // make_heap
        let len = last - first;
        if len >= 2 {
            let mut parent = (len - 2) / 2;
            loop {
                self.adjust_heap(first, parent, len, v[first + parent], v);
                if parent == 0 {
                    break;
                }
                parent -= 1;
            }
        }
        // sort_heap
        let mut end = last;
        while end - first > 1 {
            self.pop_heap(first, end - 1, end - 1, v[end - 1], v);
            end -= 1;
        }
    }

    fn partitioner(&self, mut first: usize, mut last: usize, pivot: T, v: &mut [T]) -> usize {
        let (start, end) = (first, last);
        loop {
            while (self.less)(&v[first], &pivot) {
                if first == end - 1 {
                    break;
                }
                first += 1;
            }
            last -= 1;
            while (self.less)(&pivot, &v[last]) {
                if last == start {
                    break;
                }
                last -= 1;
            }
            if first >= last {
                return first;
            }
            v.swap(first, last);
            first += 1;
        }
    }

    fn introsort(&self, first: usize, mut last: usize, mut depth: usize, v: &mut [T]) {
        while last - first > 16 {
            if depth == 0 {
                self.partial_sort(first, last, v);
                return;
            }
            depth -= 1;
            let pivot = self.median_of_3(v[first], v[first + (last - first) / 2], v[last - 1]);
            let cut = self.partitioner(first, last, pivot, v);
            self.introsort(cut, last, depth, v);
            last = cut;
        }
    }

    fn unguarded_linear_insert(&self, mut last: usize, value: T, v: &mut [T]) {
        let mut next = last - 1;
        while (self.less)(&value, &v[next]) {
            if next == 0 {
                break;
            }
            v[last] = v[next];
            last = next;
            next -= 1;
        }
        v[last] = value;
    }

    fn insertion_sort(&self, first: usize, last: usize, v: &mut [T]) {
        for i in first + 1..last {
            let value = v[i];
            if (self.less)(&value, &v[first]) {
                v[first..=i].rotate_right(1);
            } else {
                self.unguarded_linear_insert(i, value, v);
            }
        }
    }

    fn sort(&self, v: &mut [T]) {
        let n = v.len();
        if n == 0 {
            return;
        }
        self.introsort(0, n, 2 * n.ilog2() as usize, v);
        if n > 16 {
            self.insertion_sort(0, 16, v);
            for i in 16..n {
                self.unguarded_linear_insert(i, v[i], v);
            }
        } else {
            self.insertion_sort(0, n, v);
        }
    }
}

/// The entries in print order: merged, then sorted as Godot sorts them.
pub fn print_order<'a>(
    wire: Vec<(VariantRef<'a>, VariantRef<'a>)>,
    version: Version,
) -> Vec<Entry<'a>> {
    let mut entries = merge(wire, version);
    let less = |a: &Entry<'a>, b: &Entry<'a>| key_less(&a.0, &b.0, version);
    Sort { less: &less }.sort(&mut entries);
    entries
}
