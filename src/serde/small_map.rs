//! A small dictionary of leaves, read into a map or a struct straight from its bytes, without a
//! tape: what most packets are (`{"type": "move", "seq": 7, "pos": Vector2(..)}`), for which
//! reading a tape and hashing the keys cost more than the rest of the work.
//!
//! It applies to an untyped dictionary of at most [`SMALL`] entries whose keys are all strings
//! (`String`, or `StringName` in Godot 4) and whose values all hold no other value (no array,
//! dictionary or full object: reading them from here walks nothing twice). Anything else is
//! read from a tape as before. Godot's rule for repeated keys holds (keys compared by the text
//! the game reads): a repeated key keeps its first place and takes its last value. Costs: one
//! pass over the entries, then at most `SMALL * SMALL` comparisons of keys, each up to the
//! shorter key: O(bytes of the dictionary); no allocation, about 1 KiB of stack.

use ::serde::de::{DeserializeSeed, MapAccess};

use super::de_ref::{VariantDeserializer, key_segment};
use super::error::DeError;
use crate::view::dictionary::DictionaryRef;
use crate::view::element::Element;
use crate::view::string::GameText;
use crate::wire::error::Result;
use crate::wire::work;
use crate::{VariantRef, view::ContainerType, view::ObjectRef};

/// The most entries read this way.
pub(super) const SMALL: usize = 16;

/// The entries of a small dictionary of leaves, in wire order, a repeated key once (at its
/// first place, with its last value).
pub(super) struct SmallEntries<'de> {
    /// Where each entry's key and value lie: key offset, key end, value offset, value end.
    spans: [[usize; 4]; SMALL],
    /// Each entry's key and value, as read in the one pass over the entries.
    values: [[VariantRef<'de>; 2]; SMALL],
    /// Whether each entry is read (its key is not one of an earlier entry's).
    kept: [bool; SMALL],
    /// The entry whose value each kept entry reads (the last with its key).
    value_of: [usize; SMALL],
    len: usize,
    /// The next entry to look at.
    next: usize,
    /// The entry whose key was read and whose value comes next.
    pending: Option<usize>,
    /// The dictionary's buffer, settings and the depth of its entries.
    origin: Element<'de>,
}

impl<'de> SmallEntries<'de> {
    /// The entries of `dictionary` when it is one this applies to; `Ok(None)` otherwise (the
    /// tape reads it). Reads the entries' structure (every header, count and length) and the
    /// keys' text.
    ///
    /// # Errors
    /// A malformed entry, or a key whose text Godot refuses.
    pub(super) fn read(dictionary: &DictionaryRef<'de>) -> Result<Option<Self>> {
        if dictionary.len() > SMALL || dictionary.is_empty() {
            return Ok(None);
        }
        let untyped = |ty: ContainerType<'_>| ty == ContainerType::Untyped;
        if !untyped(dictionary.key_type()?) || !untyped(dictionary.value_type()?) {
            return Ok(None);
        }
        let mut spans = [[0usize; 4]; SMALL];
        let mut values = [[VariantRef::Nil; 2]; SMALL];
        let mut texts: [Option<GameText<'de>>; SMALL] = [None; SMALL];
        let mut len = 0usize;
        let mut entries = dictionary.keys_and_values();
        for ((span, read), text) in spans.iter_mut().zip(&mut values).zip(&mut texts) {
            let Some(key) = entries.next_read() else { break };
            let (key, key_offset, key_end) = key?;
            let (VariantRef::String(s) | VariantRef::StringName(s)) = key else {
                return Ok(None);
            };
            let Some(value) = entries.next_read() else { break };
            let (value, value_offset, value_end) = value?;
            if holds_values(&value) {
                return Ok(None);
            }
            *text = Some(s.game_text()?);
            *span = [key_offset, key_end, value_offset, value_end];
            *read = [key, value];
            len = len.saturating_add(1);
        }
        let (scope, _) = dictionary.origin();
        let origin = Element::new(scope.buf, 0, 0, scope.options, scope.depth.saturating_add(1));
        // Godot's rule: a repeated key keeps its first place and takes its last value. An entry
        // whose key came before is passed over; the first one reads the last one's value.
        let mut kept = [true; SMALL];
        let mut value_of = [0usize; SMALL];
        let mut compared = 0usize;
        for i in 0..len {
            let key = texts.get(i).copied().flatten();
            let same = |other: Option<&Option<GameText<'de>>>| matches!((key, other), (Some(key), Some(Some(other))) if key.cmp(other).is_eq());
            let earlier = (0..i).any(|j| {
                compared = compared.saturating_add(1);
                same(texts.get(j))
            });
            if let Some(slot) = kept.get_mut(i) {
                *slot = !earlier;
            }
            let last = (i..len).rev().find(|&j| {
                compared = compared.saturating_add(1);
                j == i || same(texts.get(j))
            });
            if let Some(slot) = value_of.get_mut(i) {
                *slot = last.unwrap_or(i);
            }
        }
        work::add(compared);
        Ok(Some(SmallEntries {
            spans,
            values,
            kept,
            value_of,
            len,
            next: 0,
            pending: None,
            origin,
        }))
    }

    /// The element at `[offset, end)`, read with the dictionary's settings.
    fn element(&self, offset: usize, end: usize) -> Element<'de> {
        let (buf, _, options, depth) = self.origin.origin();
        Element::new(buf, offset, end, options, depth)
    }

    /// A deserializer over entry `index`'s key (`part` 0) or value (`part` 1), with the value
    /// read in the pass over the entries.
    fn deserializer(&self, index: usize, part: usize) -> VariantDeserializer<'de> {
        let span = self.spans.get(index).copied().unwrap_or_default();
        let (offset, end) = match part {
            0 => (span[0], span[1]),
            _ => (span[2], span[3]),
        };
        let value = self.values.get(index).and_then(|v| v.get(part)).copied();
        VariantDeserializer::of_read(self.element(offset, end), value.unwrap_or(VariantRef::Nil))
    }
}

/// Whether a value holds other values (reading it from here would walk them again).
fn holds_values(value: &VariantRef<'_>) -> bool {
    matches!(
        value,
        VariantRef::Array(_) | VariantRef::Dictionary(_) | VariantRef::Object(ObjectRef::Full(_))
    )
}

impl<'de> MapAccess<'de> for SmallEntries<'de> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> core::result::Result<Option<K::Value>, DeError> {
        while self.next < self.len {
            let index = self.next;
            self.next = self.next.saturating_add(1);
            if !self.kept.get(index).copied().unwrap_or(false) {
                continue;
            }
            let [offset, key_end, _, _] = self.spans.get(index).copied().unwrap_or_default();
            self.pending = Some(index);
            return seed
                .deserialize(self.deserializer(index, 0))
                .map(Some)
                .map_err(|e| e.within(key_segment(&self.element(offset, key_end))));
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> core::result::Result<V::Value, DeError> {
        let Some(index) = self.pending.take() else {
            return Err(::serde::de::Error::custom(
                "a dictionary value was asked for before its key",
            ));
        };
        let [offset, key_end, _, _] = self.spans.get(index).copied().unwrap_or_default();
        let last = self.value_of.get(index).copied().unwrap_or(index);
        seed.deserialize(self.deserializer(last, 1))
            .map_err(|e| e.within(key_segment(&self.element(offset, key_end))))
    }

    fn size_hint(&self) -> Option<usize> {
        let left = self.kept.iter().take(self.len).skip(self.next).filter(|&&k| k).count();
        Some(left)
    }
}
