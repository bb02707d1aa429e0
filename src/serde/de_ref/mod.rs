//! The struct-mapping deserializer: Godot values read into your own types, straight from the
//! buffer.
//!
//! This file holds the entry points (`from_bytes`, `from_variant_ref`, [`VariantDeserializer`]),
//! the places a value is read from (`Place`: the tape of a whole value, or a lone value) and the
//! helpers of text, node paths and error paths; `value.rs` the `Deserializer` of a value,
//! `access.rs` the accessors of arrays, dictionaries and objects, `packed.rs` packed arrays,
//! `enums.rs` enums.

use alloc::borrow::Cow;
use alloc::string::{String, ToString};

use ::serde::de::value::{
    BorrowedStrDeserializer, F32Deserializer, F64Deserializer, I32Deserializer, I64Deserializer,
    StringDeserializer, U8Deserializer, U32Deserializer,
};
use ::serde::de::{
    Deserialize, DeserializeSeed, Deserializer, EnumAccess, Error as _, MapAccess, SeqAccess,
    Unexpected, VariantAccess, Visitor,
};

use super::de_game::{
    Converted, GameEntriesAccess, checked_type, converted, game_entries, game_enum, game_key_type,
};
use super::de_math::{Leaf, Part, PartDeserializer, part_of};
use super::error::{DeError, PathSegment};
use super::raw::{self, RAW, RawAccess, RawBytes};
use super::small_map::{SMALL, SmallEntries, SmallRoot};
use super::source::{Entries, Kids, Properties, Source};
use crate::game::GameElement;
use crate::view::math::{Color, Vector2, Vector3, Vector4};
use crate::view::packed::PackedStringsIter;
use crate::view::tape::Part as TapePart;
use crate::{
    Options, VariantRef, Version, packed::Packed, packed::PackedReals, view::ContainerType,
    view::Element, view::GdStr, view::NodePathRef, view::ObjectRef,
};

mod access;
mod enums;
mod packed;
mod value;

use access::*;
use enums::*;
use packed::*;
pub(super) use value::{Value, on};

/// Deserializes a `T` from a lazily read value, borrowing strings and byte arrays from the
/// buffer (`&'de str` and `&'de [u8]` fields cost no copy).
///
/// Only what `T` asks for is read, and checked as it is read: a malformed element, or a string
/// that is not text, is an error when it is reached; parts `T` ignores are only walked over.
/// Use [`from_bytes`] to check the whole input first, as Godot does.
///
/// Cost: a container is read onto a tape first (one pass up to its end or its first structural
/// problem, 24 bytes per part), then visited; O(n log n) in all, whatever the nesting (see the
/// [module docs](crate::serde)).
///
/// See the [module docs](crate::serde) for how Godot values map onto Rust types.
///
/// # Errors
/// A value of the wrong type for `T`, a missing field, an integer out of range, a malformed
/// element that `T` reaches: a [`DeError`] naming the path to the value and its byte offset.
pub fn from_variant_ref<'de, T: Deserialize<'de>>(value: VariantRef<'de>) -> Result<T, DeError> {
    T::deserialize(VariantDeserializer::new(value))
}

/// Checks `bytes` as Godot does ([`validate`](crate::validate)), then deserializes a `T` from
/// the value they hold, borrowing strings and byte arrays from `bytes`. Bytes after the value
/// are ignored, as in Godot.
///
/// A dictionary of at most 16 entries whose keys are strings and whose values hold no other
/// value (what most packets are) is checked as it is read, in one pass: it is accepted exactly
/// when `validate` accepts it, and a problem is reported as `validate` reports it.
///
/// Cost: `validate`'s pass, then O(n log n) whatever the nesting (see [`from_variant_ref`]);
/// memory: a tape of 24 bytes per part once a container is met. A [`Variant`](crate::Variant)
/// (the whole value or a field) is decoded instead, in one iterative pass. Stack: what `T`'s
/// recursion takes, one level of it per level of the value it reads (none for a `Variant`),
/// plus about 2.5 KiB for the entries of a small dictionary read in one pass (no tape then).
///
/// ```
/// use gdvariant::{EncodeOptions, Options, Writer};
/// use gdvariant::math::Vector2;
/// use serde::Deserialize;
///
/// #[derive(Deserialize)]
/// struct Move<'a> {
///     player: &'a str,
///     pos: Vector2<f32>,
///     seq: u32,
/// }
///
/// // {"player": "ana", "pos": Vector2(1.5, -2), "seq": 7}, as Godot 4 writes it.
/// let mut writer = Writer::new(Vec::new(), EncodeOptions::godot4());
/// writer.begin_dictionary(3)?;
/// writer.string("player")?;
/// writer.string("ana")?;
/// writer.string("pos")?;
/// writer.vector2(Vector2 { x: 1.5f32, y: -2.0 })?;
/// writer.string("seq")?;
/// writer.int(7)?;
/// let bytes = writer.finish()?;
///
/// let m: Move<'_> = gdvariant::serde::from_bytes(&bytes, Options::godot4())?;
/// assert_eq!((m.player, m.pos, m.seq), ("ana", Vector2 { x: 1.5, y: -2.0 }, 7));
/// // `player` points into `bytes`: nothing was copied.
/// assert!(bytes.as_ptr_range().contains(&m.player.as_ptr()));
///
/// // Errors name the field and the byte offset of the value.
/// let wrong = gdvariant::serde::from_bytes::<Move<'_>>(&bytes[..bytes.len() - 4], Options::godot4());
/// assert!(wrong.is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// A malformed input (the [`validate`](crate::validate) error, with its offset, through
/// [`DeError::decode_error`]), or anything [`from_variant_ref`] reports.
pub fn from_bytes<'de, T: Deserialize<'de>>(
    bytes: &'de [u8],
    options: Options,
) -> Result<T, DeError> {
    let element = Element::new(bytes, 0, bytes.len(), options, 0);
    // A small dictionary of leaves (most packets) is checked as it is read: one pass, not two.
    if let Ok(VariantRef::Dictionary(dictionary)) = crate::parse(bytes, options) {
        if dictionary.len() <= SMALL {
            let mut small = SmallEntries::new(&dictionary);
            if let Ok(true) = small.fill::<true>(&dictionary) {
                let de = VariantDeserializer {
                    value: VariantRef::Dictionary(dictionary),
                    offset: Some(0),
                    element: Some(element),
                };
                return T::deserialize(SmallRoot { entries: &mut small, de });
            }
        }
    }
    // Anything else, or a problem (whose error is `validate`'s, in byte order).
    crate::validate(bytes, options)?;
    let value = crate::parse(bytes, options)?;
    T::deserialize(VariantDeserializer { value, offset: Some(0), element: Some(element) })
}

/// A [`serde::Deserializer`](::serde::Deserializer) over one lazily read value: what
/// [`from_variant_ref`] and [`from_bytes`] run. Useful as a `DeserializeSeed` target or to
/// deserialize container elements one at a time. `Copy`, O(1) to make.
#[derive(Clone, Copy, Debug)]
pub struct VariantDeserializer<'de> {
    value: VariantRef<'de>,
    /// The absolute offset of the value's header, when known.
    offset: Option<usize>,
    /// Where the value sits, when known.
    element: Option<Element<'de>>,
}

impl<'de> VariantDeserializer<'de> {
    /// A deserializer over `value`. Errors carry the value's offset when it is a container or a
    /// string (a scalar does not know where it sits; its elements always do).
    pub fn new(value: VariantRef<'de>) -> Self {
        let offset = match value {
            VariantRef::Array(array) => Some(array.offset()),
            VariantRef::Dictionary(dictionary) => Some(dictionary.offset()),
            VariantRef::Object(ObjectRef::Full(object)) => Some(object.origin().1),
            // The text follows the header and the length.
            VariantRef::String(s) | VariantRef::StringName(s) => s.offset().checked_sub(8),
            _ => None,
        };
        VariantDeserializer { value, offset, element: None }
    }

    /// A deserializer over a container element; errors carry its offset.
    pub fn from_element(element: &Element<'de>) -> Self {
        VariantDeserializer {
            value: element.value(),
            offset: Some(element.offset()),
            element: Some(*element),
        }
    }

    /// The value, where it sits.
    fn reader(self) -> Value<Self> {
        Value(self)
    }

    /// A deserializer over an element whose value has been read already.
    pub(super) fn of_read(element: Element<'de>, value: VariantRef<'de>) -> Self {
        VariantDeserializer { value, offset: Some(element.offset()), element: Some(element) }
    }
}

/// Where a value read by [`Value`] sits, and what it is.
pub(super) trait Place<'de>: Copy {
    /// The value.
    fn value(&self) -> VariantRef<'de>;
    /// The absolute offset of its header, when known.
    fn offset(&self) -> Option<usize>;
    /// Runs `f` on this container on a tape: its own, or one read now.
    fn taped<R>(
        self,
        f: impl FnOnce(&Source<'de>, TapePart<'_, 'de>) -> Result<R, DeError>,
    ) -> Result<R, DeError>;
    /// The buffer, offset, options and depth of the value, when known.
    fn origin(&self) -> Option<(&'de [u8], usize, Options, u16)>;
    /// Whether the value is read from its own bytes rather than from a tape (where its
    /// children are at hand already).
    fn untaped(&self) -> bool {
        false
    }
}

/// A part of a tape: what every level below the first is read as, so it is small.
#[derive(Clone, Copy)]
pub(super) struct OnTape<'s, 'de> {
    source: &'s Source<'de>,
    index: u32,
}

impl<'s, 'de> OnTape<'s, 'de> {
    fn part(&self) -> TapePart<'s, 'de> {
        self.source.part(self.index)
    }
}

impl<'de> Place<'de> for OnTape<'_, 'de> {
    fn value(&self) -> VariantRef<'de> {
        self.part().value()
    }

    fn offset(&self) -> Option<usize> {
        Some(self.part().offset())
    }

    fn taped<R>(
        self,
        f: impl FnOnce(&Source<'de>, TapePart<'_, 'de>) -> Result<R, DeError>,
    ) -> Result<R, DeError> {
        f(self.source, self.part())
    }

    fn origin(&self) -> Option<(&'de [u8], usize, Options, u16)> {
        Some(self.part().element().origin())
    }
}

impl<'de> Place<'de> for VariantDeserializer<'de> {
    fn value(&self) -> VariantRef<'de> {
        self.value
    }

    fn untaped(&self) -> bool {
        true
    }

    fn offset(&self) -> Option<usize> {
        self.offset
    }

    fn taped<R>(
        self,
        f: impl FnOnce(&Source<'de>, TapePart<'_, 'de>) -> Result<R, DeError>,
    ) -> Result<R, DeError> {
        let source = match self.element {
            Some(element) => Source::of_element(&element),
            None => Source::of_container(self.value)
                .ok_or_else(|| DeError::custom("a container without its bytes"))?,
        };
        f(&source, source.root())
    }

    fn origin(&self) -> Option<(&'de [u8], usize, Options, u16)> {
        if let Some(element) = self.element {
            return Some(element.origin());
        }
        let (scope, header) = match self.value {
            VariantRef::Array(array) => array.origin(),
            VariantRef::Dictionary(dictionary) => dictionary.origin(),
            VariantRef::Object(ObjectRef::Full(object)) => object.origin(),
            _ => return None,
        };
        Some((scope.buf, header, scope.options, scope.depth))
    }
}

impl<'de> Deserializer<'de> for VariantDeserializer<'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.reader().deserialize_any(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.reader().deserialize_map(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.reader().deserialize_struct(name, fields, visitor)
    }

    forward_but_maps!(reader);
}

/// The text the game reads from `s`, visited borrowed from the buffer when it is there (standard
/// UTF-8), owned when a Godot 3 string spells it with overlong forms (so a `&str` target is
/// refused then, and a `String` one reads it).
fn visit_text<'de, V: Visitor<'de>>(visitor: V, s: &GdStr<'de>) -> Result<V::Value, DeError> {
    match s.to_text()? {
        Cow::Borrowed(text) => visitor.visit_borrowed_str(text),
        Cow::Owned(text) => visitor.visit_string(text),
    }
}

/// [`visit_text`] for a seed (map keys, field names, packed strings).
fn text_seed<'de, T: DeserializeSeed<'de>>(seed: T, s: &GdStr<'de>) -> Result<T::Value, DeError> {
    match s.to_text()? {
        Cow::Borrowed(text) => seed.deserialize(BorrowedStrDeserializer::new(text)),
        Cow::Owned(text) => seed.deserialize(StringDeserializer::new(text)),
    }
}

/// A NodePath as its text; borrowed when it is a single relative name.
fn node_path<'de, V: Visitor<'de>>(
    path: NodePathRef<'de>,
    visitor: V,
) -> Result<V::Value, DeError> {
    if !path.is_absolute() && path.name_count() == 1 && path.subname_count() == 0 {
        if let Some(name) = path.names().next() {
            return visit_text(visitor, &name?);
        }
    }
    visitor.visit_string(path.to_text()?)
}

/// What a value is, for "invalid type" messages.
fn unexpected<'de>(value: &VariantRef<'de>) -> Unexpected<'de> {
    use VariantRef as R;
    match *value {
        R::Nil | R::Object(ObjectRef::Null) => Unexpected::Unit,
        R::Bool(b) => Unexpected::Bool(b),
        R::Int(i) => Unexpected::Signed(i),
        R::Float(f) => Unexpected::Float(f),
        R::String(s) | R::StringName(s) => match s.to_str() {
            Ok(text) => Unexpected::Str(text),
            Err(_) => Unexpected::Other("string"),
        },
        R::Object(ObjectRef::Id(id)) => Unexpected::Unsigned(id),
        R::Dictionary(_) | R::Object(ObjectRef::Full(_)) => Unexpected::Map,
        R::PackedByteArray(bytes) => Unexpected::Bytes(bytes),
        R::Array(_)
        | R::PackedInt32Array(_)
        | R::PackedInt64Array(_)
        | R::PackedFloat32Array(_)
        | R::PackedFloat64Array(_)
        | R::PackedStringArray(_)
        | R::PackedVector2Array(_)
        | R::PackedVector3Array(_)
        | R::PackedVector4Array(_)
        | R::PackedColorArray(_) => Unexpected::Seq,
        other => Unexpected::Other(other.variant_type().name(Version::Godot4)),
    }
}

/// How a dictionary key appears in a path.
pub(super) fn key_segment(key: &Element<'_>) -> PathSegment {
    match key.value() {
        VariantRef::String(s) | VariantRef::StringName(s) => {
            PathSegment::Field(s.to_string_lossy().into_owned())
        }
        VariantRef::Int(i) => PathSegment::Key(i.to_string()),
        VariantRef::Bool(b) => PathSegment::Key(b.to_string()),
        VariantRef::Float(f) => PathSegment::Key(f.to_string()),
        VariantRef::Nil => PathSegment::Key(String::from("null")),
        other => PathSegment::Key(String::from(other.variant_type().name(Version::Godot4))),
    }
}
