//! The element type of a typed `Array` (Godot 4.3+) and the key and value types of a typed
//! `Dictionary` (Godot 4.4+).
//!
//! Header bits 16-17 (array elements, dictionary keys) and 18-19 (dictionary values) give a kind:
//! 0 untyped, 1 builtin (a u32 type id follows, which must name a Godot 4 type; `Nil` means
//! untyped), 2 class name (a
//! string follows), 3 script (a string follows: a `res://` path). The type information sits
//! between the header and the count, keys before values. Class names and script paths are
//! checked as text when the container is parsed (O(length)). Godot 3 has no typed containers and
//! ignores these bits.
//!
//! Without full objects Godot writes the class name `"EncodedObjectAsID"`, and its decoder
//! replaces any class name or script path with `"EncodedObjectAsID"`; this view shows the name on
//! the wire. With [`Options::allow_objects`](crate::Options::allow_objects) Godot does not check
//! class names, but a script path must start with `res://` ([`ErrorKind::InvalidContainerType`]
//! otherwise) and name a script the game has, which cannot be checked here.
//!
//! Godot also converts or drops elements that do not match a typed container's type (an `int`
//! in an `Array[float]` becomes a float, a `String` in an `Array[int]` is dropped, a typed
//! dictionary converts or drops its keys; values are never checked). This view shows the
//! elements as they are on the wire; [`ContainerType::admission`] says, per element type, what
//! Godot does, so a relay can refuse a typed container whose elements Godot would change, and
//! [`ContainerType::game_element`] (module [`game`](crate::game)) what the game holds of each
//! element.

use super::string::{GdStr, read_string};
use crate::wire::error::{ErrorKind, Result};
use crate::wire::options::{Options, Version};
use crate::wire::read::{error_at, u32_at};
use crate::wire::types::VariantType;

/// What a typed container declares about its elements (or keys, or values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContainerType<'a> {
    /// No constraint (`Array`, `Dictionary`, or a `Variant` key or value type).
    Untyped,
    /// A builtin type, such as `Array[int]`.
    Builtin(VariantType),
    /// Objects of a native or global class (`"EncodedObjectAsID"` without full objects).
    ClassName(GdStr<'a>),
    /// Objects with a script, named by its `res://` path.
    Script(GdStr<'a>),
}

/// What Godot's decoder does with an element of some type in a typed container (Godot 4.3+):
/// `Array.push_back` and the typed dictionary's key check run on every decoded element or key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Admission {
    /// The element is stored as it is.
    Keep,
    /// The element is converted to the container's type (an `int` in `Array[float]` becomes a
    /// float, a `String` in `Array[StringName]` a StringName, ...).
    Convert,
    /// The element is left out (Godot logs an error and decoding goes on): the decoded
    /// container is shorter than the wire count.
    Drop,
    /// An object in a class- or script-typed container with full objects allowed: kept if its
    /// class inherits from the declared class (or script), which depends on the game.
    ClassCheck,
}

impl ContainerType<'_> {
    /// What Godot's decoder does with an element (array) or key (dictionary) of type `element`
    /// in a container of this type. Dictionary values are never checked: they are always
    /// [`Admission::Keep`]. The answer depends on the two types only, never on the value. O(1).
    ///
    /// The table was taken from Godot 4.6 by decoding every pair of types (`corpus/probes/typed`).
    pub fn admission(&self, element: VariantType, allow_objects: bool) -> Admission {
        match *self {
            ContainerType::Untyped => Admission::Keep,
            ContainerType::Builtin(declared) => builtin_admission(declared, element),
            ContainerType::ClassName(_) | ContainerType::Script(_) => {
                class_admission(element, allow_objects)
            }
        }
    }
}

/// What Godot does with an element of type `element` in a container of builtin type `declared`
/// (see [`ContainerType::admission`]).
pub(crate) fn builtin_admission(declared: VariantType, element: VariantType) -> Admission {
    use VariantType as T;
    if element == declared || declared == T::Nil || (declared == T::Object && element == T::Nil) {
        return Admission::Keep;
    }
    let converts = match declared {
        T::Bool => matches!(element, T::Int | T::Float),
        T::Int => matches!(element, T::Bool | T::Float),
        T::Float => matches!(element, T::Bool | T::Int),
        T::String => matches!(element, T::StringName | T::NodePath),
        T::StringName | T::NodePath => element == T::String,
        T::Vector2 => element == T::Vector2i,
        T::Vector2i => element == T::Vector2,
        T::Rect2 => element == T::Rect2i,
        T::Rect2i => element == T::Rect2,
        T::Vector3 => element == T::Vector3i,
        T::Vector3i => element == T::Vector3,
        T::Vector4 => element == T::Vector4i,
        T::Vector4i => element == T::Vector4,
        T::Transform2D => element == T::Transform3D,
        T::Quaternion => element == T::Basis,
        T::Basis => element == T::Quaternion,
        T::Transform3D => {
            matches!(element, T::Transform2D | T::Quaternion | T::Basis | T::Projection)
        }
        T::Projection => element == T::Transform3D,
        T::Color => matches!(element, T::Int | T::String),
        T::Rid => element == T::Object,
        T::Array => is_packed(element),
        packed if is_packed(packed) => element == T::Array,
        _ => false,
    };
    if converts { Admission::Convert } else { Admission::Drop }
}

/// What Godot does with an element of type `element` in a class- or script-typed container (see
/// [`ContainerType::admission`]).
pub(crate) fn class_admission(element: VariantType, allow_objects: bool) -> Admission {
    match element {
        VariantType::Nil => Admission::Keep,
        // Without full objects, elements are instance ids and the class is EncodedObjectAsID,
        // which they are.
        VariantType::Object if !allow_objects => Admission::Keep,
        VariantType::Object => Admission::ClassCheck,
        _ => Admission::Drop,
    }
}

/// Whether `ty` is a packed array type.
pub(crate) fn is_packed(ty: VariantType) -> bool {
    use VariantType as T;
    matches!(
        ty,
        T::PackedByteArray
            | T::PackedInt32Array
            | T::PackedInt64Array
            | T::PackedFloat32Array
            | T::PackedFloat64Array
            | T::PackedStringArray
            | T::PackedVector2Array
            | T::PackedVector3Array
            | T::PackedColorArray
            | T::PackedVector4Array
    )
}

/// Reads type information of `kind` (the 2-bit field of the header) at `pos`; returns it and the
/// position after it.
pub(crate) fn read_container_type(
    buf: &[u8],
    pos: usize,
    kind: u32,
    options: Options,
) -> Result<(ContainerType<'_>, usize)> {
    let version = options.version();
    match kind & 0b11 {
        0 => Ok((ContainerType::Untyped, pos)),
        1 => {
            let id = u32_at(buf, pos)?;
            let ty = match VariantType::from_id(version, id) {
                // Godot types a container with NIL as "any Variant": untyped.
                Some(VariantType::Nil) => ContainerType::Untyped,
                Some(ty) => ContainerType::Builtin(ty),
                None => return Err(error_at(buf, pos, ErrorKind::InvalidContainerType)),
            };
            Ok((ty, pos.saturating_add(4)))
        }
        2 => {
            let (name, end) = read_string(buf, pos, version)?;
            name.check()?;
            Ok((ContainerType::ClassName(name), end))
        }
        _ => {
            let (path, end) = read_string(buf, pos, version)?;
            path.check()?;
            if options.allow_objects() && !is_resource_path(&path) {
                return Err(error_at(buf, pos, ErrorKind::InvalidContainerType));
            }
            Ok((ContainerType::Script(path), end))
        }
    }
}

/// Whether Godot's text of `path` starts with `res://`. O(1).
pub(crate) fn is_resource_path(path: &GdStr<'_>) -> bool {
    let raw = path.raw_bytes();
    let raw = raw.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(raw);
    // A NUL inside the first six bytes would make the text shorter than "res://".
    raw.starts_with(b"res://")
}

/// The kind bits of a Godot 4 typed container, or 0 in Godot 3.
pub(crate) fn kind_bits(version: Version, header: u32, shift: u32) -> u32 {
    match version {
        Version::Godot3 => 0,
        Version::Godot4 => (header >> shift) & 0b11,
    }
}
