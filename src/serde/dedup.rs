//! Godot's rule for a key that repeats in a dictionary on the wire (the entry keeps the
//! position and the key of its first occurrence, and takes the value of its last), and for a
//! repeated property name of a full object, applied to a value on a tape without quadratic work.
//!
//! First pass: every key is hashed from the buffer, with a hash that agrees with Godot's key
//! equality (equal keys hash alike; for containers it is their type and length, O(1)). When no
//! two hashes are equal, no key repeats, and the entries are visited as they are: the common
//! case, which allocates nothing for up to [`SMALL`] entries and a vector of hashes beyond.
//! Otherwise each key gets its exact number ([`KeyIds`](super::key_ids::KeyIds): equal for keys
//! Godot calls equal, found once per part of the tape however deep keys nest), and entries are
//! grouped by number. O(k log k) for a dictionary of k entries, plus the size of its keys the
//! first time they are numbered.

use alloc::borrow::Cow;
use alloc::vec::Vec;
use core::hash::{BuildHasher, Hash, Hasher};

use hashbrown::{DefaultHashBuilder, HashMap};

use super::key_ids::sort_cost;
use super::source::Source;
use crate::owned::key_semantics::hash_float;
use crate::view::tape::Part;
use crate::wire::identity::narrow_real;
use crate::wire::work;
use crate::{VariantRef, VariantType, view::GdStr, view::ObjectRef};

/// Dictionaries up to this size are checked with the hashes on the stack.
const SMALL: usize = 16;

/// The entries a dictionary keeps, as part indices, when some key repeats; `None` when none
/// does (the entries on the wire are the entries).
///
/// # Errors
/// In a dictionary of two or more entries: a structural problem anywhere in it (all keys are
/// looked at first), or a key Godot refuses when keys have to be compared exactly.
pub(crate) fn entries<'a>(
    source: &Source<'a>,
    dictionary: Part<'_, 'a>,
) -> crate::Result<Option<Vec<(u32, u32)>>> {
    let len = match dictionary.value() {
        VariantRef::Dictionary(d) => d.len(),
        _ => 0,
    };
    if len < 2 {
        return Ok(None);
    }
    if !dictionary.is_complete() {
        return Err(source.error());
    }
    let hasher = DefaultHashBuilder::default();
    let keys = dictionary.children().step_by(2).map(|key| Ok(hash_of(&hasher, &key.value())));
    if !any_equal(len, keys)? {
        return Ok(None);
    }
    let mut positions: HashMap<u32, usize> = HashMap::with_capacity(len);
    let mut kept: Vec<(u32, u32)> = Vec::new();
    let mut children = dictionary.children();
    while let (Some(key), Some(value)) = (children.next(), children.next()) {
        let id = source.key_id(key)?;
        work::add(1);
        match positions.get(&id).and_then(|&at| kept.get_mut(at)) {
            Some((_, slot)) => *slot = value.index(),
            None => {
                positions.insert(id, kept.len());
                kept.push((key.index(), value.index()));
            }
        }
    }
    Ok(Some(kept))
}

/// The properties a full object keeps, as part indices (name, value), when some name repeats
/// (Godot sets each property in turn: the first position, the last value); `None` when none
/// does. Names compare by their text as the game reads it; O(k log k) plus the names' size.
///
/// # Errors
/// In an object of two or more properties: a structural problem anywhere in it, or a name Godot
/// refuses.
pub(crate) fn properties<'a>(
    source: &Source<'a>,
    object: Part<'_, 'a>,
) -> crate::Result<Option<Vec<(u32, u32)>>> {
    let len = match object.value() {
        VariantRef::Object(ObjectRef::Full(o)) => o.len(),
        _ => 0,
    };
    if len < 2 {
        return Ok(None);
    }
    if !object.is_complete() {
        return Err(source.error());
    }
    let hasher = DefaultHashBuilder::default();
    let names = object.children().step_by(2).map(|n| Ok(hasher.hash_one(name(n)?)));
    if !any_equal(len, names)? {
        return Ok(None);
    }
    let mut positions: HashMap<Cow<'a, [u8]>, usize> = HashMap::with_capacity(len);
    let mut kept: Vec<(u32, u32)> = Vec::new();
    let mut children = object.children();
    while let (Some(key), Some(value)) = (children.next(), children.next()) {
        work::add(1);
        let name = name(key)?;
        match positions.get(&name).and_then(|&at| kept.get_mut(at)) {
            Some((_, slot)) => *slot = value.index(),
            None => {
                positions.insert(name, kept.len());
                kept.push((key.index(), value.index()));
            }
        }
    }
    Ok(Some(kept))
}

/// A property name as Godot compares names (by code point: a Godot 3 name spelled with overlong
/// forms is the name it spells), in the shortest form of each code point.
///
/// # Errors
/// A name Godot refuses.
fn name<'a>(part: Part<'_, 'a>) -> crate::Result<Cow<'a, [u8]>> {
    match part.name() {
        Some(name) => Ok(name.game_text()?.shortest_bytes()),
        None => Ok(Cow::Borrowed(&[])),
    }
}

/// Whether two of the `len` hashes `hashes` yields are equal. O(n log n); allocates only past
/// [`SMALL`] hashes.
fn any_equal(len: usize, hashes: impl Iterator<Item = crate::Result<u64>>) -> crate::Result<bool> {
    let mut hashes = hashes;
    if len <= SMALL {
        let mut small = [0u64; SMALL];
        let mut filled = 0usize;
        for (slot, hash) in small.iter_mut().zip(&mut hashes) {
            *slot = hash?;
            filled = filled.saturating_add(1);
        }
        work::add(filled.saturating_mul(filled) / 2);
        let seen = small.get(..filled).unwrap_or(&[]);
        return Ok(seen.iter().enumerate().any(|(i, h)| seen.get(..i).unwrap_or(&[]).contains(h)));
    }
    let mut all = Vec::with_capacity(len);
    for hash in hashes {
        all.push(hash?);
    }
    all.sort_unstable();
    work::add(sort_cost(all.len()));
    Ok(all.windows(2).any(|pair| pair.first() == pair.last()))
}

/// A hash of a key read from the buffer, equal for keys Godot calls equal.
fn hash_of(hasher: &DefaultHashBuilder, key: &VariantRef<'_>) -> u64 {
    let mut state = hasher.build_hasher();
    hash_key(key, &mut state);
    state.finish()
}

/// Feeds `state` a string's text as Godot compares it (by code point); the bytes of a text Godot
/// refuses (whose key cannot be made owned, which stops the reading).
fn hash_text<H: Hasher>(s: &GdStr<'_>, state: &mut H) {
    match s.game_text() {
        Ok(text) => text.hash(state),
        Err(_) => s.text_bytes().hash(state),
    }
}

/// Feeds `state` what Godot's key equality looks at, or less (containers: their type and
/// length at most).
fn hash_key<H: Hasher>(value: &VariantRef<'_>, state: &mut H) {
    use VariantRef as V;
    // A String and a StringName with the same text are one key in Godot 4.
    let class = match value.variant_type() {
        VariantType::StringName => VariantType::String,
        other => other,
    };
    class.hash(state);
    // Math values' components as Godot's official builds hold them (f32).
    let real = |c: f64, state: &mut H| hash_float(narrow_real(c), state);
    match *value {
        V::Bool(b) => b.hash(state),
        V::Int(i) => i.hash(state),
        V::Float(f) => hash_float(f, state),
        V::String(s) | V::StringName(s) => hash_text(&s, state),
        V::Vector2(v) => v.get().for_each_component(|c| real(c, state)),
        V::Rect2(v) => v.get().for_each_component(|c| real(c, state)),
        V::Vector3(v) => v.get().for_each_component(|c| real(c, state)),
        V::Transform2D(v) => v.get().for_each_component(|c| real(c, state)),
        V::Vector4(v) => v.get().for_each_component(|c| real(c, state)),
        V::Plane(v) => v.get().for_each_component(|c| real(c, state)),
        V::Quaternion(v) => v.get().for_each_component(|c| real(c, state)),
        V::Aabb(v) => v.get().for_each_component(|c| real(c, state)),
        V::Basis(v) => v.get().for_each_component(|c| real(c, state)),
        V::Transform3D(v) => v.get().for_each_component(|c| real(c, state)),
        V::Projection(v) => v.get().for_each_component(|c| real(c, state)),
        V::Color(c) => c.for_each_component(|c| hash_float(f64::from(c), state)),
        V::Vector2i(v) => v.for_each_component(|c| c.hash(state)),
        V::Rect2i(v) => v.for_each_component(|c| c.hash(state)),
        V::Vector3i(v) => v.for_each_component(|c| c.hash(state)),
        V::Vector4i(v) => v.for_each_component(|c| c.hash(state)),
        V::NodePath(p) => (p.is_absolute(), p.name_count(), p.subname_count()).hash(state),
        // Godot 3 writes no id: every RID reads as 0.
        V::Rid(id) => id.unwrap_or(0).hash(state),
        V::Object(ObjectRef::Id(id)) => id.hash(state),
        V::Signal(s) => {
            hash_text(&s.name(), state);
            s.object_id().hash(state);
        }
        V::Array(a) => a.len().hash(state),
        V::PackedByteArray(bytes) => bytes.hash(state),
        V::PackedInt32Array(p) => p.len().hash(state),
        V::PackedInt64Array(p) => p.len().hash(state),
        V::PackedFloat32Array(p) => p.len().hash(state),
        V::PackedFloat64Array(p) => p.len().hash(state),
        V::PackedStringArray(p) => p.len().hash(state),
        V::PackedColorArray(p) => p.len().hash(state),
        V::PackedVector2Array(p) => p.len().hash(state),
        V::PackedVector3Array(p) => p.len().hash(state),
        V::PackedVector4Array(p) => p.len().hash(state),
        // Nil and Callable are one key each; a dictionary's wire count may hold repeats, so it
        // hashes by type alone; objects other than ids never equal anything but null.
        V::Nil | V::Callable | V::Dictionary(_) | V::Object(_) => {}
    }
}
