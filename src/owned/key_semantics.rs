//! When two values are the same dictionary key in Godot, and a hash that agrees with it; and
//! bitwise sameness ([`Variant::same`]).
//!
//! Godot's key equality (`Variant::hash_compare`, checked against both engines in
//! `corpus/probes/dict-keys`): values of different types are different keys, except that a
//! `String` and a `StringName` with the same text are one key in Godot 4; floats (and the real
//! components of math types) are equal when `==` says so or when both are NaN, so `0.0` and
//! `-0.0` are one key; arrays compare element by element; Godot 4 dictionaries compare by
//! content, Godot 3 ones by reference (two decoded dictionaries are never one key). Objects: null
//! equals null; every other object is an instance of its own (decoding makes a new one each
//! time), so a key holding one equals no other key, and is never looked up or merged: such keys
//! are kept out of the hash index altogether, which also keeps hostile inputs from piling
//! identical hashes into one bucket.
//!
//! Costs are O(size of the values). `hash_key`, `keys_equal` and `same` recurse through nested
//! containers, so their stack follows the nesting of the key (bounded by the depth limit when
//! the value was decoded): see the stack note in `from_ref.rs`.

use alloc::vec::Vec;
use core::hash::{BuildHasher, Hash, Hasher};

use super::{Dictionary, Object, Variant};
use crate::Version;

/// Which engine's key equality applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KeyRules {
    /// Godot 3: `String` and `StringName` never meet, and dictionaries compare by reference.
    pub(crate) godot3: bool,
}

impl KeyRules {
    /// Godot 4's rules, the default of a new [`Dictionary`].
    pub(crate) const GODOT4: KeyRules = KeyRules { godot3: false };

    /// The rules of `version`.
    pub(crate) fn of(version: Version) -> Self {
        KeyRules { godot3: version == Version::Godot3 }
    }
}

/// Whether `key` can equal no key at all (itself included): it holds a non-null object, or, under
/// Godot 3's rules, a dictionary. Iterative; O(size of the key).
pub(crate) fn never_equal(key: &Variant, rules: KeyRules) -> bool {
    match key {
        Variant::Array(_) | Variant::Dictionary(_) | Variant::Object(_) => {}
        _ => return false,
    }
    let mut pending = Vec::from([key]);
    while let Some(value) = pending.pop() {
        match value {
            Variant::Object(Object::Id(_) | Object::Full { .. }) => return true,
            Variant::Dictionary(_) if rules.godot3 => return true,
            Variant::Dictionary(dictionary) => {
                pending.extend(dictionary.iter().flat_map(|(k, v)| [k, v]));
            }
            Variant::Array(array) => pending.extend(array.iter()),
            _ => {}
        }
    }
    false
}

/// `==`, except that NaN equals NaN.
fn floats_equal(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

/// One hash for values `floats_equal` calls equal.
pub(crate) fn hash_float<H: Hasher>(value: f64, state: &mut H) {
    let canonical = if value.is_nan() {
        u64::MAX
    } else if value == 0.0 {
        0
    } else {
        value.to_bits()
    };
    state.write_u64(canonical);
}

/// Up to 16 components of a math value, in wire order.
struct Components<T> {
    values: [T; 16],
    len: usize,
}

impl<T: Copy + Default + PartialEq> Components<T> {
    fn of(visit: impl FnOnce(&mut dyn FnMut(T))) -> Self {
        let mut out = Components { values: [T::default(); 16], len: 0 };
        visit(&mut |c| {
            if let Some(slot) = out.values.get_mut(out.len) {
                *slot = c;
                out.len = out.len.saturating_add(1);
            }
        });
        out
    }

    fn as_slice(&self) -> &[T] {
        self.values.get(..self.len).unwrap_or(&[])
    }
}

/// Compares two math values component by component with `eq`.
macro_rules! components_equal {
    ($a:expr, $b:expr, $eq:expr) => {{
        let a = Components::of(|f| $a.for_each_component(f));
        let b = Components::of(|f| $b.for_each_component(f));
        a.as_slice().len() == b.as_slice().len()
            && a.as_slice().iter().zip(b.as_slice()).all(|(x, y)| $eq(*x, *y))
    }};
}

/// Compares two values of the same real-valued kind (a math type, `Color`, a packed float or
/// vector array) component by component: `reals` for `f64` components, `singles` for `f32`
/// ones. `None` when `a` and `b` are not both of one such kind.
fn reals_equal(
    a: &Variant,
    b: &Variant,
    reals: impl Fn(f64, f64) -> bool + Copy,
    singles: impl Fn(f32, f32) -> bool + Copy,
) -> Option<bool> {
    use Variant as V;
    Some(match (a, b) {
        (V::Vector2(x), V::Vector2(y)) => components_equal!(*x, *y, reals),
        (V::Rect2(x), V::Rect2(y)) => components_equal!(*x, *y, reals),
        (V::Vector3(x), V::Vector3(y)) => components_equal!(*x, *y, reals),
        (V::Transform2D(x), V::Transform2D(y)) => components_equal!(**x, **y, reals),
        (V::Vector4(x), V::Vector4(y)) => components_equal!(*x, *y, reals),
        (V::Plane(x), V::Plane(y)) => components_equal!(*x, *y, reals),
        (V::Quaternion(x), V::Quaternion(y)) => components_equal!(*x, *y, reals),
        (V::Aabb(x), V::Aabb(y)) => components_equal!(**x, **y, reals),
        (V::Basis(x), V::Basis(y)) => components_equal!(**x, **y, reals),
        (V::Transform3D(x), V::Transform3D(y)) => components_equal!(**x, **y, reals),
        (V::Projection(x), V::Projection(y)) => components_equal!(**x, **y, reals),
        (V::Color(x), V::Color(y)) => components_equal!(*x, *y, singles),
        (V::PackedFloat32Array(x), V::PackedFloat32Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| singles(*p, *q))
        }
        (V::PackedFloat64Array(x), V::PackedFloat64Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| reals(*p, *q))
        }
        (V::PackedVector2Array(x), V::PackedVector2Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| components_equal!(*p, *q, reals))
        }
        (V::PackedVector3Array(x), V::PackedVector3Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| components_equal!(*p, *q, reals))
        }
        (V::PackedVector4Array(x), V::PackedVector4Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| components_equal!(*p, *q, reals))
        }
        (V::PackedColorArray(x), V::PackedColorArray(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| components_equal!(*p, *q, singles))
        }
        _ => return None,
    })
}

/// Whether `a` and `b` are one dictionary key under `rules`.
pub(crate) fn keys_equal(a: &Variant, b: &Variant, rules: KeyRules) -> bool {
    use Variant as V;
    let singles = |x: f32, y: f32| floats_equal(f64::from(x), f64::from(y));
    if let Some(equal) = reals_equal(a, b, floats_equal, singles) {
        return equal;
    }
    match (a, b) {
        (V::Nil, V::Nil) | (V::Callable, V::Callable) => true,
        (V::Bool(x), V::Bool(y)) => x == y,
        (V::Int(x), V::Int(y)) => x == y,
        (V::Float(x), V::Float(y)) => floats_equal(*x, *y),
        (V::String(x), V::String(y)) | (V::StringName(x), V::StringName(y)) => x == y,
        (V::String(x), V::StringName(y)) | (V::StringName(x), V::String(y)) => {
            !rules.godot3 && x == y
        }
        (V::Vector2i(x), V::Vector2i(y)) => x == y,
        (V::Rect2i(x), V::Rect2i(y)) => x == y,
        (V::Vector3i(x), V::Vector3i(y)) => x == y,
        (V::Vector4i(x), V::Vector4i(y)) => x == y,
        (V::NodePath(x), V::NodePath(y)) => x == y,
        (V::Rid(x), V::Rid(y)) => x == y,
        (V::Object(Object::Null), V::Object(Object::Null)) => true,
        (V::Signal(x), V::Signal(y)) => x == y,
        (V::Array(x), V::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| keys_equal(p, q, rules))
        }
        (V::Dictionary(x), V::Dictionary(y)) => !rules.godot3 && dictionaries_equal(x, y, rules),
        (V::PackedByteArray(x), V::PackedByteArray(y)) => x == y,
        (V::PackedInt32Array(x), V::PackedInt32Array(y)) => x == y,
        (V::PackedInt64Array(x), V::PackedInt64Array(y)) => x == y,
        (V::PackedStringArray(x), V::PackedStringArray(y)) => x == y,
        _ => false,
    }
}

/// Godot 4's dictionary equality: same size, and every key of `x` is in `y` with an equal value.
fn dictionaries_equal(x: &Dictionary, y: &Dictionary, rules: KeyRules) -> bool {
    x.len() == y.len()
        && x.iter()
            .all(|(key, value)| y.get(key).is_some_and(|other| keys_equal(value, other, rules)))
}

/// Feeds `state` a hash that is equal for values that [`keys_equal`] calls equal under any rules.
/// `builder` hashes the entries of dictionaries, which are summed (their equality ignores order).
pub(crate) fn hash_key<B: BuildHasher, H: Hasher>(value: &Variant, builder: &B, state: &mut H) {
    use Variant as V;
    // String and StringName share a hash: Godot 4 makes them one key.
    let class = match value.variant_type() {
        crate::VariantType::StringName => crate::VariantType::String,
        other => other,
    };
    class.hash(state);
    let real = |c: f64, state: &mut H| hash_float(c, state);
    match value {
        // Objects other than null are never looked up (see the module docs).
        V::Nil | V::Callable | V::Object(_) => {}
        V::Dictionary(dictionary) => {
            let mut sum = 0u64;
            for (k, v) in dictionary.iter() {
                let mut entry = builder.build_hasher();
                hash_key(k, builder, &mut entry);
                hash_key(v, builder, &mut entry);
                sum = sum.wrapping_add(entry.finish());
            }
            state.write_usize(dictionary.len());
            state.write_u64(sum);
        }
        V::Bool(b) => b.hash(state),
        V::Int(i) => i.hash(state),
        V::Float(f) => real(*f, state),
        V::String(s) | V::StringName(s) => s.hash(state),
        V::Vector2(v) => v.for_each_component(|c| real(c, state)),
        V::Rect2(v) => v.for_each_component(|c| real(c, state)),
        V::Vector3(v) => v.for_each_component(|c| real(c, state)),
        V::Transform2D(v) => v.for_each_component(|c| real(c, state)),
        V::Vector4(v) => v.for_each_component(|c| real(c, state)),
        V::Plane(v) => v.for_each_component(|c| real(c, state)),
        V::Quaternion(v) => v.for_each_component(|c| real(c, state)),
        V::Aabb(v) => v.for_each_component(|c| real(c, state)),
        V::Basis(v) => v.for_each_component(|c| real(c, state)),
        V::Transform3D(v) => v.for_each_component(|c| real(c, state)),
        V::Projection(v) => v.for_each_component(|c| real(c, state)),
        V::Color(v) => v.for_each_component(|c| real(f64::from(c), state)),
        V::Vector2i(v) => v.for_each_component(|c| c.hash(state)),
        V::Rect2i(v) => v.for_each_component(|c| c.hash(state)),
        V::Vector3i(v) => v.for_each_component(|c| c.hash(state)),
        V::Vector4i(v) => v.for_each_component(|c| c.hash(state)),
        V::NodePath(p) => p.hash(state),
        V::Rid(id) => id.hash(state),
        V::Signal(s) => s.hash(state),
        V::Array(a) => {
            state.write_usize(a.len());
            a.iter().for_each(|e| hash_key(e, builder, state));
        }
        V::PackedByteArray(x) => x.hash(state),
        V::PackedInt32Array(x) => x.hash(state),
        V::PackedInt64Array(x) => x.hash(state),
        V::PackedStringArray(x) => x.hash(state),
        V::PackedFloat32Array(x) => x.iter().for_each(|c| real(f64::from(*c), state)),
        V::PackedFloat64Array(x) => x.iter().for_each(|c| real(*c, state)),
        V::PackedVector2Array(x) => x.iter().for_each(|v| v.for_each_component(|c| real(c, state))),
        V::PackedVector3Array(x) => x.iter().for_each(|v| v.for_each_component(|c| real(c, state))),
        V::PackedVector4Array(x) => x.iter().for_each(|v| v.for_each_component(|c| real(c, state))),
        V::PackedColorArray(x) => {
            x.iter().for_each(|v| v.for_each_component(|c| real(f64::from(c), state)))
        }
    }
}

/// Bit-for-bit sameness, see [`Variant::same`].
pub(crate) fn same(a: &Variant, b: &Variant) -> bool {
    use Variant as V;
    let reals = |x: f64, y: f64| x.to_bits() == y.to_bits();
    let singles = |x: f32, y: f32| x.to_bits() == y.to_bits();
    if let Some(equal) = reals_equal(a, b, reals, singles) {
        return equal;
    }
    match (a, b) {
        (V::Float(x), V::Float(y)) => reals(*x, *y),
        (
            V::Object(Object::Full { class: c1, properties: p1 }),
            V::Object(Object::Full { class: c2, properties: p2 }),
        ) => {
            c1 == c2
                && p1.len() == p2.len()
                && p1.iter().zip(p2).all(|((n1, v1), (n2, v2))| n1 == n2 && same(v1, v2))
        }
        (V::Array(x), V::Array(y)) => {
            x.element_type == y.element_type
                && x.len() == y.len()
                && x.iter().zip(y.iter()).all(|(p, q)| same(p, q))
        }
        (V::Dictionary(x), V::Dictionary(y)) => {
            x.key_type == y.key_type
                && x.value_type == y.value_type
                && x.len() == y.len()
                && x.iter().zip(y.iter()).all(|((k1, v1), (k2, v2))| same(k1, k2) && same(v1, v2))
        }
        // Everything else holds no floats: structural equality is bitwise.
        _ => a == b,
    }
}
