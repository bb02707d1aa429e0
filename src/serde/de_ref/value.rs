//! [`Value`]: a value at a place (the tape of a whole value, or a lone [`VariantRef`]), and the
//! `Deserializer` that maps it onto the visitor's type (numbers, strings, options, math values as
//! sequences or maps, containers through the accessors of `access.rs` and `packed.rs`).

use super::*;

/// The deserializer every value is read with: [`VariantDeserializer`]'s first, then that of
/// each part of a tape. A container is read onto a tape the first time one is met, and its
/// children visited from it.
#[derive(Clone, Copy)]
pub(in crate::serde) struct Value<P>(pub(super) P);

/// A part of a tape, to be read.
pub(in crate::serde) fn on<'s, 'de>(
    source: &'s Source<'de>,
    part: TapePart<'s, 'de>,
) -> Value<OnTape<'s, 'de>> {
    Value(OnTape { source, index: part.index() })
}

impl<'de, P: Place<'de>> Value<P> {
    pub(super) fn value(&self) -> VariantRef<'de> {
        self.0.value()
    }

    pub(super) fn offset(&self) -> Option<usize> {
        self.0.offset()
    }

    pub(super) fn taped<R>(
        self,
        f: impl FnOnce(&Source<'de>, TapePart<'_, 'de>) -> Result<R, DeError>,
    ) -> Result<R, DeError> {
        self.0.taped(f)
    }

    /// Answers a request for the raw bytes of a [`Variant`](crate::Variant).
    #[inline(never)]
    pub(super) fn raw<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
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
    pub(super) fn packed_data(&self) -> Option<usize> {
        self.offset().and_then(|offset| offset.checked_add(8))
    }

    /// `deserialize_any`, without the offset. Containers first, in a small frame: deep values
    /// recurse through here.
    pub(super) fn any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
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
    pub(super) fn leaf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
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
    pub(super) fn seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
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
    pub(super) fn enumeration<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
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
