//! Reading a whole value into a [`Variant`]: Godot's verdict first, then one iterative pass.
//!
//! The value is first walked by [`validate`](crate::validate)'s own walk (one pass, no
//! allocation), which also gives its nesting depth. Every count in an accepted value is true, so
//! the second pass sizes each container exactly once from its count, and sizes its own stack of
//! open containers exactly, from the depth: nothing is ever reserved for elements that are not
//! there. It reads each value's head with the same code as [`parse`](crate::parse) and keeps the
//! containers it is inside on that heap-allocated stack, so nesting costs no call stack. (The
//! second pass can only fail on a Godot 3 string that Rust's `str` cannot hold:
//! [`ErrorKind::NotUnicode`].)
//!
//! Keys: each key's hash (see `key_hash.rs`) is computed as the key is read, from the hashes of
//! what it holds, so no key is walked again to hash it, and the dictionary keeps it. A repeated
//! key is found among the keys of the same hash and compared once (see `key_semantics.rs`).
//! Time: O(n).
//!
//! Memory: what the value holds, plus the stack of open containers (one 64-byte frame per level
//! of the value's depth) and, while a dictionary inside a key is read, 8 bytes per entry of
//! it. At most 32 bytes are requested from the allocator per input byte, on any input, plus
//! 4 KiB (`tests/hostile_alloc.rs`); the densest inputs are empty dictionaries and dictionaries
//! nested in dictionaries (each a 128-byte box for 8 input bytes, entries 136 bytes each).
//!
//! Stack: nothing recurses, and what the pass drops itself (a repeated key, a replaced value,
//! what was read before a problem) is taken apart without recursion or allocation, as is the
//! returned value when it is dropped.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::dictionary::Settled;
use super::key_hash::{NEVER, array_start, array_step, dictionary_hash, entry_hash, leaf_hash};
use super::key_semantics::KeyRules;
use super::{Array, Dictionary, NodePath, Object, Signal, Variant};
use crate::ElementType;
use crate::view::container_type::kind_bits;
use crate::view::element::Element;
use crate::view::math::{RealValue, Reals};
use crate::view::object::ObjectRef;
use crate::view::packed::{PackedElement, PackedReals};
use crate::view::string::{GdStr, read_string};
use crate::view::value::{Extent, VariantRef, parse_head};
use crate::view::walk::{Mode, walk_depth};
use crate::wire::error::{ErrorKind, Result};
use crate::wire::exact_float::widen_exact;
use crate::wire::read::{error_at, u32_at};
use crate::{Options, Version};

/// Reads the whole value at the start of `bytes` into an owned [`Variant`]. O(n); allocates at
/// most 32 bytes per input byte (plus a few KiB), whatever the input. Trailing bytes are ignored,
/// as in Godot.
///
/// Accepts what [`validate`](crate::validate) accepts, except Godot 3 strings that hold code
/// points Rust's `str` cannot carry ([`ErrorKind::NotUnicode`]). The value is validated first, so
/// nothing is allocated for a value Godot refuses.
///
/// ```
/// use gdvariant::{Options, Variant};
///
/// // Godot 4.6: var_to_bytes({"z": 1, "a": 2, "m": 3})
/// let bytes = include_bytes!("../../corpus/godot4/dict_order.bin");
/// let value = gdvariant::decode(bytes, Options::godot4())?;
/// let dictionary = value.as_dictionary().unwrap();
/// let keys: Vec<_> = dictionary.keys().filter_map(Variant::as_str).collect();
/// assert_eq!(keys, ["z", "a", "m"]);
/// assert_eq!(dictionary.get(&"a".into()), Some(&Variant::Int(2)));
/// # Ok::<(), gdvariant::Error>(())
/// ```
///
/// # Stack
/// Iterative: a small fixed stack decodes the deepest values Godot accepts (the tests use
/// 256 KiB), Godot 4 dictionaries nested as dictionary keys included; dropping the returned
/// value is iterative too.
///
/// # Errors
/// The first problem, with its absolute offset, as [`validate`](crate::validate) reports it.
pub fn decode(bytes: &[u8], options: Options) -> Result<Variant> {
    convert(bytes, 0, options, 0)
}

impl Variant {
    /// Reads a lazily parsed value, and everything inside it, into an owned [`Variant`]. O(n).
    ///
    /// # Errors
    /// The first problem inside the value (see [`decode`]).
    pub fn from_ref(value: &VariantRef<'_>) -> Result<Variant> {
        let (scope, header) = match value {
            VariantRef::Array(array) => array.origin(),
            VariantRef::Dictionary(dictionary) => dictionary.origin(),
            VariantRef::Object(ObjectRef::Full(object)) => object.origin(),
            _ => return leaf(value),
        };
        convert(scope.buf, header, scope.options, scope.depth)
    }

    /// Reads a container element, and everything inside it, into an owned [`Variant`]. O(n).
    ///
    /// # Errors
    /// The first problem inside the value (see [`decode`]).
    pub fn from_element(element: &Element<'_>) -> Result<Variant> {
        let (buf, offset, options, depth) = element.origin();
        convert(buf, offset, options, depth)
    }
}

impl TryFrom<VariantRef<'_>> for Variant {
    type Error = crate::Error;

    fn try_from(value: VariantRef<'_>) -> Result<Variant> {
        Variant::from_ref(&value)
    }
}

impl TryFrom<Element<'_>> for Variant {
    type Error = crate::Error;

    fn try_from(element: Element<'_>) -> Result<Variant> {
        Variant::from_element(&element)
    }
}

/// A container being filled, on the decoder's stack.
struct Open {
    container: Container,
    /// The values still to read (keys and values, for a dictionary).
    left: u32,
    /// Whether this container's own hash is wanted (it is, or is inside, a dictionary key).
    hashed: bool,
}

/// What an [`Open`] fills.
enum Container {
    /// `running`: the running hash of the elements (see `key_hash.rs`), when wanted.
    Array { array: Array, running: u64 },
    /// `base`: where the hashes of its values start on the decoder's stack of value hashes,
    /// when its own hash is wanted. A key waits for its value as the dictionary's last entry.
    Dictionary { dictionary: Box<Dictionary>, base: usize },
    /// A property waits for its value as the last property.
    Object { class: String, properties: Vec<(String, Variant)> },
}

/// Reads the value whose header is at `pos`, at nesting `depth`, after checking it as
/// [`validate`](crate::validate) does.
fn convert(buf: &[u8], pos: usize, options: Options, depth: u16) -> Result<Variant> {
    let (_, nesting) = walk_depth(buf, pos, options, depth, Mode::Validate)?;
    build(buf, pos, options, depth, usize::from(nesting))
}

/// The second pass over a value Godot accepts, `nesting` containers deep.
fn build(buf: &[u8], pos: usize, options: Options, depth: u16, nesting: usize) -> Result<Variant> {
    let version = options.version();
    let rules = KeyRules::of(version);
    let mut stack: Vec<Open> = Vec::with_capacity(nesting);
    // The hashes of the values of the dictionaries being read inside keys, by entry.
    let mut value_hashes: Vec<u64> = Vec::new();
    let mut pos = pos;
    let mut depth = depth;
    loop {
        let (value, extent) = parse_head(buf, pos, options, depth)?;
        let hashed = hash_wanted(stack.last());
        let (mut done, mut hash) = match extent {
            Extent::End(end) => {
                pos = end;
                let done = leaf(&value)?;
                let hash = if hashed { leaf_hash(&done) } else { NEVER };
                (done, hash)
            }
            Extent::Strings { .. } => {
                let (done, end) = strings(&value)?;
                pos = end;
                let hash = if hashed { leaf_hash(&done) } else { NEVER };
                (done, hash)
            }
            Extent::Values { first, items } | Extent::Properties { first, count: items } => {
                let header = u32_at(buf, pos)?;
                let container = open(&value, items, header, version, rules, &value_hashes)?;
                let mut open = Open { container, left: items, hashed };
                pos = first;
                if items == 0 {
                    close(open, rules, &mut value_hashes)
                } else {
                    if let Container::Object { properties, .. } = &mut open.container {
                        let (name, end) = property_name(buf, pos, version)?;
                        properties.push((name, Variant::Nil));
                        pos = end;
                    }
                    stack.push(open);
                    depth = depth.saturating_add(1);
                    continue;
                }
            }
        };
        // Hand the finished value to its container, closing every container it completes.
        loop {
            let Some(top) = stack.last_mut() else {
                return Ok(done);
            };
            place(top, done, hash, &mut value_hashes);
            top.left = top.left.saturating_sub(1);
            if top.left > 0 {
                if let Container::Object { properties, .. } = &mut top.container {
                    let (name, end) = property_name(buf, pos, version)?;
                    properties.push((name, Variant::Nil));
                    pos = end;
                }
                break;
            }
            let Some(finished) = stack.pop() else {
                return Err(error_at(buf, pos, ErrorKind::DepthLimit));
            };
            (done, hash) = close(finished, rules, &mut value_hashes);
            depth = depth.saturating_sub(1);
        }
    }
}
/// Whether the hash of the next value read into `top` is wanted: a dictionary key's always, an
/// element's or a value's when the container's own hash is (an object's never: an object
/// equals no key, whatever it holds).
fn hash_wanted(top: Option<&Open>) -> bool {
    let Some(top) = top else {
        return false;
    };
    match &top.container {
        Container::Array { .. } => top.hashed,
        // Keys and values alternate: `left` is even before a key.
        Container::Dictionary { .. } => top.left % 2 == 0 || top.hashed,
        Container::Object { .. } => false,
    }
}

/// Reads the property name at `pos`: the name, and where its value starts.
fn property_name(buf: &[u8], pos: usize, version: Version) -> Result<(String, usize)> {
    let (name, end) = read_string(buf, pos, version)?;
    Ok((text(&name)?, end))
}

/// A container about to be filled with `items` values (keys and values, for a dictionary),
/// sized for all of them (the value is valid: the count is true). `value_hashes` is the stack
/// its values' hashes go on, if they are wanted.
///
/// `header` is the container's header word: when its type bits say untyped, the type
/// information is not read again.
fn open(
    value: &VariantRef<'_>,
    items: u32,
    header: u32,
    version: Version,
    rules: KeyRules,
    value_hashes: &[u64],
) -> Result<Container> {
    let items_usize = usize::try_from(items).unwrap_or(usize::MAX);
    Ok(match value {
        VariantRef::Array(array) => {
            let element_type = if typed(header, version, 16) {
                ElementType::from_ref(&array.element_type()?)?
            } else {
                ElementType::Untyped
            };
            let array = Array { element_type, elements: Vec::with_capacity(items_usize) };
            Container::Array { array, running: array_start(items_usize) }
        }
        VariantRef::Dictionary(dictionary) => {
            let typed_dictionary = typed(header, version, 16) || typed(header, version, 18);
            let (key_type, value_type) = if typed_dictionary {
                (
                    ElementType::from_ref(&dictionary.key_type()?)?,
                    ElementType::from_ref(&dictionary.value_type()?)?,
                )
            } else {
                (ElementType::Untyped, ElementType::Untyped)
            };
            let dictionary =
                Dictionary::with_capacity(key_type, value_type, rules, items_usize / 2);
            Container::Dictionary { dictionary: Box::new(dictionary), base: value_hashes.len() }
        }
        VariantRef::Object(ObjectRef::Full(object)) => Container::Object {
            class: text(&object.class_name())?,
            properties: Vec::with_capacity(items_usize),
        },
        // parse_head gives Values and Properties extents to these three only.
        _ => Container::Array { array: Array::new(), running: NEVER },
    })
}

/// Whether the container header `header` carries type information at bit `shift` (a typed
/// array, or the key or value type of a typed dictionary).
fn typed(header: u32, version: Version, shift: u32) -> bool {
    kind_bits(version, header, shift) != 0
}

/// Puts `done`, a finished value whose hash is `hash` (if wanted), into the container `top`.
fn place(top: &mut Open, done: Variant, hash: u64, value_hashes: &mut Vec<u64>) {
    let hashed = top.hashed;
    let key_next = top.left % 2 == 0;
    match &mut top.container {
        Container::Array { array, running } => {
            array.elements.push(done);
            if hashed {
                *running = array_step(*running, hash);
            }
        }
        Container::Dictionary { dictionary, base } => {
            if key_next {
                dictionary.push_pending(done, hash);
                return;
            }
            match dictionary.settle(done) {
                Settled::Added => {
                    if hashed {
                        value_hashes.push(hash);
                    }
                }
                // A repeated key: the value it had goes (dropped without recursion).
                Settled::Replaced { position, old } => {
                    drop(old);
                    if let Some(slot) = value_hashes.get_mut(base.saturating_add(position)) {
                        *slot = hash;
                    }
                }
            }
        }
        Container::Object { properties, .. } => {
            if let Some((_, slot)) = properties.last_mut() {
                *slot = done;
            }
        }
    }
}

/// The value of a finished container, and its hash when it is wanted.
fn close(open: Open, rules: KeyRules, value_hashes: &mut Vec<u64>) -> (Variant, u64) {
    let Open { container, hashed, .. } = open;
    match container {
        Container::Array { array, running } => {
            (Variant::Array(array), if hashed { running } else { NEVER })
        }
        Container::Dictionary { dictionary, base } => {
            let hash = if hashed && !rules.godot3 {
                let values = value_hashes.get(base..).unwrap_or(&[]);
                dictionary_hash_of(&dictionary, values)
            } else {
                NEVER
            };
            if hashed {
                value_hashes.truncate(base);
            }
            (Variant::Dictionary(dictionary), hash)
        }
        Container::Object { class, properties } => {
            (Variant::Object(Object::Full { class, properties }), NEVER)
        }
    }
}

/// The hash of `dictionary`, whose values' hashes are `values` (see `key_hash.rs`).
fn dictionary_hash_of(dictionary: &Dictionary, values: &[u64]) -> u64 {
    if values.len() != dictionary.len() {
        return NEVER;
    }
    let mut sum = 0u64;
    for (&key, &value) in dictionary.key_hashes().iter().zip(values) {
        let Some(entry) = entry_hash(key, value) else {
            return NEVER;
        };
        sum = sum.wrapping_add(entry);
    }
    dictionary_hash(dictionary.len(), sum)
}

/// The owned text of a string.
fn text(s: &GdStr<'_>) -> Result<String> {
    s.to_str().map(String::from)
}

/// A NodePath or a PackedStringArray, read in one pass: the value and where it ends (its
/// counts are true: the value was validated).
fn strings(value: &VariantRef<'_>) -> Result<(Variant, usize)> {
    Ok(match value {
        VariantRef::NodePath(path) => {
            let mut all = path.all_strings();
            let name_count = path.name_count();
            let mut names = Vec::with_capacity(name_count);
            let mut subnames = Vec::with_capacity(path.subname_count());
            for (i, s) in all.by_ref().enumerate() {
                let s = text(&s?)?;
                if i < name_count {
                    names.push(s);
                } else {
                    subnames.push(s);
                }
            }
            let absolute = path.is_absolute();
            (Variant::NodePath(NodePath { names, subnames, absolute }), all.position())
        }
        VariantRef::PackedStringArray(strings) => {
            let mut all = strings.iter();
            let mut texts = Vec::with_capacity(strings.len());
            for s in all.by_ref() {
                texts.push(text(&s?)?);
            }
            (Variant::PackedStringArray(texts), all.position())
        }
        // parse_head gives a Strings extent to these two only.
        other => (leaf(other)?, 0),
    })
}

/// The owned form of a value with nothing inside it to walk.
fn leaf(value: &VariantRef<'_>) -> Result<Variant> {
    use Variant as V;
    use VariantRef as R;
    Ok(match *value {
        R::Nil => V::Nil,
        R::Bool(b) => V::Bool(b),
        R::Int(i) => V::Int(i),
        R::Float(f) => V::Float(f),
        R::String(s) => V::String(text(&s)?),
        R::StringName(s) => V::StringName(text(&s)?),
        R::Vector2(v) => V::Vector2(reals(&v)),
        R::Vector2i(v) => V::Vector2i(v),
        R::Rect2(v) => V::Rect2(reals(&v)),
        R::Rect2i(v) => V::Rect2i(v),
        R::Vector3(v) => V::Vector3(reals(&v)),
        R::Vector3i(v) => V::Vector3i(v),
        R::Transform2D(v) => V::Transform2D(Box::new(reals(&v))),
        R::Vector4(v) => V::Vector4(reals(&v)),
        R::Vector4i(v) => V::Vector4i(v),
        R::Plane(v) => V::Plane(reals(&v)),
        R::Quaternion(v) => V::Quaternion(reals(&v)),
        R::Aabb(v) => V::Aabb(Box::new(reals(&v))),
        R::Basis(v) => V::Basis(Box::new(reals(&v))),
        R::Transform3D(v) => V::Transform3D(Box::new(reals(&v))),
        R::Projection(v) => V::Projection(Box::new(reals(&v))),
        R::Color(c) => V::Color(c),
        R::Rid(id) => V::Rid(id.unwrap_or(0)),
        R::Object(ObjectRef::Null) => V::Object(Object::Null),
        R::Object(ObjectRef::Id(id)) => V::Object(Object::Id(id)),
        R::Callable => V::Callable,
        R::Signal(signal) => {
            V::Signal(Signal { name: text(&signal.name())?, object_id: signal.object_id() })
        }
        R::PackedByteArray(bytes) => V::PackedByteArray(bytes.to_vec()),
        R::PackedInt32Array(p) => V::PackedInt32Array(p.to_vec()),
        R::PackedInt64Array(p) => V::PackedInt64Array(p.to_vec()),
        R::PackedFloat32Array(p) => V::PackedFloat32Array(p.to_vec()),
        R::PackedFloat64Array(p) => V::PackedFloat64Array(p.to_vec()),
        R::PackedColorArray(p) => V::PackedColorArray(p.to_vec()),
        R::PackedVector2Array(p) => V::PackedVector2Array(packed_reals(&p, |v| v.map(widen_exact))),
        R::PackedVector3Array(p) => V::PackedVector3Array(packed_reals(&p, |v| v.map(widen_exact))),
        R::PackedVector4Array(p) => V::PackedVector4Array(packed_reals(&p, |v| v.map(widen_exact))),
        // Containers, full objects, NodePaths and PackedStringArrays hold more than their head;
        // `convert` reads them (this is reached only from `Variant::from_ref`, which sends
        // containers and full objects to `convert`).
        R::NodePath(_) | R::PackedStringArray(_) => strings(value)?.0,
        R::Array(_) | R::Dictionary(_) | R::Object(ObjectRef::Full(_)) => {
            return Variant::from_ref(value);
        }
    })
}

/// A real-valued math value with `f64` components, single-precision ones widened bit for bit.
fn reals<V: RealValue>(value: &Reals<'_, V>) -> V {
    match value.get_f32() {
        Some(single) => V::widen_exact(single),
        None => value.get(),
    }
}

/// The elements of a packed vector array with `f64` components.
fn packed_reals<S: PackedElement, D: PackedElement>(
    packed: &PackedReals<'_, S, D>,
    widen: impl Fn(S) -> D,
) -> Vec<D> {
    match packed {
        PackedReals::Single(p) => p.iter().map(widen).collect(),
        PackedReals::Double(p) => p.to_vec(),
    }
}
