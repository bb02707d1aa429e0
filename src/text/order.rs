//! How Godot's text writer orders dictionary keys, and when two keys are one.
//!
//! Godot 4 sorts the keys with `StringLikeVariantOrder`: two strings (`String` or `StringName`)
//! compare by text; otherwise values of different types compare by type id, and values of one
//! type with that type's `<` (numbers, strings, vectors and integer vectors component by
//! component, RIDs by id, arrays element by element and then by length). Types without `<`
//! (dictionaries, objects, colors, transforms, packed arrays, ...) are never less than each other.
//! Godot 3 sorts with `Variant::operator<` (type id first, then the type's `<`; vectors compare
//! each component but the last approximately, `Math::is_equal_approx`), whose `<` on
//! arrays and pool arrays is its own ([`sort_form`](super::sort_form),
//! [`pool_order`](super::pool_order)), and orders objects by address (a null one first). Both
//! sort with their `SortArray` ([`sort_array`](super::sort_array)).
//!
//! Key equality follows Godot's (`hash_compare` and the comparators around it; the rule of
//! `owned/key_semantics.rs`): same type (a `String` and a `StringName` with the same text are
//! one key in Godot 4 where they are keys, not inside arrays or as dictionary values), floats
//! equal by `==` or when both are NaN, containers element by element however deep. Two Godot 4
//! dictionary keys are one key when their entries, repeated keys merged, are pairwise equal in
//! order (Godot hashes a dictionary's entries in order). The exceptions are in
//! [`key_classes`](super::key_classes): Godot 4 compares the floats of array elements and
//! dictionary values with `==`, Godot 3 the elements of a pool of reals with a NaN test that
//! fails, and hashes that pool by its bytes.
//!
//! Godot 4's equality stops at 100 levels (deeper containers are equal), which only keys nested
//! that deep can tell apart.
//!
//! Sorting reads each key once into a sort form ([`SortForms`](super::sort_form)) and an
//! equality class ([`classes`](super::key_classes)); the helpers here read the components those
//! forms are made of.

use crate::view::math::{Color, Vector2, Vector3, Vector4};
use crate::wire::types::VariantType;
use crate::{VariantRef, Version};

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
            *slot = narrow(value);
            self.len = self.len.saturating_add(1);
        }
    }

    /// The components.
    pub(super) fn as_slice(&self) -> &[f64] {
        self.values.get(..self.len).unwrap_or(&[])
    }
}

/// `value` narrowed to a 32-bit float and back, as a single-precision engine stores it; a NaN
/// keeps its sign (Godot 3 prints it).
pub(super) fn narrow(value: f64) -> f64 {
    if value.is_nan() {
        const SIGN: u64 = 1 << 63;
        return f64::from_bits(f64::NAN.to_bits() & !SIGN | value.to_bits() & SIGN);
    }
    f64::from(value as f32)
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

/// The value's wire id in `version` (its Godot 4 id when `version` lacks the type).
pub(super) fn type_id(value: &VariantRef<'_>, version: Version) -> u8 {
    id_of(value.variant_type(), version)
}

/// The wire id of `ty` in `version` (its Godot 4 id when `version` lacks the type).
pub(super) fn id_of(ty: VariantType, version: Version) -> u8 {
    ty.id(version).or_else(|| ty.id(Version::Godot4)).unwrap_or(u8::MAX)
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
        use crate::packed::PackedReals as P;
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
