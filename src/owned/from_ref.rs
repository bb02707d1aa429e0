//! Reading a whole value into a [`Variant`]: one iterative pass over the bytes.
//!
//! The pass reads each value's head with the same code as [`parse`](crate::parse) and keeps the
//! containers it is inside on a heap-allocated stack, so nesting costs no call stack; the depth
//! limit of the [`Options`] bounds that stack. It checks what [`validate`](crate::validate)
//! checks (strings are turned into `String`s, which checks their text). Nothing is reserved from
//! a declared count: containers grow as their elements arrive, so memory follows the bytes
//! actually present: at most about 100 bytes per input byte (a 4-byte `Nil` becomes a 64-byte
//! `Variant`, vectors grow by doubling, and deep nesting costs a container per 8 or 12 bytes;
//! `tests/hostile_alloc.rs` asserts 128 bytes per input byte plus 4 KiB).
//!
//! Stack: the conversion itself is iterative, but Godot 4 dictionaries used as dictionary keys
//! are hashed and compared by content, recursively through the key: a key nested 1024 levels
//! deep needs more than 256 KiB of stack in a release build, and more than 2 MiB in a debug
//! build. Decode untrusted Godot 4 input on a thread with a few MiB of stack (the main thread's
//! 8 MiB is plenty), or refuse dictionary keys that are containers before decoding.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::key_semantics::KeyRules;
use super::{Array, Dictionary, NodePath, Object, Signal, Variant};
use crate::ElementType;
use crate::element::Element;
use crate::error::{ErrorKind, Result};
use crate::exact_float::widen_exact;
use crate::math::{RealValue, Reals};
use crate::object::ObjectRef;
use crate::packed::{PackedElement, PackedReals};
use crate::string::{GdStr, read_string};
use crate::value::{Extent, VariantRef, parse_head};
use crate::walk::{Mode, check_script, walk};
use crate::wire::error_at;
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
/// assert_eq!(dictionary.get(&"a".into()), Some(&Variant::Int(2)));
/// # Ok::<(), gdvariant::Error>(())
/// ```
///
/// # Stack
/// Iterative, except that Godot 4 dictionaries used as dictionary keys are hashed through the
/// whole key: keys nested hundreds of levels deep need a few MiB of stack in a debug build (see
/// the README's Security section).
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
enum Open {
    Array {
        array: Array,
        left: u32,
    },
    /// `left` counts keys and values; `key` holds a key waiting for its value.
    Dictionary {
        dictionary: Dictionary,
        key: Option<Variant>,
        left: u32,
    },
    /// `name` is the name of the property whose value comes next.
    Object {
        class: String,
        properties: Vec<(String, Variant)>,
        name: String,
        left: u32,
    },
}

/// The conversion of the value whose header is at `pos`, at nesting `depth`.
///
/// A Godot 3 string outside Unicode stops the conversion where it is met, but Godot may still
/// refuse the value for a problem further on; the validating walk then gives that error, so the
/// result is `NotUnicode` only for values Godot accepts. (The walk runs on that error path
/// alone.)
fn convert(buf: &[u8], pos: usize, options: Options, depth: u16) -> Result<Variant> {
    convert_in_order(buf, pos, options, depth).map_err(|error| {
        if error.kind() != ErrorKind::NotUnicode {
            return error;
        }
        walk(buf, pos, options, depth, Mode::Validate).err().unwrap_or(error)
    })
}

/// [`convert`], stopping at the first problem met in byte order.
fn convert_in_order(buf: &[u8], pos: usize, options: Options, depth: u16) -> Result<Variant> {
    let version = options.version();
    let rules = KeyRules::of(version);
    let mut stack: Vec<Open> = Vec::new();
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
            Extent::Strings { .. } => strings(&value)?,
            Extent::Values { first, items } | Extent::Properties { first, count: items } => {
                let open = open(&value, items, rules)?;
                if items == 0 {
                    (close(open), first)
                } else {
                    stack.push(open);
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
                Open::Array { array, left } => {
                    array.elements.push(done);
                    left
                }
                Open::Dictionary { dictionary, key, left } => {
                    match key.take() {
                        None => *key = Some(done),
                        Some(key) => {
                            dictionary.insert(key, done);
                        }
                    }
                    left
                }
                Open::Object { properties, name, left, .. } => {
                    properties.push((core::mem::take(name), done));
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
            done = close(finished);
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

/// A container about to be filled with `items` values.
fn open(value: &VariantRef<'_>, items: u32, rules: KeyRules) -> Result<Open> {
    Ok(match value {
        VariantRef::Array(array) => Open::Array {
            array: Array::typed(ElementType::from_ref(&array.element_type()?)?),
            left: items,
        },
        VariantRef::Dictionary(dictionary) => Open::Dictionary {
            dictionary: Dictionary::with_rules(
                ElementType::from_ref(&dictionary.key_type()?)?,
                ElementType::from_ref(&dictionary.value_type()?)?,
                rules,
            ),
            key: None,
            left: items,
        },
        VariantRef::Object(ObjectRef::Full(object)) => Open::Object {
            class: text(&object.class_name())?,
            properties: Vec::new(),
            name: String::new(),
            left: items,
        },
        // parse_head gives Values and Properties extents to these three only.
        _ => Open::Array { array: Array::new(), left: 0 },
    })
}

/// The value of a finished container.
fn close(open: Open) -> Variant {
    match open {
        Open::Array { array, .. } => Variant::Array(array),
        Open::Dictionary { dictionary, .. } => Variant::from(dictionary),
        Open::Object { class, properties, .. } => {
            Variant::Object(Object::Full { class, properties })
        }
    }
}

/// The owned text of a string.
fn text(s: &GdStr<'_>) -> Result<String> {
    s.to_str().map(String::from)
}

/// A NodePath or a PackedStringArray, read in one pass: the value and where it ends.
fn strings(value: &VariantRef<'_>) -> Result<(Variant, usize)> {
    Ok(match value {
        VariantRef::NodePath(path) => {
            let mut all = path.all_strings();
            let mut names = Vec::new();
            for s in all.by_ref() {
                names.push(text(&s?)?);
            }
            let subnames = names.split_off(path.name_count().min(names.len()));
            let absolute = path.is_absolute();
            (Variant::NodePath(NodePath { names, subnames, absolute }), all.position())
        }
        VariantRef::PackedStringArray(strings) => {
            let mut all = strings.iter();
            let mut texts = Vec::new();
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
