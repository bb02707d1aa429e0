//! Reading a whole value into a [`Variant`]: one iterative pass over the bytes.
//!
//! The pass reads each value's head with the same code as [`parse`](crate::parse) and keeps the
//! containers it is inside on a heap-allocated stack, so nesting costs no call stack; the depth
//! limit of the [`Options`] bounds that stack. It checks what [`validate`](crate::validate)
//! checks (strings are turned into `String`s, which checks their text).
//!
//! Memory: every container is sized once, from its declared count capped by what the bytes
//! left can hold (an element takes at least 4 input bytes, a dictionary entry or an object
//! property 8), after counting the elements still owed to the containers around it, which take
//! bytes of their own. A valid input gets exact sizes; a lying count, however deeply nested,
//! reserves no more than the input could fill. So memory follows the bytes present: flat data
//! costs at most about 30 bytes per input byte (an array of 4-byte `Nil`s, 16: each becomes a
//! 64-byte `Variant`), deep nesting more, as every level of 8 or 12 bytes is a container (about
//! 62 bytes per input byte measured for 1025 levels); `tests/hostile_alloc.rs` asserts 128
//! bytes per input byte plus 4 KiB.
//!
//! Stack: nothing recurses. Godot 4 dictionary keys are hashed and compared by content with
//! heap-allocated stacks too (see `key_semantics.rs`), and the values the pass drops itself (a
//! repeated key, a replaced value, what was read before a problem) are taken apart
//! iteratively. Dropping the returned value is the caller's, and recursive, as for any nested
//! Rust value.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::key_semantics::KeyRules;
use super::variant::dispose;
use super::{Array, Dictionary, NodePath, Object, Signal, Variant};
use crate::ElementType;
use crate::view::container_type::kind_bits;
use crate::view::element::Element;
use crate::view::math::{RealValue, Reals};
use crate::view::object::ObjectRef;
use crate::view::packed::{PackedElement, PackedReals};
use crate::view::string::{GdStr, read_string};
use crate::view::value::{Extent, VariantRef, parse_head};
use crate::view::walk::{Mode, check_script, walk};
use crate::wire::error::{ErrorKind, Result};
use crate::wire::exact_float::widen_exact;
use crate::wire::read::{error_at, remaining, u32_at};
use crate::{Options, Version};

/// Reads the whole value at the start of `bytes` into an owned [`Variant`]. O(n); allocates.
/// Trailing bytes are ignored, as in Godot.
///
/// Accepts what [`validate`](crate::validate) accepts, except Godot 3 strings that hold code
/// points Rust's `str` cannot carry ([`ErrorKind::NotUnicode`]).
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
/// assert_eq!(dictionary.get("a"), Some(&Variant::Int(2)));
/// # Ok::<(), gdvariant::Error>(())
/// ```
///
/// # Stack
/// Iterative: a small fixed stack decodes the deepest values Godot accepts (the tests use
/// 256 KiB), Godot 4 dictionaries nested as dictionary keys included. Dropping the returned
/// value is recursive, as for any nested Rust value: drop values nested hundreds of levels deep
/// on a thread with enough stack (see the README's Security section).
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

/// A container being filled.
///
/// `reserved` counts the slots reserved ahead for elements (dictionary entries, properties) not
/// read yet; see [`Reserved`].
enum Open {
    Array {
        array: Array,
        left: u32,
        reserved: usize,
    },
    /// `left` counts keys and values; `key` holds a key waiting for its value.
    Dictionary {
        dictionary: Dictionary,
        key: Option<Variant>,
        left: u32,
        reserved: usize,
    },
    /// `name` is the name of the property whose value comes next.
    Object {
        class: String,
        properties: Vec<(String, Variant)>,
        name: String,
        left: u32,
        reserved: usize,
    },
}

/// The fewest bytes an array element takes on the wire (a header).
const ELEMENT_BYTES: usize = 4;
/// The fewest bytes a dictionary entry or an object property takes (two headers, or a name's
/// length field and a header).
const ENTRY_BYTES: usize = 8;

/// The room reserved ahead in open containers for elements not read yet, in the fewest input
/// bytes those elements can take.
///
/// Containers reserve room for their declared count, but only as much as the input bytes left
/// can hold once the elements already promised to the containers around them are counted:
/// every element yet to come takes its own input bytes after the current position. A valid
/// input gets every container sized exactly once; a lying count gets no more than the bytes
/// present can fill, however deep the lie is nested.
#[derive(Default)]
struct Reserved {
    bytes: usize,
}

impl Reserved {
    /// How many of `count` elements of at least `size` bytes to reserve room for, when the input
    /// has `left` bytes after the container's head; counts them as reserved.
    fn take(&mut self, count: usize, size: usize, left: usize) -> usize {
        let room = left.saturating_sub(self.bytes).checked_div(size).unwrap_or(0);
        let slots = count.min(room);
        self.bytes = self.bytes.saturating_add(slots.saturating_mul(size));
        slots
    }

    /// One element of a container with `reserved` slots left has been read.
    fn fill(&mut self, reserved: &mut usize, size: usize) {
        if *reserved > 0 {
            *reserved = reserved.saturating_sub(1);
            self.bytes = self.bytes.saturating_sub(size);
        }
    }

    /// A container closes with `reserved` slots unused (none for a valid input).
    fn release(&mut self, reserved: usize, size: usize) {
        self.bytes = self.bytes.saturating_sub(reserved.saturating_mul(size));
    }
}

/// The conversion of the value whose header is at `pos`, at nesting `depth`.
///
/// A Godot 3 string outside Unicode stops the conversion where it is met, but Godot may still
/// refuse the value for a problem further on; the validating walk then gives that error, so the
/// result is `NotUnicode` only for values Godot accepts. (The walk runs on that error path
/// alone.)
fn convert(buf: &[u8], pos: usize, options: Options, depth: u16) -> Result<Variant> {
    let mut stack = Vec::new();
    let converted = convert_in_order(buf, pos, options, depth, &mut stack);
    // What was read before a problem goes without recursion.
    while let Some(open) = stack.pop() {
        discard(open);
    }
    converted.map_err(|error| {
        if error.kind() != ErrorKind::NotUnicode {
            return error;
        }
        walk(buf, pos, options, depth, Mode::Validate).err().unwrap_or(error)
    })
}

/// [`convert`], stopping at the first problem met in byte order.
///
/// `stack` holds the containers open around the current value (empty at the start, and at the
/// end of a success): left there when a problem stops the conversion.
fn convert_in_order(
    buf: &[u8],
    pos: usize,
    options: Options,
    depth: u16,
    stack: &mut Vec<Open>,
) -> Result<Variant> {
    let version = options.version();
    let mut reserved = Reserved::default();
    let mut pos = pos;
    let mut depth = depth;
    // The next value is a Godot 4 `script` property.
    let mut script = false;
    loop {
        let (value, extent) = parse_head(buf, pos, options, depth)?;
        // A `script` value is checked after its own text, in the order validate checks them.
        if script && !matches!(extent, Extent::End(_)) {
            check_script(buf, pos, &value)?;
        }
        let (mut done, end) = match extent {
            Extent::End(end) => {
                let done = leaf(&value)?;
                if script {
                    check_script(buf, pos, &value)?;
                }
                (done, end)
            }
            Extent::Strings { first, count } => {
                let left = remaining(buf, first).saturating_sub(reserved.bytes);
                let room = usize::try_from(count).unwrap_or(usize::MAX).min(left / 4);
                strings(&value, room)?
            }
            Extent::Values { first, items } | Extent::Properties { first, count: items } => {
                let header = u32_at(buf, pos)?;
                if items == 0 {
                    (
                        close(open(&value, 0, header, version, &mut reserved, 0)?, &mut reserved),
                        first,
                    )
                } else {
                    let left = remaining(buf, first);
                    stack.push(open(&value, items, header, version, &mut reserved, left)?);
                    depth = depth.saturating_add(1);
                    pos = first;
                    if let Some(Open::Object { name, .. }) = stack.last_mut() {
                        (*name, pos, script) = property_name(buf, pos, version)?;
                    }
                    continue;
                }
            }
        };
        pos = end;
        script = false;
        // Hand the finished value to the container it belongs to, closing every container it
        // completes.
        loop {
            let Some(top) = stack.last_mut() else {
                return Ok(done);
            };
            let left = match top {
                Open::Array { array, left, reserved: slots } => {
                    array.elements.push(done);
                    reserved.fill(slots, ELEMENT_BYTES);
                    left
                }
                Open::Dictionary { dictionary, key, left, reserved: slots } => {
                    match key.take() {
                        None => *key = Some(done),
                        Some(key) => {
                            // A repeated key: the value it had goes.
                            if let Some(replaced) = dictionary.insert(key, done) {
                                dispose(replaced);
                            }
                            reserved.fill(slots, ENTRY_BYTES);
                        }
                    }
                    left
                }
                Open::Object { properties, name, left, reserved: slots, .. } => {
                    properties.push((core::mem::take(name), done));
                    reserved.fill(slots, ENTRY_BYTES);
                    left
                }
            };
            *left = left.saturating_sub(1);
            if *left > 0 {
                if let Open::Object { name, .. } = top {
                    (*name, pos, script) = property_name(buf, pos, version)?;
                }
                break;
            }
            let Some(finished) = stack.pop() else {
                return Err(error_at(buf, pos, ErrorKind::DepthLimit));
            };
            done = close(finished, &mut reserved);
            depth = depth.saturating_sub(1);
        }
    }
}

/// Reads the property name at `pos`: the name, where its value starts, and whether that value
/// is a Godot 4 `script` property.
fn property_name(buf: &[u8], pos: usize, version: Version) -> Result<(String, usize, bool)> {
    let (name, end) = read_string(buf, pos, version)?;
    let name = text(&name)?;
    let script = version == Version::Godot4 && name == "script";
    Ok((name, end, script))
}

/// A container about to be filled with `items` values (keys and values, for a dictionary), with
/// room reserved for as many as `reserved` allows when `left` input bytes follow its head.
///
/// `header` is the container's header word: when its type bits say untyped, the type
/// information is not read again.
fn open(
    value: &VariantRef<'_>,
    items: u32,
    header: u32,
    version: Version,
    reserved: &mut Reserved,
    left: usize,
) -> Result<Open> {
    let rules = KeyRules::of(version);
    let items_usize = usize::try_from(items).unwrap_or(usize::MAX);
    Ok(match value {
        VariantRef::Array(array) => {
            let element_type = if typed(header, version, 16) {
                ElementType::from_ref(&array.element_type()?)?
            } else {
                ElementType::Untyped
            };
            let slots = reserved.take(items_usize, ELEMENT_BYTES, left);
            let mut array = Array::typed(element_type);
            array.elements.reserve_exact(slots);
            Open::Array { array, left: items, reserved: slots }
        }
        VariantRef::Dictionary(dictionary) => {
            let mut dictionary = if typed(header, version, 16) || typed(header, version, 18) {
                Dictionary::with_rules(
                    ElementType::from_ref(&dictionary.key_type()?)?,
                    ElementType::from_ref(&dictionary.value_type()?)?,
                    rules,
                )
            } else {
                Dictionary::with_rules(ElementType::Untyped, ElementType::Untyped, rules)
            };
            let slots = reserved.take(items_usize / 2, ENTRY_BYTES, left);
            dictionary.reserve_exact(slots);
            Open::Dictionary { dictionary, key: None, left: items, reserved: slots }
        }
        VariantRef::Object(ObjectRef::Full(object)) => {
            let class = text(&object.class_name())?;
            let slots = reserved.take(items_usize, ENTRY_BYTES, left);
            Open::Object {
                class,
                properties: Vec::with_capacity(slots),
                name: String::new(),
                left: items,
                reserved: slots,
            }
        }
        // parse_head gives Values and Properties extents to these three only.
        _ => Open::Array { array: Array::new(), left: 0, reserved: 0 },
    })
}

/// Whether the container header `header` carries type information at bit `shift` (a typed
/// array, or the key or value type of a typed dictionary).
fn typed(header: u32, version: Version, shift: u32) -> bool {
    kind_bits(version, header, shift) != 0
}

/// Drops a container left open by a problem, and what it holds, without recursion.
fn discard(open: Open) {
    match open {
        Open::Array { array, .. } => dispose(Variant::Array(array)),
        Open::Dictionary { dictionary, key, .. } => {
            if let Some(key) = key {
                dispose(key);
            }
            for (key, value) in dictionary.into_entries() {
                dispose(key);
                dispose(value);
            }
        }
        Open::Object { properties, .. } => {
            for (_, value) in properties {
                dispose(value);
            }
        }
    }
}

/// The value of a finished container.
fn close(open: Open, reserved: &mut Reserved) -> Variant {
    match open {
        Open::Array { array, reserved: slots, .. } => {
            reserved.release(slots, ELEMENT_BYTES);
            Variant::Array(array)
        }
        Open::Dictionary { dictionary, reserved: slots, .. } => {
            reserved.release(slots, ENTRY_BYTES);
            Variant::from(dictionary)
        }
        Open::Object { class, properties, reserved: slots, .. } => {
            reserved.release(slots, ENTRY_BYTES);
            Variant::Object(Object::Full { class, properties })
        }
    }
}

/// The owned text of a string.
fn text(s: &GdStr<'_>) -> Result<String> {
    s.to_str().map(String::from)
}

/// A NodePath or a PackedStringArray, read in one pass: the value and where it ends. `room` is
/// how many strings the bytes left can hold (4 bytes each at least), once the elements owed to
/// the containers around are counted.
fn strings(value: &VariantRef<'_>, room: usize) -> Result<(Variant, usize)> {
    Ok(match value {
        VariantRef::NodePath(path) => {
            let mut all = path.all_strings();
            let name_count = path.name_count();
            let mut names = Vec::with_capacity(name_count.min(room));
            let mut subnames = Vec::new();
            for (i, s) in all.by_ref().enumerate() {
                let s = text(&s?)?;
                if i < name_count {
                    names.push(s);
                } else {
                    if subnames.capacity() == 0 {
                        subnames.reserve_exact(room.saturating_sub(i));
                    }
                    subnames.push(s);
                }
            }
            let absolute = path.is_absolute();
            (Variant::NodePath(NodePath { names, subnames, absolute }), all.position())
        }
        VariantRef::PackedStringArray(strings) => {
            let mut all = strings.iter();
            let mut texts = Vec::with_capacity(strings.len().min(room));
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
        R::NodePath(_) | R::PackedStringArray(_) => strings(value, 0)?.0,
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
