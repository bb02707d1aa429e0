//! Enums: a string as a unit variant, a dictionary of one entry as `{variant: content}`.

use super::*;

/// The one entry of a dictionary read as an enum (after Godot's merge of repeated keys).
pub(super) fn single_entry<'s, 'de>(
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
pub(super) struct EnumEntry<'s, 'de> {
    pub(super) key: Value<OnTape<'s, 'de>>,
    pub(super) value: Value<OnTape<'s, 'de>>,
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
pub(super) fn value_segment(key: &Value<OnTape<'_, '_>>) -> PathSegment {
    key_segment(&key.0.part().element())
}

/// The content of a variant given as a one-entry dictionary.
pub(super) struct EnumContent<'s, 'de> {
    pub(super) key: Value<OnTape<'s, 'de>>,
    pub(super) value: Value<OnTape<'s, 'de>>,
}

impl<'de> EnumContent<'_, 'de> {
    pub(super) fn within(&self, error: DeError) -> DeError {
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
