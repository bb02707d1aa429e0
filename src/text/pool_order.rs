//! Godot 3's `<` on two pool arrays of one type (`DEFAULT_OP_ARRAY_LT` in its `variant_op.cpp`):
//! `a < b` when `a` is shorter, else when an element of `a` differs (`!=`) from `b`'s at its
//! place, so two different pool arrays are each less than the other, and equal ones are not.
//!
//! * Elements differ as their type's `!=` says: a NaN differs from everything, itself included.
//! * `PoolVector2Array` is compared as if it held `Vector3`s (Godot 3.2 reads it with the wrong
//!   element type): its length is `floor(2n / 3)` and its floats are taken three at a time, so
//!   `[Vector2(1, 2)]` and `[Vector2(3, 4)]` are tied, and a last float left over is not compared.
//! * When `a` is longer than `b`, Godot reads `b` past its end (and crashes when `b` is empty):
//!   this takes the elements past the end as different, so `a < b`.

use super::order::{PackedRealsIter, Reals16, color_components};
use crate::VariantRef;

/// Whether `value` is one of Godot 3's pool arrays.
pub(super) fn is_pool(value: &VariantRef<'_>) -> bool {
    use VariantRef as V;
    matches!(
        value,
        V::PackedByteArray(_)
            | V::PackedInt32Array(_)
            | V::PackedFloat32Array(_)
            | V::PackedStringArray(_)
            | V::PackedVector2Array(_)
            | V::PackedVector3Array(_)
            | V::PackedColorArray(_)
    )
}

/// The work units of comparing `value` with another pool array: one per 16 elements.
pub(super) fn size(value: &VariantRef<'_>) -> usize {
    use VariantRef as V;
    let len = match value {
        V::PackedByteArray(x) => x.len(),
        V::PackedInt32Array(x) => x.len(),
        V::PackedFloat32Array(x) => x.len(),
        V::PackedStringArray(x) => x.len(),
        V::PackedVector2Array(x) => x.len(),
        V::PackedVector3Array(x) => x.len(),
        V::PackedColorArray(x) => x.len(),
        _ => 0,
    };
    len / 16
}

/// Godot 3's `a < b` for two pool arrays of one type, and the work units it took.
pub(super) fn differ(a: &VariantRef<'_>, b: &VariantRef<'_>) -> (bool, usize) {
    use VariantRef as V;
    let mut steps = 1usize;
    let mut count = |n: usize| steps = steps.saturating_add(n / 16);
    let differ = match (a, b) {
        (V::PackedByteArray(x), V::PackedByteArray(y)) => {
            count(x.len().min(y.len()));
            x != y
        }
        (V::PackedInt32Array(x), V::PackedInt32Array(y)) => {
            count(x.len().min(y.len()));
            x.raw_bytes() != y.raw_bytes()
        }
        (V::PackedFloat32Array(x), V::PackedFloat32Array(y)) => {
            count(x.len().min(y.len()));
            x.len() != y.len() || x.iter().zip(y.iter()).any(|(p, q)| p != q)
        }
        (V::PackedStringArray(x), V::PackedStringArray(y)) => {
            let mut texts = 0usize;
            let differ = x.len() != y.len()
                || x.iter().zip(y.iter()).any(|(p, q)| {
                    let (p, q) = (text(p), text(q));
                    texts = texts.saturating_add(p.len().min(q.len()) / 64).saturating_add(1);
                    p != q
                });
            count(texts.saturating_mul(16));
            differ
        }
        (V::PackedColorArray(x), V::PackedColorArray(y)) => {
            count(x.len().min(y.len()));
            x.len() != y.len()
                || x.iter().zip(y.iter()).any(|(p, q)| {
                    let (p, q) = (color_components(p), color_components(q));
                    p.as_slice().iter().zip(q.as_slice()).any(|(c, d)| c != d)
                })
        }
        (V::PackedVector3Array(x), V::PackedVector3Array(y)) => {
            count(x.len().min(y.len()));
            x.len() != y.len() || reals_differ(a, b, usize::MAX)
        }
        (V::PackedVector2Array(x), V::PackedVector2Array(y)) => {
            count(x.len().min(y.len()));
            // Read as Vector3s: 8n bytes hold floor(8n / 12) of them.
            let (n, m) = (x.len().saturating_mul(2) / 3, y.len().saturating_mul(2) / 3);
            n != m || reals_differ(a, b, n.saturating_mul(3))
        }
        _ => false,
    };
    (differ, steps)
}

/// A string's text; a malformed one (reported when the key was read) as nothing.
fn text<'a>(s: crate::wire::error::Result<crate::view::GdStr<'a>>) -> &'a [u8] {
    s.map_or(&[], |s| s.text_bytes())
}

/// Whether the first `limit` real components of two packed vector arrays differ (`!=`).
fn reals_differ(a: &VariantRef<'_>, b: &VariantRef<'_>, limit: usize) -> bool {
    let (mut i, mut j) = (PackedRealsIter::new(a), PackedRealsIter::new(b));
    let (mut x, mut y) = (Reals16::empty(), Reals16::empty());
    let mut left = limit;
    while left > 0 && i.next_into(&mut x) && j.next_into(&mut y) {
        for (c, d) in x.as_slice().iter().zip(y.as_slice()) {
            if left == 0 {
                return false;
            }
            if c != d {
                return true;
            }
            left = left.saturating_sub(1);
        }
    }
    false
}
