//! Godot's rule for a key that repeats in a dictionary on the wire (the entry keeps the
//! position and the key of its first occurrence, and takes the value of its last), applied to a
//! lazily read dictionary without quadratic work.
//!
//! First pass: every key is hashed from the buffer, with a hash that agrees with Godot's key
//! equality (equal keys hash alike; for containers and a few other types the hash is coarse).
//! When no two hashes are equal, no key repeats, and the entries can be streamed as they are:
//! the common case, which allocates nothing for up to [`SMALL`] entries and a vector of hashes
//! beyond. Otherwise the keys are compared exactly: each is made owned and hashed in full, and
//! keys with equal full hashes (in practice, equal keys) are compared with the owned
//! [`Dictionary`](crate::owned::Dictionary)'s key equality, the one decoding applies. O(n log n) plus the size of the keys,
//! whatever the input.

use alloc::vec::Vec;
use core::hash::{BuildHasher, Hash, Hasher};

use hashbrown::{DefaultHashBuilder, HashMap};

use crate::owned::Variant;
use crate::owned::key_semantics::{
    KeyRules, hash_float, hash_key as owned_hash_key, keys_equal, never_equal,
};
use crate::{DictionaryRef, Element, FullObject, GdStr, ObjectRef, VariantRef, VariantType};

/// Dictionaries up to this size are checked with the hashes on the stack.
const SMALL: usize = 16;

/// The entries of a dictionary as Godot decodes them.
pub(crate) enum Plan<'a> {
    /// No key repeats: the entries on the wire are the entries.
    Unique,
    /// Some key repeats: the entries that remain, in order, each with the key of its first
    /// occurrence and the value of its last.
    Merged(Vec<(Element<'a>, Element<'a>)>),
}

/// Finds whether any key of `dictionary` repeats, and if so, which entries remain.
///
/// # Errors
/// A malformed entry, or a key that cannot be made owned (a Godot 3 string that is not Unicode)
/// when keys have to be compared exactly.
pub(crate) fn plan(dictionary: DictionaryRef<'_>) -> crate::Result<Plan<'_>> {
    if dictionary.len() < 2 {
        return Ok(Plan::Unique);
    }
    let hasher = DefaultHashBuilder::default();
    let keys = dictionary.entries().map(|entry| entry.map(|(key, _)| hash_of(&hasher, &key)));
    let repeats = any_equal(dictionary.len(), keys)?;
    if repeats { merged(dictionary) } else { Ok(Plan::Unique) }
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
        let seen = small.get(..filled).unwrap_or(&[]);
        return Ok(seen.iter().enumerate().any(|(i, h)| seen.get(..i).unwrap_or(&[]).contains(h)));
    }
    let mut all = Vec::new();
    for hash in hashes {
        all.push(hash?);
    }
    all.sort_unstable();
    Ok(all.windows(2).any(|pair| pair.first() == pair.last()))
}

/// The properties of a full object as Godot sets them: a repeated name keeps its first position
/// and takes its last value (Godot sets each property in turn).
pub(crate) enum PropertyPlan<'a> {
    /// No name repeats.
    Unique,
    /// Some name repeats: the properties that remain, in order.
    Merged(Vec<(GdStr<'a>, Element<'a>)>),
}

/// Finds whether a property name of `object` repeats, and if so, which properties remain.
/// Names compare by their text; O(n log n).
///
/// # Errors
/// A malformed property.
pub(crate) fn plan_properties(object: FullObject<'_>) -> crate::Result<PropertyPlan<'_>> {
    if object.len() < 2 {
        return Ok(PropertyPlan::Unique);
    }
    let hasher = DefaultHashBuilder::default();
    let names = object.properties().map(|p| p.map(|(name, _)| hasher.hash_one(name.text_bytes())));
    if !any_equal(object.len(), names)? {
        return Ok(PropertyPlan::Unique);
    }
    let mut positions: HashMap<&[u8], usize> = HashMap::new();
    let mut kept: Vec<(GdStr<'_>, Element<'_>)> = Vec::new();
    for property in object.properties() {
        let (name, value) = property?;
        let earlier = positions.get(name.text_bytes()).copied();
        match earlier.and_then(|position| kept.get_mut(position)) {
            Some((_, slot)) => *slot = value,
            None => {
                positions.insert(name.text_bytes(), kept.len());
                kept.push((name, value));
            }
        }
    }
    Ok(PropertyPlan::Merged(kept))
}

/// The exact merge, once some hashes are equal: each key is made owned and hashed in full, and
/// keys with equal full hashes are compared with the owned
/// [`Dictionary`](crate::owned::Dictionary)'s key equality, which is decoding's.
fn merged(dictionary: DictionaryRef<'_>) -> crate::Result<Plan<'_>> {
    let rules = KeyRules::of(dictionary.origin().0.options.version());
    let hasher = DefaultHashBuilder::default();
    let mut kept: Vec<(Element<'_>, Element<'_>)> = Vec::new();
    // The owned key of each kept entry (`Nil` for keys that equal nothing).
    let mut keys: Vec<Variant> = Vec::new();
    // Kept entries by full hash.
    let mut slots: HashMap<u64, Vec<usize>> = HashMap::new();
    for entry in dictionary.entries() {
        let (key, value) = entry?;
        let owned = Variant::from_element(&key)?;
        if never_equal(&owned, rules) {
            kept.push((key, value));
            keys.push(Variant::Nil);
            continue;
        }
        let mut state = hasher.build_hasher();
        owned_hash_key(&owned, &hasher, &mut state);
        let candidates = slots.entry(state.finish()).or_default();
        let earlier = candidates
            .iter()
            .copied()
            .find(|&slot| keys.get(slot).is_some_and(|k| keys_equal(k, &owned, rules)));
        match earlier.and_then(|slot| kept.get_mut(slot)) {
            Some((_, slot)) => *slot = value,
            None => {
                candidates.push(kept.len());
                kept.push((key, value));
                keys.push(owned);
            }
        }
    }
    Ok(Plan::Merged(kept))
}

/// A hash of a key read from the buffer, equal for keys Godot calls equal.
fn hash_of(hasher: &DefaultHashBuilder, key: &Element<'_>) -> u64 {
    let mut state = hasher.build_hasher();
    hash_key(&key.value(), &mut state);
    state.finish()
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
    let real = |c: f64, state: &mut H| hash_float(c, state);
    match *value {
        V::Bool(b) => b.hash(state),
        V::Int(i) => i.hash(state),
        V::Float(f) => real(f, state),
        V::String(s) | V::StringName(s) => s.text_bytes().hash(state),
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
        V::Color(c) => c.for_each_component(|c| real(f64::from(c), state)),
        V::Vector2i(v) => v.for_each_component(|c| c.hash(state)),
        V::Rect2i(v) => v.for_each_component(|c| c.hash(state)),
        V::Vector3i(v) => v.for_each_component(|c| c.hash(state)),
        V::Vector4i(v) => v.for_each_component(|c| c.hash(state)),
        V::NodePath(p) => (p.is_absolute(), p.name_count(), p.subname_count()).hash(state),
        // Godot 3 writes no id: every RID reads as 0.
        V::Rid(id) => id.unwrap_or(0).hash(state),
        V::Object(ObjectRef::Id(id)) => id.hash(state),
        V::Signal(s) => (s.name().text_bytes(), s.object_id()).hash(state),
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
