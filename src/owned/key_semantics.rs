//! When two values are the same dictionary key in Godot.
//!
//! Godot's key equality (`Variant::hash_compare` and the comparators around it; checked against
//! both engines in `corpus/probes/dict-keys`, `godot{3,4}-identity.jsonl`): values of different
//! types are different keys; strings are equal when their code points are (a
//! [`GdString`](super::GdString) holds one form of them, so `==` on it is Godot's,
//! `corpus/probes/strings`); floats (and the real components of math types, compared as the
//! `f32`s Godot holds) are equal when `==` says so or when both are NaN, so `0.0` and `-0.0` are
//! one key; arrays compare element by element. Objects: null equals null; every other object is
//! an instance of its own (decoding makes a new one each time), so a key holding one equals no
//! other key, and is never looked up or merged: such keys hash to `NEVER` (see `key_hash.rs`)
//! and are kept out of the hash index altogether, which also keeps hostile inputs from piling
//! identical hashes into one bucket.
//!
//! The rules are those of `wire/identity.rs` ([`Identity`]), which the text follows too. Godot
//! 4 compares a value by where it sits ([`Place`]). A key of a dictionary (the top-level
//! key, or a key of a dictionary inside one) is compared with `StringLikeVariantComparator`: a
//! `String` and a `StringName` with the same text are one key, and a float NaN equals a NaN. An
//! array element or a dictionary value is compared with `hash_compare(.., false)`: a `String`
//! never equals a `StringName`, and a float NaN equals nothing (math values, colors and packed
//! float arrays stay NaN-aware everywhere). Two dictionaries are one key when their entries are,
//! pair by pair in order: Godot looks each key up in the other dictionary, but only after their
//! hashes, which fold the entries in order, matched.
//!
//! Godot 3 compares the same way at every depth (no `StringName`), except that dictionaries
//! compare by reference (two decoded dictionaries are never one key), and a pool of reals is one
//! key with another when their bytes are (Godot 3.2 hashes it by its bytes), and with none when
//! it holds a NaN (its test of two elements fails on two NaNs).
//!
//! Costs: [`keys_equal`] walks both keys side by side with a heap-allocated stack of one frame
//! per level, so deep keys need no call stack. Arrays compare element by element, Godot 4
//! dictionaries entry by entry in order: no pair of nested containers is compared twice, and
//! comparing two keys is O(size of the smaller). Each pair counts a unit of work.

use alloc::vec::Vec;
#[cfg(feature = "serde")]
use core::hash::{BuildHasher, Hasher};

#[cfg(feature = "serde")]
use super::key_hash::NEVER;
#[cfg(feature = "serde")]
use super::key_hash::key_hash;
use super::{Array, Dictionary, Object, Variant};
use crate::Version;
use crate::wire::identity::{Identity, Place, narrow_real};
use crate::wire::work;

#[cfg(feature = "serde")]
pub(crate) use super::key_hash::hash_float;

/// Which engine's key equality applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KeyRules {
    /// Godot 3's rules (see [`Identity`]) rather than Godot 4's.
    pub(crate) godot3: bool,
}

impl KeyRules {
    /// Godot 4's rules, the default of a new [`Dictionary`].
    pub(crate) const GODOT4: KeyRules = KeyRules { godot3: false };

    /// The rules of `version`.
    pub(crate) fn of(version: Version) -> Self {
        KeyRules { godot3: version == Version::Godot3 }
    }

    /// Godot's key identity of these rules' version (`wire/identity.rs`).
    pub(crate) fn identity(self) -> Identity {
        Identity::of(if self.godot3 { Version::Godot3 } else { Version::Godot4 })
    }
}

/// Whether `key` can equal no key at all (itself included): it holds a non-null object; under
/// Godot 3's rules, a dictionary or a pool of reals holding a NaN; under Godot 4's, a float NaN
/// as an array element or a dictionary value. Iterative; O(size of the key). (For serde's
/// repeated-key rule.)
#[cfg(feature = "serde")]
pub(crate) fn never_equal(key: &Variant, rules: KeyRules) -> bool {
    key_hash(key, rules) == NEVER
}

/// Feeds `state` a hash that is equal for values that [`keys_equal`] calls equal under any
/// rules: the key's content hash under Godot 4's rules. Iterative; O(size of the key). (For
/// serde's repeated-key rule.)
#[cfg(feature = "serde")]
pub(crate) fn hash_key<B: BuildHasher, H: Hasher>(value: &Variant, _builder: &B, state: &mut H) {
    state.write_u64(key_hash(value, KeyRules::GODOT4));
}

/// `==`, except that NaN equals NaN.
fn floats_equal(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

/// [`floats_equal`] on the `f32`s Godot's official builds hold for two real components.
fn reals_narrowed_equal(a: f64, b: f64) -> bool {
    floats_equal(narrow_real(a), narrow_real(b))
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
pub(super) fn reals_equal(
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

/// Whether `a` and `b` are one dictionary key under `rules`. Iterative: nested containers are
/// compared with a heap-allocated stack (allocated only when both are containers of one kind and
/// length). O(size of the smaller key): see the module docs.
pub(crate) fn keys_equal(a: &Variant, b: &Variant, rules: KeyRules) -> bool {
    work::add(1);
    let mut frames = match key_step(a, b, rules, Place::Key) {
        Step::Done(equal) => return equal,
        Step::Open(frame) => Vec::from([frame]),
    };
    // The answer to the comparison the top frame asked for (`None`: it has just opened).
    let mut answer = None;
    while let Some(top) = frames.last_mut() {
        match top.resume(answer) {
            Resume::Return(equal) => {
                frames.pop();
                answer = Some(equal);
            }
            Resume::Compare(x, y, rules, place) => {
                work::add(1);
                match key_step(x, y, rules, place) {
                    Step::Done(equal) => answer = Some(equal),
                    Step::Open(frame) => {
                        frames.push(frame);
                        answer = None;
                    }
                }
            }
        }
    }
    answer.unwrap_or(false)
}

/// One comparison: decided at once, or two containers whose contents are compared next.
enum Step<'a> {
    Done(bool),
    Open(KeyFrame<'a>),
}

/// What a frame asks for next.
enum Resume<'a> {
    /// Its answer.
    Return(bool),
    /// The answer to this comparison, under these rules, of two values in this place.
    Compare(&'a Variant, &'a Variant, KeyRules, Place),
}

/// Two containers of one kind and length being compared.
enum KeyFrame<'a> {
    /// Two arrays: equal when every pair of elements is; `next` is the pair asked for next.
    Elements { x: &'a Array, y: &'a Array, next: usize, rules: KeyRules },
    /// Two Godot 4 dictionaries of one length: equal when every pair of entries is, in order
    /// (keys as keys, values as values); `next` is the entry asked for next, `value` whether its
    /// value is asked for next.
    Entries { x: &'a Dictionary, y: &'a Dictionary, next: usize, value: bool, rules: KeyRules },
}

impl<'a> KeyFrame<'a> {
    fn resume(&mut self, answer: Option<bool>) -> Resume<'a> {
        if answer == Some(false) {
            return Resume::Return(false);
        }
        match self {
            KeyFrame::Elements { x, y, next, rules } => {
                let pair = x.get(*next).zip(y.get(*next));
                *next = next.saturating_add(1);
                match pair {
                    Some((p, q)) => Resume::Compare(p, q, *rules, Place::Value),
                    None => Resume::Return(true),
                }
            }
            KeyFrame::Entries { x, y, next, value, rules } => {
                let pair = x.entries().get(*next).zip(y.entries().get(*next));
                let Some(((xk, xv), (yk, yv))) = pair else {
                    return Resume::Return(true);
                };
                if *value {
                    *value = false;
                    *next = next.saturating_add(1);
                    Resume::Compare(xv, yv, *rules, Place::Value)
                } else {
                    *value = true;
                    Resume::Compare(xk, yk, y.rules(), Place::Key)
                }
            }
        }
    }
}

/// Compares `a` and `b` as keys, or opens them for comparing their contents.
fn key_step<'a>(a: &'a Variant, b: &'a Variant, rules: KeyRules, place: Place) -> Step<'a> {
    use Variant as V;
    let identity = rules.identity();
    // The most common keys first.
    match (a, b) {
        (V::String(x), V::String(y)) | (V::StringName(x), V::StringName(y)) => {
            return Step::Done(x == y);
        }
        (V::Int(x), V::Int(y)) => return Step::Done(x == y),
        _ => {}
    }
    let singles = |x: f32, y: f32| floats_equal(f64::from(x), f64::from(y));
    match (a, b) {
        (V::PackedFloat32Array(x), V::PackedFloat32Array(y)) if identity.reals_by_bytes() => {
            // Godot 3.2: the same bytes, and no NaN (its test of two NaNs fails).
            return Step::Done(
                x.len() == y.len()
                    && x.iter().zip(y).all(|(p, q)| p.to_bits() == q.to_bits() && !p.is_nan()),
            );
        }
        (V::PackedFloat64Array(x), V::PackedFloat64Array(y)) => {
            return Step::Done(
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| floats_equal(*p, *q)),
            );
        }
        _ => {}
    }
    if let Some(equal) = reals_equal(a, b, reals_narrowed_equal, singles) {
        return Step::Done(equal);
    }
    let nans_equal = identity.float_nans_equal(place);
    Step::Done(match (a, b) {
        (V::Nil, V::Nil) | (V::Callable, V::Callable) => true,
        (V::Bool(x), V::Bool(y)) => x == y,
        (V::Float(x), V::Float(y)) if nans_equal => floats_equal(*x, *y),
        (V::Float(x), V::Float(y)) => x == y,
        (V::String(x), V::StringName(y)) | (V::StringName(x), V::String(y)) => {
            identity.strings_alike(place) && x == y
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
            if x.len() != y.len() {
                return Step::Done(false);
            }
            return Step::Open(KeyFrame::Elements { x, y, next: 0, rules });
        }
        (V::Dictionary(x), V::Dictionary(y)) => {
            if !identity.dictionaries_by_content() || x.len() != y.len() {
                return Step::Done(false);
            }
            return Step::Open(KeyFrame::Entries { x, y, next: 0, value: false, rules });
        }
        (V::PackedByteArray(x), V::PackedByteArray(y)) => x == y,
        (V::PackedInt32Array(x), V::PackedInt32Array(y)) => x == y,
        (V::PackedInt64Array(x), V::PackedInt64Array(y)) => x == y,
        (V::PackedStringArray(x), V::PackedStringArray(y)) => x == y,
        _ => false,
    })
}
