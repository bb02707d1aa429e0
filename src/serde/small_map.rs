//! A small dictionary of leaves, read into a map or a struct straight from its bytes, without a
//! tape: what most packets are (`{"type": "move", "seq": 7, "pos": Vector2(..)}`), for which
//! reading a tape and hashing the keys cost more than the rest of the work.
//!
//! It applies to an untyped dictionary of at most [`SMALL`] entries whose keys are all strings
//! (`String`, or `StringName` in Godot 4) and whose values all hold no other value (no array,
//! dictionary or full object: reading them from here walks nothing twice). Anything else is
//! read from a tape as before. Godot's rule for repeated keys holds (keys compared by the text
//! the game reads): a repeated key keeps its first place and takes its last value. Costs: one
//! pass over the entries, then at most `SMALL * (SMALL - 1) / 2` comparisons of keys, each up to
//! the shorter key (counted as work by the bytes it reads): O(bytes of the dictionary), at most
//! 15 times its keys' bytes; no allocation, about 2.5 KiB of stack (the entries
//! are filled in place and visited through `&mut`, never moved).

use ::serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};

use super::de_ref::{VariantDeserializer, key_segment};
use super::error::DeError;
use crate::view::dictionary::DictionaryRef;
use crate::view::element::Element;
use crate::view::string::GameText;
use crate::view::walk::{Mode, walk};
use crate::wire::error::Result;
use crate::wire::work;
use crate::{VariantRef, view::ContainerType, view::ObjectRef};

/// The most entries read this way.
pub(super) const SMALL: usize = 16;

/// One entry of a [`SmallEntries`], as read in the pass over the entries.
#[derive(Clone, Copy)]
struct Entry<'de> {
    /// The key (a String or a StringName, its bytes checked as text once).
    key: VariantRef<'de>,
    /// The value, read once.
    value: VariantRef<'de>,
    /// Where the key's bytes start and end, and where the value's end.
    key_offset: usize,
    key_end: usize,
    value_end: usize,
    /// Whether this entry is visited: its key is not one of an earlier entry's.
    kept: bool,
    /// The entry whose value a kept entry reads: the last with its key.
    value_of: u8,
}

/// The entries of a small dictionary of leaves, in wire order, a repeated key once (at its
/// first place, with its last value). Made empty on the stack and filled in place
/// ([`fill`](Self::fill)), then visited through `&mut` (never moved: it is about 2 KiB).
pub(super) struct SmallEntries<'de> {
    entries: [Option<Entry<'de>>; SMALL],
    len: usize,
    /// The next entry to look at.
    next: usize,
    /// The entry whose key was read and whose value comes next.
    pending: Option<usize>,
    /// The dictionary's buffer, settings and the depth of its entries.
    origin: Element<'de>,
}

impl<'de> SmallEntries<'de> {
    /// No entries, for [`fill`](Self::fill).
    pub(super) fn new(dictionary: &DictionaryRef<'de>) -> Self {
        let (scope, _) = dictionary.origin();
        let origin = Element::new(scope.buf, 0, 0, scope.options, scope.depth.saturating_add(1));
        SmallEntries { entries: [None; SMALL], len: 0, next: 0, pending: None, origin }
    }

    /// Reads the entries of `dictionary` (the one given to [`new`](Self::new)) when it is one
    /// this applies to, and says whether it was; when it was not (`Ok(false)`), the tape reads
    /// it. Reads the entries' structure (every header, count and length) and the keys' text;
    /// with `VALIDATE`, also checks what [`validate`](crate::validate) checks in each value (a
    /// string's text as Godot reads it, any other value but the short path's leaves walked in
    /// [`Mode::Validate`]), so that `Ok(true)` then means the whole dictionary is one Godot
    /// accepts. Errors are not ordered as `validate` orders them: a caller that needs its
    /// error asks `validate`.
    ///
    /// # Errors
    /// A malformed entry, or a key (or with `VALIDATE` a value) whose text Godot refuses.
    pub(super) fn fill<const VALIDATE: bool>(
        &mut self,
        dictionary: &DictionaryRef<'de>,
    ) -> Result<bool> {
        if dictionary.len() > SMALL || dictionary.is_empty() {
            return Ok(false);
        }
        if !dictionary.declares_no_types() {
            let (keys, values) = dictionary.types()?;
            if keys != ContainerType::Untyped || values != ContainerType::Untyped {
                return Ok(false);
            }
        }
        let mut texts: [Option<GameText<'de>>; SMALL] = [None; SMALL];
        let mut len = 0usize;
        let mut wire = dictionary.keys_and_values();
        for (slot, text) in self.entries.iter_mut().zip(&mut texts) {
            let Some(key) = wire.next_read() else { break };
            let (key, key_offset, key_end) = key?;
            let (VariantRef::String(s) | VariantRef::StringName(s)) = key else {
                return Ok(false);
            };
            let Some(value) = wire.next_read() else { break };
            let (value, value_offset, value_end) = value?;
            if holds_values(&value) {
                return Ok(false);
            }
            if VALIDATE {
                validate_leaf(&self.origin, &value, value_offset)?;
            }
            *text = Some(s.game_text()?);
            *slot =
                Some(Entry { key, value, key_offset, key_end, value_end, kept: true, value_of: 0 });
            len = len.saturating_add(1);
        }
        // Godot's rule: a repeated key keeps its first place and takes its last value. An entry
        // whose key came before is passed over; the first one reads the last one's value.
        let mut compared = 0usize;
        for i in 0..len {
            let key = texts.get(i).copied().flatten();
            let earlier = (0..i).find(|&j| {
                let Some((Some(key), Some(Some(other)))) = Some((key, texts.get(j))) else {
                    return false;
                };
                // A comparison reads up to the shorter key: counted as reading its bytes is.
                let read = key.len().min(other.len()) >> 6;
                compared = compared.saturating_add(read.saturating_add(1));
                key.same(other)
            });
            let index = u8::try_from(i).unwrap_or(u8::MAX);
            if let Some(Some(entry)) = self.entries.get_mut(i) {
                entry.kept = earlier.is_none();
                entry.value_of = index;
            }
            // The first entry with this key (kept, as the first) reads this later value.
            if let Some(Some(first)) = earlier.and_then(|j| self.entries.get_mut(j)) {
                first.value_of = index;
            }
        }
        work::add(compared);
        self.len = len;
        Ok(true)
    }

    /// The element at `[offset, end)`, read with the dictionary's settings.
    fn element(&self, offset: usize, end: usize) -> Element<'de> {
        let (buf, _, options, depth) = self.origin.origin();
        Element::new(buf, offset, end, options, depth)
    }

    /// Entry `index`.
    fn entry(&self, index: usize) -> Option<&Entry<'de>> {
        self.entries.get(index).and_then(Option::as_ref)
    }
}

/// Checks what [`validate`](crate::validate) checks in a leaf value at `offset` that the
/// reading step did not: the text of a string (O(1) when the step found it standard UTF-8),
/// and everything in a value the step's short path does not read (a walk in
/// [`Mode::Validate`], O(its bytes)).
fn validate_leaf<'de>(origin: &Element<'de>, value: &VariantRef<'de>, offset: usize) -> Result<()> {
    match value {
        VariantRef::String(s) | VariantRef::StringName(s) => s.check(),
        VariantRef::Nil
        | VariantRef::Int(_)
        | VariantRef::Float(_)
        | VariantRef::Vector2(_)
        | VariantRef::PackedByteArray(_) => Ok(()),
        _ => {
            let (buf, _, options, depth) = origin.origin();
            walk(buf, offset, options, depth, Mode::Validate).map(|_| ())
        }
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
            let Some(entry) = self.entry(index).copied() else { continue };
            if !entry.kept {
                continue;
            }
            self.pending = Some(index);
            let element = self.element(entry.key_offset, entry.key_end);
            return seed
                .deserialize(VariantDeserializer::of_read(element, entry.key))
                .map(Some)
                .map_err(|e| e.within(key_segment(&element)));
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> core::result::Result<V::Value, DeError> {
        let entry = self.pending.take().and_then(|index| self.entry(index).copied());
        let Some(entry) = entry else {
            return Err(::serde::de::Error::custom(
                "a dictionary value was asked for before its key",
            ));
        };
        let last = self.entry(usize::from(entry.value_of)).copied().unwrap_or(entry);
        // The last entry's value starts where its key ends.
        let value = self.element(last.key_end, last.value_end);
        seed.deserialize(VariantDeserializer::of_read(value, last.value))
            .map_err(|e| e.within(key_segment(&self.element(entry.key_offset, entry.key_end))))
    }

    fn size_hint(&self) -> Option<usize> {
        let rest = self.entries.iter().take(self.len).skip(self.next);
        Some(rest.filter(|entry| entry.is_some_and(|e| e.kept)).count())
    }
}

/// A whole value that is a small dictionary of leaves, read and checked by
/// [`SmallEntries::fill`] (`VALIDATE`): what [`from_bytes`](super::from_bytes) hands `T`. A map or
/// a struct visits the entries already read; anything else is asked of the value's own
/// deserializer (the value is valid either way).
pub(super) struct SmallRoot<'a, 'de> {
    pub(super) entries: &'a mut SmallEntries<'de>,
    pub(super) de: VariantDeserializer<'de>,
}

impl<'de> SmallRoot<'_, 'de> {
    /// The value's own deserializer.
    fn value(self) -> VariantDeserializer<'de> {
        self.de
    }

    /// The entries as a map, errors without an offset given the dictionary's (as
    /// [`VariantDeserializer`] gives them).
    fn map<V: Visitor<'de>>(self, visitor: V) -> core::result::Result<V::Value, DeError> {
        visitor.visit_map(self.entries).map_err(|error| error.or_offset(Some(0)))
    }
}

impl<'de> Deserializer<'de> for SmallRoot<'_, 'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> core::result::Result<V::Value, DeError> {
        self.map(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> core::result::Result<V::Value, DeError> {
        self.map(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> core::result::Result<V::Value, DeError> {
        self.map(visitor)
    }

    forward_but_maps!(value);
}
