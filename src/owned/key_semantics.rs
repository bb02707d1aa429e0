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
//! Costs are O(size of the values), without recursion: `hash_key`, `keys_equal` and `same` walk
//! nested containers with a heap-allocated stack of one frame per level (allocated only when
//! both sides are containers), so deep keys need no call stack. Comparing two Godot 4
//! dictionaries looks each key of one up in the other: among its hash candidates when the other
//! has a hash index, else among its (at most 8) entries.

use alloc::vec::Vec;
use core::hash::{BuildHasher, Hash, Hasher};

use super::dictionary::Candidates;
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

/// Whether `a` and `b` are one dictionary key under `rules`. Iterative: nested containers are
/// compared with a heap-allocated stack (allocated only when both are containers of one kind and
/// length).
pub(crate) fn keys_equal(a: &Variant, b: &Variant, rules: KeyRules) -> bool {
    let mut frames = match key_step(a, b, rules) {
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
            Resume::Compare(x, y, rules) => match key_step(x, y, rules) {
                Step::Done(equal) => answer = Some(equal),
                Step::Open(frame) => {
                    frames.push(frame);
                    answer = None;
                }
            },
        }
    }
    answer.unwrap_or(false)
}

/// One comparison: decided at once, or a container whose contents are compared next.
enum Step<'a> {
    Done(bool),
    Open(KeyFrame<'a>),
}

/// What a frame asks for next.
enum Resume<'a> {
    /// Its answer.
    Return(bool),
    /// The answer to this comparison, under these rules.
    Compare(&'a Variant, &'a Variant, KeyRules),
}

/// A container comparison in progress.
enum KeyFrame<'a> {
    /// Two arrays of one length: equal when every pair of elements is.
    Elements(core::slice::Iter<'a, Variant>, core::slice::Iter<'a, Variant>, KeyRules),
    /// Two Godot 4 dictionaries of one size (Godot's `Dictionary::operator==`): equal when every
    /// key of the first is found in `other` (a key equal to it under `other`'s rules, at most
    /// one) with a value equal under `rules`.
    Entries {
        rules: KeyRules,
        rest: core::slice::Iter<'a, (Variant, Variant)>,
        other: &'a Dictionary,
        /// The entry being looked up, and the entries of `other` its key may equal.
        current: Option<(&'a Variant, &'a Variant, Candidates<'a>)>,
        /// The value of the candidate whose key is being compared (`None`: the values are).
        candidate: Option<&'a Variant>,
    },
}

impl<'a> KeyFrame<'a> {
    fn resume(&mut self, answer: Option<bool>) -> Resume<'a> {
        match self {
            KeyFrame::Elements(x, y, rules) => {
                if answer == Some(false) {
                    return Resume::Return(false);
                }
                match (x.next(), y.next()) {
                    (Some(p), Some(q)) => Resume::Compare(p, q, *rules),
                    _ => Resume::Return(true),
                }
            }
            KeyFrame::Entries { rules, rest, other, current, candidate } => {
                match (answer, candidate.take()) {
                    // Keys equal: the values decide.
                    (Some(true), Some(other_value)) => {
                        if let Some((_, value, _)) = current {
                            return Resume::Compare(value, other_value, *rules);
                        }
                    }
                    // Values differ.
                    (Some(false), None) => return Resume::Return(false),
                    // Values equal, or just opened: the next entry.
                    (Some(true), None) | (None, _) => *current = None,
                    // Keys differ: the next candidate.
                    (Some(false), Some(_)) => {}
                }
                if current.is_none() {
                    let Some((key, value)) = rest.next() else {
                        return Resume::Return(true);
                    };
                    *current = Some((key, value, other.candidates(key)));
                }
                let Some((key, _, candidates)) = current else {
                    return Resume::Return(false);
                };
                match candidates.next() {
                    Some((other_key, other_value)) => {
                        *candidate = Some(other_value);
                        Resume::Compare(key, other_key, other.rules())
                    }
                    // Not found.
                    None => Resume::Return(false),
                }
            }
        }
    }
}

/// Compares `a` and `b` as keys, or opens them for comparing their contents.
fn key_step<'a>(a: &'a Variant, b: &'a Variant, rules: KeyRules) -> Step<'a> {
    use Variant as V;
    // The most common keys first.
    match (a, b) {
        (V::String(x), V::String(y)) | (V::StringName(x), V::StringName(y)) => {
            return Step::Done(x == y);
        }
        (V::Int(x), V::Int(y)) => return Step::Done(x == y),
        _ => {}
    }
    let singles = |x: f32, y: f32| floats_equal(f64::from(x), f64::from(y));
    if let Some(equal) = reals_equal(a, b, floats_equal, singles) {
        return Step::Done(equal);
    }
    Step::Done(match (a, b) {
        (V::Nil, V::Nil) | (V::Callable, V::Callable) => true,
        (V::Bool(x), V::Bool(y)) => x == y,
        (V::Float(x), V::Float(y)) => floats_equal(*x, *y),
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
            if x.len() != y.len() {
                return Step::Done(false);
            }
            return Step::Open(KeyFrame::Elements(x.iter(), y.iter(), rules));
        }
        (V::Dictionary(x), V::Dictionary(y)) => {
            if rules.godot3 || x.len() != y.len() {
                return Step::Done(false);
            }
            return Step::Open(KeyFrame::Entries {
                rules,
                rest: x.entries().iter(),
                other: y,
                current: None,
                candidate: None,
            });
        }
        (V::PackedByteArray(x), V::PackedByteArray(y)) => x == y,
        (V::PackedInt32Array(x), V::PackedInt32Array(y)) => x == y,
        (V::PackedInt64Array(x), V::PackedInt64Array(y)) => x == y,
        (V::PackedStringArray(x), V::PackedStringArray(y)) => x == y,
        _ => false,
    })
}

/// Feeds `state` a hash that is equal for values that [`keys_equal`] calls equal under any rules.
/// `builder` hashes the entries of dictionaries, which are summed (their equality ignores order).
/// Iterative: nested containers are walked with a heap-allocated stack (allocated only for
/// containers).
pub(crate) fn hash_key<B: BuildHasher, H: Hasher>(value: &Variant, builder: &B, state: &mut H) {
    let mut frames: Vec<HashFrame<'_>> = match open_hash(value, state) {
        None => return,
        Some(frame) => Vec::from([frame]),
    };
    // The states of the dictionary entries being hashed, innermost last; `state` is below them.
    let mut entry_states: Vec<B::Hasher> = Vec::new();
    while let Some(top) = frames.last_mut() {
        let next = match top {
            HashFrame::Elements(elements) => {
                let next = elements.next();
                if next.is_none() {
                    frames.pop();
                }
                next
            }
            HashFrame::Entries { rest, sum, len, value } => {
                if let Some(value) = value.take() {
                    Some(value)
                } else {
                    if let Some(entry) = entry_states.pop() {
                        // The key and value of an entry are in: add its hash.
                        *sum = sum.wrapping_add(entry.finish());
                    }
                    match rest.next() {
                        Some((k, v)) => {
                            entry_states.push(builder.build_hasher());
                            *value = Some(v);
                            Some(k)
                        }
                        None => {
                            let (len, sum) = (*len, *sum);
                            frames.pop();
                            match entry_states.last_mut() {
                                Some(entry) => close_dictionary(entry, len, sum),
                                None => close_dictionary(state, len, sum),
                            }
                            None
                        }
                    }
                }
            }
        };
        let Some(next) = next else {
            continue;
        };
        let opened = match entry_states.last_mut() {
            Some(entry) => open_hash(next, entry),
            None => open_hash(next, state),
        };
        frames.extend(opened);
    }
}

/// A container being hashed.
enum HashFrame<'a> {
    /// The array elements left, fed to the same state as the array.
    Elements(core::slice::Iter<'a, Variant>),
    /// The dictionary entries left: each is hashed on its own, and the hashes summed.
    Entries {
        rest: core::slice::Iter<'a, (Variant, Variant)>,
        sum: u64,
        len: usize,
        /// The value of the entry whose key is being hashed.
        value: Option<&'a Variant>,
    },
}

/// Ends the hash of a dictionary of `len` entries whose entry hashes add up to `sum`.
fn close_dictionary<H: Hasher>(state: &mut H, len: usize, sum: u64) {
    state.write_usize(len);
    state.write_u64(sum);
}

/// Feeds `state` the hash of `value`, or its start when it is a container, whose contents are
/// then to be hashed.
fn open_hash<'a, H: Hasher>(value: &'a Variant, state: &mut H) -> Option<HashFrame<'a>> {
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
            return Some(HashFrame::Entries {
                rest: dictionary.entries().iter(),
                sum: 0,
                len: dictionary.len(),
                value: None,
            });
        }
        V::Array(a) => {
            state.write_usize(a.len());
            return Some(HashFrame::Elements(a.iter()));
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
    None
}

/// Bit-for-bit sameness, see [`Variant::same`]. Iterative: nested containers are compared with a
/// heap-allocated stack of pairs of iterators.
pub(crate) fn same(a: &Variant, b: &Variant) -> bool {
    let mut frames: Vec<SameFrame<'_>> = Vec::new();
    let mut pair = Some((a, b));
    loop {
        if let Some((a, b)) = pair.take() {
            match same_step(a, b) {
                Err(()) => return false,
                Ok(frame) => frames.extend(frame),
            }
        }
        let Some(top) = frames.last_mut() else {
            return true;
        };
        pair = match top {
            SameFrame::Elements(x, y) => x.next().zip(y.next()),
            SameFrame::Entries(x, y, value) => value.take().or_else(|| {
                let ((k1, v1), (k2, v2)) = x.next().zip(y.next())?;
                *value = Some((v1, v2));
                Some((k1, k2))
            }),
            SameFrame::Properties(x, y) => match x.next().zip(y.next()) {
                Some(((n1, _), (n2, _))) if n1 != n2 => return false,
                Some(((_, v1), (_, v2))) => Some((v1, v2)),
                None => None,
            },
        };
        if pair.is_none() {
            frames.pop();
        }
    }
}

/// The contents of two containers being compared bit for bit (their lengths are equal).
enum SameFrame<'a> {
    Elements(core::slice::Iter<'a, Variant>, core::slice::Iter<'a, Variant>),
    /// With the values of the entries whose keys are being compared.
    Entries(
        core::slice::Iter<'a, (Variant, Variant)>,
        core::slice::Iter<'a, (Variant, Variant)>,
        Option<(&'a Variant, &'a Variant)>,
    ),
    Properties(
        core::slice::Iter<'a, (alloc::string::String, Variant)>,
        core::slice::Iter<'a, (alloc::string::String, Variant)>,
    ),
}

/// Compares `a` and `b` bit for bit, apart from their contents: `Err` when they differ, else the
/// contents left to compare.
fn same_step<'a>(a: &'a Variant, b: &'a Variant) -> Result<Option<SameFrame<'a>>, ()> {
    use Variant as V;
    let reals = |x: f64, y: f64| x.to_bits() == y.to_bits();
    let singles = |x: f32, y: f32| x.to_bits() == y.to_bits();
    let equal = if let Some(equal) = reals_equal(a, b, reals, singles) {
        equal
    } else {
        match (a, b) {
            (V::Float(x), V::Float(y)) => reals(*x, *y),
            (
                V::Object(Object::Full { class: c1, properties: p1 }),
                V::Object(Object::Full { class: c2, properties: p2 }),
            ) => {
                if c1 != c2 || p1.len() != p2.len() {
                    return Err(());
                }
                return Ok(Some(SameFrame::Properties(p1.iter(), p2.iter())));
            }
            (V::Array(x), V::Array(y)) => {
                if x.element_type != y.element_type || x.len() != y.len() {
                    return Err(());
                }
                return Ok(Some(SameFrame::Elements(x.iter(), y.iter())));
            }
            (V::Dictionary(x), V::Dictionary(y)) => {
                if x.key_type != y.key_type || x.value_type != y.value_type || x.len() != y.len() {
                    return Err(());
                }
                return Ok(Some(SameFrame::Entries(x.entries().iter(), y.entries().iter(), None)));
            }
            // Everything else holds no floats or values: structural equality is bitwise.
            _ => a == b,
        }
    };
    if equal { Ok(None) } else { Err(()) }
}
