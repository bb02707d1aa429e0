//! The struct-mapping deserializer: Godot values read into your own types, straight from the
//! buffer.

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
use super::small_map::{SMALL, SmallEntries};
use super::source::{Entries, Kids, Properties, Source};
use crate::game::GameElement;
use crate::view::math::{Color, Vector2, Vector3, Vector4};
use crate::view::packed::PackedStringsIter;
use crate::view::tape::Part as TapePart;
use crate::{
    ContainerType, Element, GdStr, NodePathRef, ObjectRef, Options, Packed, PackedReals,
    VariantRef, Version,
};

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
/// Cost: `validate`'s pass, then O(n log n) whatever the nesting (see [`from_variant_ref`]);
/// memory: a tape of 24 bytes per part once a container is met. A [`Variant`](crate::Variant)
/// (the whole value or a field) is decoded instead, in one iterative pass. Stack: what `T`'s
/// recursion takes, one level of it per level of the value it reads (none for a `Variant`).
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
    crate::validate(bytes, options)?;
    let value = crate::parse(bytes, options)?;
    let element = Element::new(bytes, 0, bytes.len(), options, 0);
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

    /// A deserializer over an element (its value, offset and bytes).
    pub(super) fn of_element(element: Element<'de>) -> Self {
        VariantDeserializer {
            value: element.value(),
            offset: Some(element.offset()),
            element: Some(element),
        }
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

/// The deserializer every value is read with: [`VariantDeserializer`]'s first, then that of
/// each part of a tape. A container is read onto a tape the first time one is met, and its
/// children visited from it.
#[derive(Clone, Copy)]
pub(super) struct Value<P>(P);

/// A part of a tape, to be read.
pub(super) fn on<'s, 'de>(
    source: &'s Source<'de>,
    part: TapePart<'s, 'de>,
) -> Value<OnTape<'s, 'de>> {
    Value(OnTape { source, index: part.index() })
}

impl<'de, P: Place<'de>> Value<P> {
    fn value(&self) -> VariantRef<'de> {
        self.0.value()
    }

    fn offset(&self) -> Option<usize> {
        self.0.offset()
    }

    fn taped<R>(
        self,
        f: impl FnOnce(&Source<'de>, TapePart<'_, 'de>) -> Result<R, DeError>,
    ) -> Result<R, DeError> {
        self.0.taped(f)
    }

    /// Answers a request for the raw bytes of a [`Variant`](crate::Variant).
    #[inline(never)]
    fn raw<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let (bytes, options, depth) = match self.0.origin() {
            Some((buf, offset, options, depth)) => {
                (RawBytes::Borrowed(buf.get(offset..).unwrap_or(&[])), options, depth)
            }
            None => match raw::made(&self.value()) {
                Some(bytes) => (bytes, Options::godot4(), 0),
                None => {
                    return Err(DeError::custom(format_args!(
                        "a {} handed over without its element cannot be read as a Variant: \
                         convert it with Variant::try_from",
                        self.value().variant_type().name(Version::Godot4)
                    )));
                }
            },
        };
        visitor.visit_map(RawAccess::new(bytes, options, depth))
    }

    /// The offset of the first element of a packed array (after the header and the count).
    fn packed_data(&self) -> Option<usize> {
        self.offset().and_then(|offset| offset.checked_add(8))
    }

    /// `deserialize_any`, without the offset. Containers first, in a small frame: deep values
    /// recurse through here.
    fn any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.value() {
            VariantRef::Array(array) => self.taped(|source, part| {
                let elements = source.children(part);
                let declared = checked_type(array.element_type(), part.element().options())?;
                let len = array.len();
                visitor.visit_seq(ElementsAccess { source, elements, index: 0, len, declared })
            }),
            VariantRef::Dictionary(dictionary) => {
                let visitor = if self.0.untaped() && dictionary.len() <= SMALL {
                    match small_map(&dictionary, visitor)? {
                        Ok(value) => return Ok(value),
                        Err(visitor) => visitor,
                    }
                } else {
                    visitor
                };
                self.taped(|source, part| {
                    match game_key_type(source, part, dictionary.key_type())? {
                        Some(key_type) => visitor.visit_map(GameEntriesAccess {
                            source,
                            entries: game_entries(source, part, &key_type)?.into_iter(),
                            pending: None,
                        }),
                        None => visitor.visit_map(EntriesAccess::new(source, part)?),
                    }
                })
            }
            VariantRef::Object(ObjectRef::Full(_)) => {
                self.taped(|source, part| visitor.visit_map(PropertiesAccess::new(source, part)?))
            }
            _ => self.leaf(visitor),
        }
    }

    /// [`any`](Self::any) for everything but containers.
    #[inline(never)]
    fn leaf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        use VariantRef as R;
        let data = self.packed_data();
        match self.value() {
            R::Nil | R::Callable | R::Object(ObjectRef::Null) => visitor.visit_unit(),
            R::Bool(b) => visitor.visit_bool(b),
            R::Int(i) => visitor.visit_i64(i),
            R::Float(f) => visitor.visit_f64(f),
            R::String(s) | R::StringName(s) => visit_text(visitor, &s),
            R::NodePath(path) => node_path(path, visitor),
            R::Rid(id) => visitor.visit_u64(id.unwrap_or(0)),
            R::Object(ObjectRef::Id(id)) => visitor.visit_u64(id),
            R::PackedByteArray(bytes) => visitor.visit_borrowed_bytes(bytes),
            R::PackedInt32Array(p) => visitor.visit_seq(PackedAccess::new(Items::Int32(p), data)),
            R::PackedInt64Array(p) => visitor.visit_seq(PackedAccess::new(Items::Int64(p), data)),
            R::PackedFloat32Array(p) => {
                visitor.visit_seq(PackedAccess::new(Items::Float32(p), data))
            }
            R::PackedFloat64Array(p) => {
                visitor.visit_seq(PackedAccess::new(Items::Float64(p), data))
            }
            R::PackedStringArray(strings) => visitor.visit_seq(PackedAccess {
                len: strings.len(),
                items: Items::Strings(strings.iter()),
                index: 0,
                data,
            }),
            R::PackedVector2Array(p) => {
                visitor.visit_seq(PackedAccess::new(Items::Vector2(p), data))
            }
            R::PackedVector3Array(p) => {
                visitor.visit_seq(PackedAccess::new(Items::Vector3(p), data))
            }
            R::PackedVector4Array(p) => {
                visitor.visit_seq(PackedAccess::new(Items::Vector4(p), data))
            }
            R::PackedColorArray(p) => visitor.visit_seq(PackedAccess::new(Items::Colors(p), data)),
            other => match part_of(&other)? {
                Some(part) => {
                    PartDeserializer { part, offset: self.offset() }.deserialize_any(visitor)
                }
                // Containers are read by `any`.
                None => self.any(visitor),
            },
        }
    }

    /// `deserialize_seq`, without the offset: byte arrays and math values read as sequences too.
    fn seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.value() {
            VariantRef::PackedByteArray(bytes) => {
                visitor.visit_seq(PackedAccess::new(Items::Bytes(bytes), self.packed_data()))
            }
            other => match part_of(&other)? {
                Some(part) => {
                    PartDeserializer { part, offset: self.offset() }.deserialize_seq(visitor)
                }
                None => self.any(visitor),
            },
        }
    }

    /// `deserialize_enum`, without the offset: a string names a unit variant, an int is a
    /// variant index, a one-entry dictionary maps a variant to its content.
    fn enumeration<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.value() {
            VariantRef::String(s) | VariantRef::StringName(s) => match s.to_text()? {
                Cow::Borrowed(text) => {
                    visitor.visit_enum(BorrowedStrDeserializer::<DeError>::new(text))
                }
                Cow::Owned(text) => visitor.visit_enum(StringDeserializer::<DeError>::new(text)),
            },
            VariantRef::Int(i) => match u32::try_from(i) {
                Ok(index) => visitor.visit_enum(U32Deserializer::<DeError>::new(index)),
                Err(_) => Err(DeError::invalid_value(Unexpected::Signed(i), &"a variant index")),
            },
            VariantRef::Dictionary(dictionary) => self.taped(|source, part| {
                if let Some(key_type) = game_key_type(source, part, dictionary.key_type())? {
                    return game_enum(source, part, &key_type, dictionary.len(), visitor);
                }
                match single_entry(source, part)? {
                    Some((key, value)) => visitor
                        .visit_enum(EnumEntry { key: on(source, key), value: on(source, value) }),
                    None => Err(DeError::invalid_length(
                        dictionary.len(),
                        &"a dictionary with one entry, naming the variant",
                    )),
                }
            }),
            other => Err(DeError::invalid_type(unexpected(&other), &visitor)),
        }
    }
}

/// Runs `f` and gives its error the offset of `de`'s value if it has none yet.
macro_rules! located {
    ($de:ident, $body:expr) => {{
        let offset = $de.offset();
        ($body).map_err(|error: DeError| error.or_offset(offset))
    }};
}

impl<'de, P: Place<'de>> Deserializer<'de> for Value<P> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        located!(self, self.any(visitor))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        located!(
            self,
            if self.value().is_nil() { visitor.visit_none() } else { visitor.visit_some(self) }
        )
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        located!(
            self,
            match self.value() {
                value if value.is_nil() => visitor.visit_unit(),
                other => Err(DeError::invalid_type(unexpected(&other), &visitor)),
            }
        )
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        if name == RAW {
            return located!(self, self.raw(visitor));
        }
        located!(self, visitor.visit_newtype_struct(self))
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        located!(self, self.seq(visitor))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        located!(self, self.enumeration(visitor))
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        located!(
            self,
            match self.value() {
                // An int names the field or variant with that index, as serde reads integer
                // identifiers.
                VariantRef::Int(i) => match u64::try_from(i) {
                    Ok(index) => visitor.visit_u64(index),
                    Err(_) => visitor.visit_i64(i),
                },
                _ => self.any(visitor),
            }
        )
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        // Nothing inside is read: an ignored subtree costs no recursion.
        visitor.visit_unit()
    }

    ::serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        map struct
    }
}

/// Forwards every call to the value's [`Value`] deserializer.
macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, DeError> {
                self.reader().$method($($arg,)* visitor)
            }
        )*
    };
}

impl<'de> Deserializer<'de> for VariantDeserializer<'de> {
    type Error = DeError;

    forward! {
        deserialize_any();
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_i128();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_u128();
        deserialize_f32();
        deserialize_f64();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
        deserialize_ignored_any();
    }
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

/// An array's elements, on a tape; with the game view, a typed array's as the game holds
/// them (`declared` is then its type).
struct ElementsAccess<'s, 'de> {
    source: &'s Source<'de>,
    elements: Kids<'s, 'de>,
    index: usize,
    len: usize,
    declared: Option<ContainerType<'de>>,
}

impl<'de> SeqAccess<'de> for ElementsAccess<'_, 'de> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        loop {
            let index = self.index;
            let Some(element) = self.elements.next() else { return Ok(None) };
            let within = |error: DeError| error.within(PathSegment::Index(index));
            let element = element.map_err(|e| within(e.into()))?;
            let Some(declared) = &self.declared else {
                self.index = index.saturating_add(1);
                return seed.deserialize(on(self.source, element)).map(Some).map_err(within);
            };
            let wire = element.element();
            let game = declared.game_element(wire).map_err(|e| within(e.into()))?;
            match game {
                // Dropped by the game: the index stays.
                None => {}
                Some(GameElement::Kept(_)) => {
                    self.index = index.saturating_add(1);
                    return seed.deserialize(on(self.source, element)).map(Some).map_err(within);
                }
                Some(_) => {
                    self.index = index.saturating_add(1);
                    let value = converted(&wire, declared).map_err(within)?;
                    let converted = Converted { value: &value, offset: Some(wire.offset()) };
                    return seed.deserialize(converted).map(Some).map_err(within);
                }
            }
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.len.saturating_sub(self.index))
    }
}

/// A dictionary's entries on a tape, a repeated key taking its last value (as in Godot).
struct EntriesAccess<'s, 'de> {
    source: &'s Source<'de>,
    entries: Entries<'s, 'de>,
    left: usize,
    /// The entry whose key was read and whose value comes next.
    pending: Option<(TapePart<'s, 'de>, TapePart<'s, 'de>)>,
}

impl<'s, 'de> EntriesAccess<'s, 'de> {
    fn new(source: &'s Source<'de>, dictionary: TapePart<'s, 'de>) -> Result<Self, DeError> {
        let entries = source.entries(dictionary)?;
        let wire = dictionary.value().as_dictionary().map_or(0, |d| d.len());
        let left = entries.kept_len().unwrap_or(wire);
        Ok(EntriesAccess { source, entries, left, pending: None })
    }
}

impl<'de> MapAccess<'de> for EntriesAccess<'_, 'de> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let Some((key, value)) = self.entries.next().transpose()? else { return Ok(None) };
        self.left = self.left.saturating_sub(1);
        self.pending = Some((key, value));
        let element = key.element();
        seed.deserialize(on(self.source, key))
            .map(Some)
            .map_err(|e| e.within(key_segment(&element)))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let Some((key, value)) = self.pending.take() else {
            return Err(DeError::custom("a dictionary value was asked for before its key"));
        };
        seed.deserialize(on(self.source, value)).map_err(|e| e.within(key_segment(&key.element())))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// A full object's properties on a tape, as a map from their names, a repeated name taking its
/// last value (as Godot sets them in turn).
struct PropertiesAccess<'s, 'de> {
    source: &'s Source<'de>,
    properties: Properties<'s, 'de>,
    left: usize,
    pending: Option<(GdStr<'de>, TapePart<'s, 'de>)>,
}

impl<'s, 'de> PropertiesAccess<'s, 'de> {
    fn new(source: &'s Source<'de>, object: TapePart<'s, 'de>) -> Result<Self, DeError> {
        let properties = source.properties(object)?;
        let wire = match object.value() {
            VariantRef::Object(ObjectRef::Full(object)) => object.len(),
            _ => 0,
        };
        let left = properties.kept_len().unwrap_or(wire);
        Ok(PropertiesAccess { source, properties, left, pending: None })
    }
}

/// A small dictionary of leaves read without a tape ([`SmallEntries`]): `Ok(Err(visitor))`
/// when it is not one. Out of line, so that the entries it keeps are not in the frame of
/// [`Value::any`], which deep values recurse through.
#[inline(never)]
fn small_map<'de, V: Visitor<'de>>(
    dictionary: &crate::DictionaryRef<'de>,
    visitor: V,
) -> Result<Result<V::Value, V>, DeError> {
    match SmallEntries::read(dictionary)? {
        Some(small) => visitor.visit_map(small).map(Ok),
        None => Ok(Err(visitor)),
    }
}

/// How a property name appears in a path.
fn name_segment(name: &GdStr<'_>) -> PathSegment {
    PathSegment::Field(name.to_string_lossy().into_owned())
}

impl<'de> MapAccess<'de> for PropertiesAccess<'_, 'de> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let Some((name, value)) = self.properties.next().transpose()? else { return Ok(None) };
        self.left = self.left.saturating_sub(1);
        self.pending = Some((name, value));
        let within = |error: DeError| error.within(name_segment(&name));
        text_seed(seed, &name).map(Some).map_err(within)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let Some((name, value)) = self.pending.take() else {
            return Err(DeError::custom("a property value was asked for before its name"));
        };
        seed.deserialize(on(self.source, value)).map_err(|e| e.within(name_segment(&name)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// The items of a packed array.
enum Items<'de> {
    Bytes(&'de [u8]),
    Int32(Packed<'de, i32>),
    Int64(Packed<'de, i64>),
    Float32(Packed<'de, f32>),
    Float64(Packed<'de, f64>),
    Strings(PackedStringsIter<'de>),
    Vector2(PackedReals<'de, Vector2<f32>, Vector2<f64>>),
    Vector3(PackedReals<'de, Vector3<f32>, Vector3<f64>>),
    Vector4(PackedReals<'de, Vector4<f32>, Vector4<f64>>),
    Colors(Packed<'de, Color<f32>>),
}

impl Items<'_> {
    fn len(&self) -> usize {
        match self {
            Items::Bytes(bytes) => bytes.len(),
            Items::Int32(p) => p.len(),
            Items::Int64(p) => p.len(),
            Items::Float32(p) => p.len(),
            Items::Float64(p) => p.len(),
            Items::Strings(strings) => strings.size_hint().1.unwrap_or(0),
            Items::Vector2(p) => p.len(),
            Items::Vector3(p) => p.len(),
            Items::Vector4(p) => p.len(),
            Items::Colors(p) => p.len(),
        }
    }
}

/// A packed array's items, each with its offset when the array's is known.
struct PackedAccess<'de> {
    items: Items<'de>,
    index: usize,
    len: usize,
    /// The offset of the first item.
    data: Option<usize>,
}

impl<'de> PackedAccess<'de> {
    fn new(items: Items<'de>, data: Option<usize>) -> Self {
        PackedAccess { len: items.len(), items, index: 0, data }
    }
}

/// The part of a packed vector: single-precision components exactly as on the wire,
/// double-precision ones with their NaNs quiet (as `decode` reads them).
macro_rules! vector_part {
    ($packed:expr, $index:expr, $variant:ident, $offset:ident, $at:ident) => {
        match $packed {
            PackedReals::Single(p) => {
                $offset = $at(size_of::<$variant<f32>>());
                p.get($index).map(|v| Part::$variant(v.map(Leaf::F32)))
            }
            PackedReals::Double(p) => {
                $offset = $at(size_of::<$variant<f64>>());
                p.get($index).map(|v| {
                    Part::$variant(v.map(|c| Leaf::F64(crate::wire::exact_float::quiet(c))))
                })
            }
        }
    };
}

impl<'de> SeqAccess<'de> for PackedAccess<'de> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        let index = self.index;
        if index >= self.len {
            return Ok(None);
        }
        self.index = index.saturating_add(1);
        let data = self.data;
        let at = |size: usize| data.and_then(|d| index.checked_mul(size)?.checked_add(d));
        let mut offset = None;
        let result = match &mut self.items {
            Items::Bytes(bytes) => {
                offset = at(1);
                bytes.get(index).map(|&b| seed.deserialize(U8Deserializer::new(b)))
            }
            Items::Int32(p) => {
                offset = at(4);
                p.get(index).map(|x| seed.deserialize(I32Deserializer::new(x)))
            }
            Items::Int64(p) => {
                offset = at(8);
                p.get(index).map(|x| seed.deserialize(I64Deserializer::new(x)))
            }
            Items::Float32(p) => {
                offset = at(4);
                p.get(index).map(|x| seed.deserialize(F32Deserializer::new(x)))
            }
            Items::Float64(p) => {
                offset = at(8);
                p.get(index).map(|x| seed.deserialize(F64Deserializer::new(x)))
            }
            Items::Strings(strings) => strings.next().map(|string| {
                let string = string?;
                offset = string.offset().checked_sub(4);
                text_seed(seed, &string)
            }),
            Items::Vector2(p) => vector_part!(p, index, Vector2, offset, at)
                .map(|part| seed.deserialize(PartDeserializer { part, offset })),
            Items::Vector3(p) => vector_part!(p, index, Vector3, offset, at)
                .map(|part| seed.deserialize(PartDeserializer { part, offset })),
            Items::Vector4(p) => vector_part!(p, index, Vector4, offset, at)
                .map(|part| seed.deserialize(PartDeserializer { part, offset })),
            Items::Colors(p) => {
                offset = at(16);
                p.get(index).map(|c| {
                    let part = Part::Color(c.map(Leaf::F32));
                    seed.deserialize(PartDeserializer { part, offset })
                })
            }
        };
        result
            .transpose()
            .map_err(|error| error.or_offset(offset).within(PathSegment::Index(index)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.len.saturating_sub(self.index))
    }
}

/// The one entry of a dictionary read as an enum (after Godot's merge of repeated keys).
fn single_entry<'s, 'de>(
    source: &'s Source<'de>,
    dictionary: TapePart<'s, 'de>,
) -> Result<Option<(TapePart<'s, 'de>, TapePart<'s, 'de>)>, DeError> {
    let mut entries = source.entries(dictionary)?;
    let len = entries
        .kept_len()
        .unwrap_or_else(|| dictionary.value().as_dictionary().map_or(0, |d| d.len()));
    if len != 1 {
        return Ok(None);
    }
    Ok(entries.next().transpose()?)
}

/// A one-entry dictionary read as an enum: the key names the variant.
struct EnumEntry<'s, 'de> {
    key: Value<OnTape<'s, 'de>>,
    value: Value<OnTape<'s, 'de>>,
}

impl<'s, 'de> EnumAccess<'de> for EnumEntry<'s, 'de> {
    type Error = DeError;
    type Variant = EnumContent<'s, 'de>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, EnumContent<'s, 'de>), DeError> {
        let key = self.key;
        let variant = seed.deserialize(key).map_err(|e| e.within(value_segment(&key)))?;
        Ok((variant, EnumContent { key, value: self.value }))
    }
}

/// How a dictionary key read as an enum variant appears in a path.
fn value_segment(key: &Value<OnTape<'_, '_>>) -> PathSegment {
    key_segment(&key.0.part().element())
}

/// The content of a variant given as a one-entry dictionary.
struct EnumContent<'s, 'de> {
    key: Value<OnTape<'s, 'de>>,
    value: Value<OnTape<'s, 'de>>,
}

impl<'de> EnumContent<'_, 'de> {
    fn within(&self, error: DeError) -> DeError {
        error.within(value_segment(&self.key))
    }
}

impl<'de> VariantAccess<'de> for EnumContent<'_, 'de> {
    type Error = DeError;

    fn unit_variant(self) -> Result<(), DeError> {
        let value = self.value.value();
        if value.is_nil() {
            return Ok(());
        }
        let error = DeError::invalid_type(unexpected(&value), &"a unit variant (null)");
        Err(self.within(error.or_offset(self.value.offset())))
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, DeError> {
        seed.deserialize(self.value).map_err(|e| self.within(e))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, DeError> {
        self.value.deserialize_tuple(len, visitor).map_err(|e| self.within(e))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.value.deserialize_struct("", fields, visitor).map_err(|e| self.within(e))
    }
}
