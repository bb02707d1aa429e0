//! The typed dictionary's entries as the game holds them ([`game_entries`]),
//! read as a map ([`GameEntriesAccess`]) or, when the dictionary has one entry, as an enum
//! ([`game_enum`]): a key kept as on the wire is read in place, a converted one from its owned
//! form through [`Converted`].
//!
//! What it validates: that a value is asked for after its key, and that an enum's dictionary has
//! exactly one entry once the game's conversions and merges are done. Costs: O(1) per entry read,
//! on top of what [`game_entries`] spent making the entries.

use ::serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, Visitor};

use super::{Converted, GameKey, game_entries, owned_segment};
use crate::serde::de_ref::{key_segment, on};
use crate::serde::error::{DeError, PathSegment};
use crate::serde::source::Source;
use crate::view::ContainerType;
use crate::view::tape::Part as TapePart;

/// A typed dictionary's entries as the game holds them, as a map.
pub(in crate::serde) struct GameEntriesAccess<'s, 'de> {
    pub(in crate::serde) source: &'s Source<'de>,
    pub(in crate::serde) entries: alloc::vec::IntoIter<(GameKey<'s, 'de>, TapePart<'s, 'de>)>,
    /// The entry whose key was read, and how its key shows in a path.
    pub(in crate::serde) pending: Option<(TapePart<'s, 'de>, PathSegment)>,
}

impl<'de> MapAccess<'de> for GameEntriesAccess<'_, 'de> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let Some((key, value)) = self.entries.next() else { return Ok(None) };
        let (result, segment) = match key {
            GameKey::Wire(part) => {
                let segment = key_segment(&part.element());
                (seed.deserialize(on(self.source, part)), segment)
            }
            GameKey::Converted(owned) => {
                let segment = owned_segment(&owned);
                let offset = Some(value.offset());
                (seed.deserialize(Converted { value: &owned, offset }), segment)
            }
        };
        let result = result.map(Some).map_err(|e| e.within(segment.clone()));
        self.pending = Some((value, segment));
        result
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let Some((value, segment)) = self.pending.take() else {
            return Err(DeError::custom("a dictionary value was asked for before its key"));
        };
        seed.deserialize(on(self.source, value)).map_err(|e| e.within(segment))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// An enum read from a typed dictionary of one entry (after the game's conversions and
/// merges), its key naming the variant.
pub(in crate::serde) fn game_enum<'s, 'de, V: Visitor<'de>>(
    source: &'s Source<'de>,
    dictionary: TapePart<'s, 'de>,
    key_type: &ContainerType<'de>,
    wire_len: usize,
    visitor: V,
) -> Result<V::Value, DeError> {
    let mut entries = game_entries(source, dictionary, key_type)?;
    let (Some((key, value)), true) = (entries.pop(), entries.is_empty()) else {
        return Err(DeError::invalid_length(
            wire_len,
            &"a dictionary with one entry, naming the variant",
        ));
    };
    visitor.visit_enum(GameEnum { source, key, value })
}

/// The one entry of a typed dictionary read as an enum.
struct GameEnum<'s, 'de> {
    source: &'s Source<'de>,
    key: GameKey<'s, 'de>,
    value: TapePart<'s, 'de>,
}

impl<'s, 'de> ::serde::de::EnumAccess<'de> for GameEnum<'s, 'de> {
    type Error = DeError;
    type Variant = GameEnumContent<'s, 'de>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, GameEnumContent<'s, 'de>), DeError> {
        let (variant, segment) = match &self.key {
            GameKey::Wire(part) => {
                (seed.deserialize(on(self.source, *part)), key_segment(&part.element()))
            }
            GameKey::Converted(owned) => {
                let offset = Some(self.value.offset());
                (seed.deserialize(Converted { value: owned, offset }), owned_segment(owned))
            }
        };
        let variant = variant.map_err(|e| e.within(segment.clone()))?;
        Ok((variant, GameEnumContent { source: self.source, value: self.value, segment }))
    }
}

/// The content of a variant given as a typed dictionary's one entry.
struct GameEnumContent<'s, 'de> {
    source: &'s Source<'de>,
    value: TapePart<'s, 'de>,
    segment: PathSegment,
}

impl<'de> ::serde::de::VariantAccess<'de> for GameEnumContent<'_, 'de> {
    type Error = DeError;

    fn unit_variant(self) -> Result<(), DeError> {
        if self.value.value().is_nil() {
            return Ok(());
        }
        let error = DeError::custom("expected a unit variant (null)");
        Err(error.or_offset(Some(self.value.offset())).within(self.segment))
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, DeError> {
        seed.deserialize(on(self.source, self.value)).map_err(|e| e.within(self.segment))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, DeError> {
        on(self.source, self.value)
            .deserialize_tuple(len, visitor)
            .map_err(|e| e.within(self.segment))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        on(self.source, self.value)
            .deserialize_struct("", fields, visitor)
            .map_err(|e| e.within(self.segment))
    }
}
