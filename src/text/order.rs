//! How Godot's text writer orders dictionary keys, and when two keys are one.
//!
//! Godot 4 sorts the keys with `StringLikeVariantOrder`: two strings (`String` or `StringName`)
//! compare by text; otherwise values of different types compare by type id, and values of one
//! type with that type's `<` (numbers, strings, vectors and integer vectors component by
//! component, RIDs by id, arrays element by element and then by length). Types without `<`
//! (dictionaries, objects, colors, transforms, packed arrays, ...) are never less than each other.
//! Godot 3 sorts with `Variant::operator<` (type id first, then the type's `<`).
//!
//! Key equality follows Godot's (`hash_compare`): same type (a `String` and a `StringName` with
//! the same text are one key in Godot 4), floats equal by `==` or when both are NaN, containers
//! element by element. Godot 4 compares dictionaries by content regardless of order; here two
//! dictionary keys are one key when their entries are pairwise equal in wire order.
//!
//! Comparisons follow nested arrays [`COMPARE_DEPTH`] levels deep at most (deeper ones compare as
//! neither less nor equal), so they cannot exhaust the stack. Godot has no such cut-off for `<`,
//! and Godot 4's equality follows containers 100 levels deep (deeper ones are equal), so keys
//! that differ, or are equal, only more than 16 levels down may be ordered or merged differently.
//!
//! With `alloc`, sorting reads each key once into a sort form ([`SortForms`](super::sort_form))
//! and an equality class ([`classes`](super::key_classes)); the functions here order and compare
//! keys without memory, for the build without `alloc`, at O(16 × bytes of the two keys) each.

use core::cmp::Ordering;

use crate::view::math::{Color, Vector2, Vector3, Vector4};
use crate::wire::error::Result;
use crate::wire::types::VariantType;
use crate::{ObjectRef, VariantRef, Version};

/// How deep comparisons follow nested arrays.
pub(super) const COMPARE_DEPTH: u8 = 16;

/// Up to 16 real components of a math value, narrowed to f32 as a single-precision engine stores
/// them, in wire order.
pub(super) struct Reals16 {
    values: [f64; 16],
    len: usize,
}

impl Reals16 {
    /// No components.
    pub(super) fn empty() -> Self {
        Reals16 { values: [0.0; 16], len: 0 }
    }

    fn push(&mut self, value: f64) {
        if let Some(slot) = self.values.get_mut(self.len) {
            *slot = f64::from(value as f32);
            self.len = self.len.saturating_add(1);
        }
    }

    /// The components.
    pub(super) fn as_slice(&self) -> &[f64] {
        self.values.get(..self.len).unwrap_or(&[])
    }
}

/// Components of a real math value, narrowed as Godot's single-precision builds read them.
macro_rules! reals_of {
    ($reals:expr) => {{
        let mut out = Reals16::empty();
        $reals.get().for_each_component(|c| out.push(c));
        out
    }};
}

/// The real components of a math value or color, in wire order; `None` for other values.
pub(super) fn real_components(value: &VariantRef<'_>) -> Option<Reals16> {
    use VariantRef as V;
    Some(match value {
        V::Vector2(r) => reals_of!(r),
        V::Rect2(r) => reals_of!(r),
        V::Vector3(r) => reals_of!(r),
        V::Transform2D(r) => reals_of!(r),
        V::Vector4(r) => reals_of!(r),
        V::Plane(r) => reals_of!(r),
        V::Quaternion(r) => reals_of!(r),
        V::Aabb(r) => reals_of!(r),
        V::Basis(r) => reals_of!(r),
        V::Transform3D(r) => reals_of!(r),
        V::Projection(r) => reals_of!(r),
        V::Color(c) => color_components(*c),
        _ => return None,
    })
}

/// A color's components.
pub(super) fn color_components(color: Color<f32>) -> Reals16 {
    let mut out = Reals16::empty();
    color.for_each_component(|c| out.push(f64::from(c)));
    out
}

/// Integer vector components, in wire order.
pub(super) fn int_components(value: &VariantRef<'_>) -> Option<([i32; 4], usize)> {
    let mut out = [0i32; 4];
    let mut len = 0usize;
    let mut push = |c: i32| {
        if let Some(slot) = out.get_mut(len) {
            *slot = c;
            len = len.saturating_add(1);
        }
    };
    match value {
        VariantRef::Vector2i(v) => v.for_each_component(&mut push),
        VariantRef::Vector3i(v) => v.for_each_component(&mut push),
        VariantRef::Vector4i(v) => v.for_each_component(&mut push),
        VariantRef::Rect2i(v) => v.for_each_component(&mut push),
        _ => return None,
    }
    Some((out, len))
}

/// Godot's vector `<`: the first component that differs decides; the last one is compared with
/// `<` whatever it is.
#[cfg(feature = "alloc")]
pub(super) fn lexicographic_less<T: PartialOrd + Copy>(a: &[T], b: &[T]) -> bool {
    let last = a.len().min(b.len()).saturating_sub(1);
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        if i == last || x != y {
            return x < y;
        }
    }
    false
}

fn is_string(value: &VariantRef<'_>) -> bool {
    matches!(value, VariantRef::String(_) | VariantRef::StringName(_))
}

/// The value's wire id in `version` (its Godot 4 id when `version` lacks the type).
pub(super) fn type_id(value: &VariantRef<'_>, version: Version) -> u8 {
    id_of(value.variant_type(), version)
}

/// The wire id of `ty` in `version` (its Godot 4 id when `version` lacks the type).
pub(super) fn id_of(ty: VariantType, version: Version) -> u8 {
    ty.id(version).or_else(|| ty.id(Version::Godot4)).unwrap_or(u8::MAX)
}

/// The text bytes of a string value (empty for other values).
fn text<'a>(value: &VariantRef<'a>) -> &'a [u8] {
    value.as_gd_str().map_or(&[], |s| s.text_bytes())
}

/// A consistent total order close to Godot's, for ordering without memory: type id first (a
/// `String` and a `StringName` are not merged), NaN after every other float, types without `<`
/// all equal.
pub(super) fn total_cmp(
    a: &VariantRef<'_>,
    b: &VariantRef<'_>,
    version: Version,
    depth: u8,
) -> Result<Ordering> {
    use VariantRef as V;
    let by_type = type_id(a, version).cmp(&type_id(b, version));
    if by_type != Ordering::Equal {
        return Ok(by_type);
    }
    Ok(match (a, b) {
        (V::Bool(x), V::Bool(y)) => x.cmp(y),
        (V::Int(x), V::Int(y)) => x.cmp(y),
        (V::Float(x), V::Float(y)) => float_cmp(*x, *y),
        (V::String(_) | V::StringName(_), _) => text(a).cmp(text(b)),
        (V::Rid(x), V::Rid(y)) => x.cmp(y),
        (V::Vector2(_) | V::Vector3(_) | V::Vector4(_), _) => {
            match (real_components(a), real_components(b)) {
                (Some(x), Some(y)) => x
                    .as_slice()
                    .iter()
                    .zip(y.as_slice())
                    .map(|(p, q)| float_cmp(*p, *q))
                    .find(|o| o.is_ne())
                    .unwrap_or(Ordering::Equal),
                _ => Ordering::Equal,
            }
        }
        (V::Vector2i(_) | V::Vector3i(_) | V::Vector4i(_), _) => {
            int_components(a).map(|(x, _)| x).cmp(&int_components(b).map(|(y, _)| y))
        }
        (V::Array(x), V::Array(y)) if depth < COMPARE_DEPTH => {
            let mut left = x.iter();
            let mut right = y.iter();
            loop {
                match (left.next().transpose()?, right.next().transpose()?) {
                    (Some(p), Some(q)) => {
                        let o = total_cmp(&p, &q, version, depth.saturating_add(1))?;
                        if o.is_ne() {
                            return Ok(o);
                        }
                    }
                    _ => return Ok(x.len().cmp(&y.len())),
                }
            }
        }
        _ => Ordering::Equal,
    })
}

/// Floats in order, `-0.0` equal to `0.0`, NaN after everything and equal to NaN.
fn float_cmp(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
    }
}

fn float_eq(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

fn reals_eq(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| float_eq(*x, *y))
}

/// Whether Godot's dictionary holds `a` and `b` as one key.
pub(super) fn key_eq(
    a: &VariantRef<'_>,
    b: &VariantRef<'_>,
    version: Version,
    depth: u8,
) -> Result<bool> {
    use VariantRef as V;
    if is_string(a) && is_string(b) {
        let same_type = a.variant_type() == b.variant_type();
        return Ok((same_type || version == Version::Godot4) && text(a) == text(b));
    }
    if a.variant_type() != b.variant_type() {
        return Ok(false);
    }
    if let (Some(x), Some(y)) = (real_components(a), real_components(b)) {
        return Ok(reals_eq(x.as_slice(), y.as_slice()));
    }
    if let (Some(x), Some(y)) = (int_components(a), int_components(b)) {
        return Ok(x == y);
    }
    let next = depth.saturating_add(1);
    Ok(match (a, b) {
        (V::Nil, V::Nil) | (V::Callable, V::Callable) => true,
        (V::Bool(x), V::Bool(y)) => x == y,
        (V::Int(x), V::Int(y)) => x == y,
        (V::Float(x), V::Float(y)) => float_eq(*x, *y),
        (V::Rid(x), V::Rid(y)) => x == y,
        (V::Object(ObjectRef::Null), V::Object(ObjectRef::Null)) => true,
        (V::Signal(x), V::Signal(y)) => {
            x.object_id() == y.object_id() && x.name().text_bytes() == y.name().text_bytes()
        }
        (V::NodePath(x), V::NodePath(y)) => {
            if x.is_absolute() != y.is_absolute()
                || x.name_count() != y.name_count()
                || x.subname_count() != y.subname_count()
            {
                return Ok(false);
            }
            for (p, q) in x.names().chain(x.subnames()).zip(y.names().chain(y.subnames())) {
                if p?.text_bytes() != q?.text_bytes() {
                    return Ok(false);
                }
            }
            true
        }
        (V::Array(x), V::Array(y)) if depth < COMPARE_DEPTH => {
            if x.len() != y.len() {
                return Ok(false);
            }
            for (p, q) in x.iter().zip(y.iter()) {
                if !key_eq(&p?, &q?, version, next)? {
                    return Ok(false);
                }
            }
            true
        }
        (V::Dictionary(x), V::Dictionary(y))
            if version == Version::Godot4 && depth < COMPARE_DEPTH =>
        {
            if x.len() != y.len() {
                return Ok(false);
            }
            for (p, q) in x.iter().zip(y.iter()) {
                let ((pk, pv), (qk, qv)) = (p?, q?);
                if !key_eq(&pk, &qk, version, next)? || !key_eq(&pv, &qv, version, next)? {
                    return Ok(false);
                }
            }
            true
        }
        (V::PackedByteArray(x), V::PackedByteArray(y)) => x == y,
        (V::PackedInt32Array(x), V::PackedInt32Array(y)) => x.raw_bytes() == y.raw_bytes(),
        (V::PackedInt64Array(x), V::PackedInt64Array(y)) => x.raw_bytes() == y.raw_bytes(),
        (V::PackedFloat32Array(x), V::PackedFloat32Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| float_eq(p.into(), q.into()))
        }
        (V::PackedFloat64Array(x), V::PackedFloat64Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| float_eq(p, q))
        }
        (V::PackedStringArray(x), V::PackedStringArray(y)) => {
            if x.len() != y.len() {
                return Ok(false);
            }
            for (p, q) in x.iter().zip(y.iter()) {
                if p?.text_bytes() != q?.text_bytes() {
                    return Ok(false);
                }
            }
            true
        }
        (V::PackedColorArray(x), V::PackedColorArray(y)) => {
            x.len() == y.len()
                && x.iter().zip(y.iter()).all(|(p, q)| {
                    reals_eq(color_components(p).as_slice(), color_components(q).as_slice())
                })
        }
        (V::PackedVector2Array(_), V::PackedVector2Array(_))
        | (V::PackedVector3Array(_), V::PackedVector3Array(_))
        | (V::PackedVector4Array(_), V::PackedVector4Array(_)) => packed_vectors_eq(a, b),
        _ => false,
    })
}

/// Packed real vectors, element by element (f64 elements narrowed as Godot stores them).
fn packed_vectors_eq(a: &VariantRef<'_>, b: &VariantRef<'_>) -> bool {
    let mut x = Reals16::empty();
    let mut y = Reals16::empty();
    let (mut i, mut j) = (PackedRealsIter::new(a), PackedRealsIter::new(b));
    loop {
        match (i.next_into(&mut x), j.next_into(&mut y)) {
            (true, true) => {
                if !reals_eq(x.as_slice(), y.as_slice()) {
                    return false;
                }
            }
            (false, false) => return true,
            _ => return false,
        }
    }
}

/// Element by element over a packed real vector array, single or double precision.
pub(super) struct PackedRealsIter<'v, 'a> {
    value: &'v VariantRef<'a>,
    index: usize,
}

impl<'v, 'a> PackedRealsIter<'v, 'a> {
    pub(super) fn new(value: &'v VariantRef<'a>) -> Self {
        PackedRealsIter { value, index: 0 }
    }

    /// Writes the next element's components into `out`; `false` past the end.
    pub(super) fn next_into(&mut self, out: &mut Reals16) -> bool {
        use crate::PackedReals as P;
        *out = Reals16::empty();
        let i = self.index;
        let found = match self.value {
            VariantRef::PackedVector2Array(P::Single(p)) => {
                push_each(p.get(i), out, |v: Vector2<f32>, f| {
                    v.for_each_component(|c| f(f64::from(c)))
                })
            }
            VariantRef::PackedVector2Array(P::Double(p)) => {
                push_each(p.get(i), out, |v: Vector2<f64>, f| v.for_each_component(f))
            }
            VariantRef::PackedVector3Array(P::Single(p)) => {
                push_each(p.get(i), out, |v: Vector3<f32>, f| {
                    v.for_each_component(|c| f(f64::from(c)))
                })
            }
            VariantRef::PackedVector3Array(P::Double(p)) => {
                push_each(p.get(i), out, |v: Vector3<f64>, f| v.for_each_component(f))
            }
            VariantRef::PackedVector4Array(P::Single(p)) => {
                push_each(p.get(i), out, |v: Vector4<f32>, f| {
                    v.for_each_component(|c| f(f64::from(c)))
                })
            }
            VariantRef::PackedVector4Array(P::Double(p)) => {
                push_each(p.get(i), out, |v: Vector4<f64>, f| v.for_each_component(f))
            }
            _ => false,
        };
        if found {
            self.index = self.index.saturating_add(1);
        }
        found
    }
}

fn push_each<T>(
    element: Option<T>,
    out: &mut Reals16,
    each: impl Fn(T, &mut dyn FnMut(f64)),
) -> bool {
    match element {
        Some(element) => {
            each(element, &mut |c| out.push(c));
            true
        }
        None => false,
    }
}
