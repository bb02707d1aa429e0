//! A `Dictionary` from its lossless form: the optional key and value types, then the
//! entries, each key and value read into the slot the dictionary made for it.

use super::*;

/// A dictionary at nesting `depth`, read into `target`.
pub(super) struct DictionaryInto<'t> {
    pub(super) depth: u16,
    pub(super) target: &'t mut Dictionary,
}

impl<'de> DeserializeSeed<'de> for DictionaryInto<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_struct(DICTIONARY, &DICTIONARY_FIELDS, self)
    }
}

impl<'de> Visitor<'de> for DictionaryInto<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a Dictionary: entries and optional key and value types")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = [false; 3];
        while let Some(field) = map.next_key_seed(FieldSeed { names: &DICTIONARY_FIELDS })? {
            let index = field as usize;
            if seen.get(index).copied().unwrap_or(true) {
                let name = DICTIONARY_FIELDS.get(index).copied().unwrap_or_default();
                return Err(A::Error::duplicate_field(name));
            }
            if let Some(slot) = seen.get_mut(index) {
                *slot = true;
            }
            let target = &mut *self.target;
            match field {
                0 => map.next_value_seed(EntriesInto { depth: deeper(self.depth), target })?,
                1 => target.key_type = read_type(&mut map)?,
                _ => target.value_type = read_type(&mut map)?,
            }
        }
        let [entries_seen, ..] = seen;
        if !entries_seen {
            let [entries_field, ..] = DICTIONARY_FIELDS;
            return Err(A::Error::missing_field(entries_field));
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let target = &mut *self.target;
        seq.next_element_seed(EntriesInto { depth: deeper(self.depth), target })?.ok_or_else(
            || {
                A::Error::invalid_length(
                    0,
                    &"a Dictionary: entries and optional key and value types",
                )
            },
        )?;
        self.target.key_type = seq.next_element()?.unwrap_or_default();
        self.target.value_type = seq.next_element()?.unwrap_or_default();
        Ok(())
    }
}

/// A dictionary's entries at nesting `depth`, inserted into `target` as they arrive.
pub(super) struct EntriesInto<'t> {
    pub(super) depth: u16,
    pub(super) target: &'t mut Dictionary,
}

impl<'de> DeserializeSeed<'de> for EntriesInto<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for EntriesInto<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence of [key, value] pairs")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let depth = self.depth;
        while seq.next_element_seed(PairInto { depth, target: &mut *self.target })?.is_some() {}
        Ok(())
    }
}

/// A [key, value] pair of values at nesting `depth`, inserted into `target`.
pub(super) struct PairInto<'t> {
    pub(super) depth: u16,
    pub(super) target: &'t mut Dictionary,
}

impl<'de> DeserializeSeed<'de> for PairInto<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_tuple(2, self)
    }
}

impl<'de> Visitor<'de> for PairInto<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a [key, value] pair")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let depth = self.depth;
        let mut key = Variant::Nil;
        if seq.next_element_seed(Into { depth, slot: &mut key })?.is_none() {
            return Err(A::Error::invalid_length(0, &self));
        }
        // The value is read into its entry: nothing but the dictionary is held meanwhile.
        let slot = value_slot(self.target, key);
        if seq.next_element_seed(Into { depth, slot })?.is_none() {
            return Err(A::Error::invalid_length(1, &"a [key, value] pair"));
        }
        Ok(())
    }
}

/// The place of `key`'s value in `target`, as [`Dictionary::insert`] would put it: the entry
/// of an equal key already there (Godot keeps the first key and position, and the last value),
/// else a new entry at the end. Out of line: hashing keys takes stack that the recursive path
/// should not hold.
#[inline(never)]
pub(super) fn value_slot(target: &mut Dictionary, key: Variant) -> &mut Variant {
    if !target.contains_key(&key) {
        target.insert(key, Variant::Nil);
        return match target.values_mut().next_back() {
            Some(slot) => slot,
            None => unreachable_slot(),
        };
    }
    match target.get_mut(&key) {
        Some(slot) => slot,
        None => unreachable_slot(),
    }
}
