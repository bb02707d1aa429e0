//! Content hashes of dictionary keys: equal for keys Godot calls equal, and the same in every
//! dictionary of the process, so that a dictionary keeps the hash of each of its keys and the hash
//! of a container is built from the hashes of what it holds, never by hashing a nested key again.
//!
//! The hasher is foldhash with a seed drawn once per process (`SharedSeed::global_random`): hashes
//! agree across dictionaries and threads, and a remote peer cannot choose keys that collide.
//!
//! * A value that holds no values hashes its type (a `StringName` as a `String`: Godot 4 makes
//!   them one key) and its contents (a string its one form of its code points), floats by
//!   [`hash_float`] (every NaN alike, `-0.0` as `0.0`). As an array element or a dictionary
//!   value ([`value_hash`]), a Godot 4 `StringName` hashes apart from its `String`.
//! * An array hashes the hash of each element, in order, then its length (last, so that an
//!   array whose length is known only once it is complete is hashed as it is read).
//! * A Godot 4 dictionary hashes each entry (the key's hash, the one the dictionary keeps, then
//!   the value's), in order, then its length: Godot's `Dictionary::recursive_hash` folds the
//!   entries in order, so two dictionaries holding the same entries in another order are two
//!   keys.
//! * A key that equals no key ([`NEVER`]): one that holds an instance id or a full object (each
//!   decoded object is an instance of its own); under Godot 3's rules, a dictionary (compared by
//!   reference) or a pool of reals holding a NaN (Godot 3.2 compares those with a test that
//!   fails); under Godot 4's, a float NaN that is an array element or a dictionary value (Godot
//!   compares those with `==`, [`value_hash`]). Every other hash is odd, so `NEVER` is never a
//!   real hash.
//! * Godot 3 hashes a pool of reals by its bytes (`-0.0` is not `0.0` there); Godot 4's math
//!   values are compared as the `f32`s its official builds hold, so their components are hashed
//!   narrowed.
//!
//! Costs: [`key_hash`] visits each value of the key once, and stops at nested dictionaries' keys,
//! whose hashes those dictionaries keep: O(size of the key) at most, with a heap-allocated stack
//! of one frame (32 bytes) per level, so deep keys need no call stack. Each visit counts a unit of
//! work (`crate::wire::work`).

use alloc::vec::Vec;
use core::hash::{Hash, Hasher};

use foldhash::SharedSeed;
use foldhash::fast::FoldHasher;

use super::key_semantics::KeyRules;
use super::{Array, Dictionary, GdString, Object, Variant};
use crate::VariantType;
use crate::wire::identity::{Place, narrow_real};
use crate::wire::work;

/// The hash of a key that equals no key, itself included.
pub(crate) const NEVER: u64 = 0;

/// The per-hasher seed; the shared seed, drawn once per process, is what makes hashes unguessable.
const SEED: u64 = 0x5851_f42d_4c95_7f2d;

/// Starts the hash of an array.
const ARRAY: u64 = 0x2545_f491_4f6c_dd1d;

/// Marks the hash of a `StringName` element or value.
const STRING_NAME: u64 = 0x2127_599b_f432_5c37;

/// Starts the hash of a dictionary.
const DICTIONARY: u64 = 0x9e37_79b9_7f4a_7c15;

/// A hasher of the process's key hashes.
fn hasher() -> FoldHasher<'static> {
    FoldHasher::with_seed(SEED, SharedSeed::global_random())
}

/// A hash of two words.
fn pair(a: u64, b: u64) -> u64 {
    let mut state = hasher();
    state.write_u64(a);
    state.write_u64(b);
    state.finish()
}

/// The running hash of an array, before any element.
pub(crate) fn array_start() -> u64 {
    ARRAY | 1
}

/// The running hash of an array after an element whose hash is `element` ([`NEVER`] stays).
pub(crate) fn array_step(running: u64, element: u64) -> u64 {
    if running == NEVER || element == NEVER { NEVER } else { pair(running, element) | 1 }
}

/// The hash of an array of `len` elements whose running hash is `running` ([`NEVER`] stays).
pub(crate) fn array_finish(running: u64, len: usize) -> u64 {
    if running == NEVER { NEVER } else { pair(running, len as u64) | 1 }
}

/// The running hash of a dictionary, before any entry.
pub(crate) fn dictionary_start() -> u64 {
    DICTIONARY | 1
}

/// The running hash of a dictionary after an entry whose key and value hash to `key` and
/// `value` ([`NEVER`] stays, and either being [`NEVER`] makes it so).
pub(crate) fn dictionary_step(running: u64, key: u64, value: u64) -> u64 {
    if running == NEVER || key == NEVER || value == NEVER {
        NEVER
    } else {
        pair(running, pair(key, value)) | 1
    }
}

/// The hash of a dictionary of `len` entries whose running hash is `running`.
pub(crate) fn dictionary_finish(running: u64, len: usize) -> u64 {
    array_finish(running, len)
}

/// The hash of a value whose hash as a key is `hash`, as an array element or a dictionary value,
/// where Godot 4 compares with `hash_compare(.., false)`: a float NaN equals nothing
/// ([`NEVER`]), and a `StringName` no `String` (so it hashes apart from one, and keys that
/// differ only there do not share a hash).
pub(crate) fn value_hash(value: &Variant, hash: u64, rules: KeyRules) -> u64 {
    match value {
        Variant::Float(f) if f.is_nan() && !rules.identity().float_nans_equal(Place::Value) => {
            NEVER
        }
        Variant::StringName(_)
            if !rules.identity().strings_alike(Place::Value) && hash != NEVER =>
        {
            pair(hash, STRING_NAME) | 1
        }
        _ => hash,
    }
}

/// One hash for floats that Godot's key equality calls equal (`==`, or both NaN).
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

/// What hashing a value meets: its hash, or a container whose contents come next.
enum Node<'a> {
    Leaf(u64),
    Array(&'a Array),
    Dictionary(&'a Dictionary),
}

/// Classifies `value` under `rules`.
fn node(value: &Variant, rules: KeyRules) -> Node<'_> {
    match value {
        Variant::Array(array) => Node::Array(array),
        Variant::Dictionary(_) if !rules.identity().dictionaries_by_content() => Node::Leaf(NEVER),
        Variant::Dictionary(dictionary) => Node::Dictionary(dictionary),
        _ => Node::Leaf(leaf_hash(value, rules)),
    }
}

/// The hash of a value that holds no values (arrays and dictionaries go to [`key_hash`]), as a
/// key of a dictionary with `rules`. O(size of the value).
pub(crate) fn leaf_hash(value: &Variant, rules: KeyRules) -> u64 {
    use Variant as V;
    if let V::String(s) | V::StringName(s) = value {
        return string_hash(s);
    }
    let class = match value.variant_type() {
        VariantType::StringName => VariantType::String,
        other => other,
    };
    let mut state = hasher();
    class.hash(&mut state);
    // Math values' components as the engine holds them (Godot 3's are f32 on the wire).
    let real = |c: f64, state: &mut FoldHasher<'static>| hash_float(narrow_real(c), state);
    let state = &mut state;
    match value {
        V::Object(Object::Id(_) | Object::Full(_)) => return NEVER,
        V::Array(_) | V::Dictionary(_) => return key_hash(value, rules),
        V::Nil | V::Callable | V::Object(Object::Null) => {}
        V::Bool(b) => b.hash(state),
        V::Int(i) => i.hash(state),
        V::Float(f) => hash_float(*f, state),
        // Hashed above.
        V::String(_) | V::StringName(_) => {}
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
        V::Color(v) => v.for_each_component(|c| hash_float(f64::from(c), state)),
        V::Vector2i(v) => v.for_each_component(|c| c.hash(state)),
        V::Rect2i(v) => v.for_each_component(|c| c.hash(state)),
        V::Vector3i(v) => v.for_each_component(|c| c.hash(state)),
        V::Vector4i(v) => v.for_each_component(|c| c.hash(state)),
        V::NodePath(p) => p.hash(state),
        V::Rid(id) => id.hash(state),
        V::Signal(s) => s.hash(state),
        V::PackedByteArray(x) => {
            work::add(x.len() / 64);
            x.hash(state);
        }
        V::PackedInt32Array(x) => {
            work::add(x.len() / 16);
            x.hash(state);
        }
        V::PackedInt64Array(x) => {
            work::add(x.len() / 8);
            x.hash(state);
        }
        V::PackedStringArray(x) => {
            work::add(x.len());
            x.hash(state);
        }
        V::PackedFloat32Array(x) if rules.identity().reals_by_bytes() => {
            // Godot 3.2 hashes a pool of reals by its bytes, and never finds one holding a NaN.
            work::add(x.len());
            if x.iter().any(|c| c.is_nan()) {
                return NEVER;
            }
            x.iter().for_each(|c| c.to_bits().hash(state));
        }
        V::PackedFloat32Array(x) => {
            work::add(x.len());
            x.iter().for_each(|c| hash_float(f64::from(*c), state));
        }
        V::PackedFloat64Array(x) => {
            work::add(x.len());
            x.iter().for_each(|c| hash_float(*c, state));
        }
        V::PackedVector2Array(x) => {
            work::add(x.len());
            x.iter().for_each(|v| v.for_each_component(|c| real(c, state)));
        }
        V::PackedVector3Array(x) => {
            work::add(x.len());
            x.iter().for_each(|v| v.for_each_component(|c| real(c, state)));
        }
        V::PackedVector4Array(x) => {
            work::add(x.len());
            x.iter().for_each(|v| v.for_each_component(|c| real(c, state)));
        }
        V::PackedColorArray(x) => {
            work::add(x.len());
            x.iter().for_each(|v| v.for_each_component(|c| hash_float(f64::from(c), state)));
        }
    }
    state.finish() | 1
}

/// The hash of a `String` or `StringName` key (both hash as a `String`: Godot 4 makes them one
/// key). O(length).
#[inline]
pub(crate) fn string_hash(s: &GdString) -> u64 {
    let mut state = hasher();
    VariantType::String.hash(&mut state);
    work::add(s.as_bytes().len() / 64);
    s.hash(&mut state);
    state.finish() | 1
}

/// A container being hashed by [`key_hash`].
enum Frame<'a> {
    /// The elements left, the running hash, and the array's length.
    Elements { rest: core::slice::Iter<'a, Variant>, running: u64, len: usize },
    /// The entry whose value comes next, and the dictionary's running hash.
    Entries { dictionary: &'a Dictionary, next: usize, running: u64 },
}

/// The hash of `value` as a key of a dictionary with `rules` ([`NEVER`] when it equals no key).
/// Iterative; O(size of `value`), nested dictionaries' keys excluded (their hashes are kept).
pub(crate) fn key_hash(value: &Variant, rules: KeyRules) -> u64 {
    work::add(1);
    let first = match node(value, rules) {
        Node::Leaf(hash) => return hash,
        Node::Array(array) => {
            Frame::Elements { rest: array.iter(), running: array_start(), len: array.len() }
        }
        Node::Dictionary(dictionary) => {
            Frame::Entries { dictionary, next: 0, running: dictionary_start() }
        }
    };
    let mut frames = Vec::from([first]);
    loop {
        let Some(top) = frames.last_mut() else {
            return NEVER;
        };
        // The next value of the top container, or the container's hash once it has no more.
        let next = match top {
            Frame::Elements { rest, running, len } => {
                rest.next().ok_or_else(|| array_finish(*running, *len))
            }
            Frame::Entries { dictionary, next, running } => {
                match dictionary.key_hashes().get(*next) {
                    Some(&NEVER) => return NEVER,
                    Some(_) => dictionary.entries().get(*next).map(|(_, value)| value).ok_or(NEVER),
                    None => Err(dictionary_finish(*running, dictionary.len())),
                }
            }
        };
        let hash = match next {
            Ok(value) => {
                work::add(1);
                match node(value, rules) {
                    // Every value met here is an array element or a dictionary value.
                    Node::Leaf(hash) => value_hash(value, hash, rules),
                    Node::Array(array) => {
                        let (running, len) = (array_start(), array.len());
                        frames.push(Frame::Elements { rest: array.iter(), running, len });
                        continue;
                    }
                    Node::Dictionary(dictionary) => {
                        let running = dictionary_start();
                        frames.push(Frame::Entries { dictionary, next: 0, running });
                        continue;
                    }
                }
            }
            Err(hash) => {
                frames.pop();
                hash
            }
        };
        if hash == NEVER {
            return NEVER;
        }
        // Into the container it belongs to, as an element or a value.
        match frames.last_mut() {
            None => return hash,
            Some(Frame::Elements { running, .. }) => *running = array_step(*running, hash),
            Some(Frame::Entries { dictionary, next, running }) => {
                let key = dictionary.key_hashes().get(*next).copied().unwrap_or(NEVER);
                *running = dictionary_step(*running, key, hash);
                *next = next.saturating_add(1);
            }
        }
    }
}
