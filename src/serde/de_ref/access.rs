//! The accessors of the containers: an array's elements as a sequence, a dictionary's entries
//! and a full object's properties as maps, each element read in place on the tape, its path kept
//! for errors.

use super::*;

/// An array's elements, on a tape; with the game view, a typed array's as the game holds
/// them (`declared` is then its type).
pub(super) struct ElementsAccess<'s, 'de> {
    pub(super) source: &'s Source<'de>,
    pub(super) elements: Kids<'s, 'de>,
    pub(super) index: usize,
    pub(super) len: usize,
    pub(super) declared: Option<ContainerType<'de>>,
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
pub(super) struct EntriesAccess<'s, 'de> {
    pub(super) source: &'s Source<'de>,
    pub(super) entries: Entries<'s, 'de>,
    pub(super) left: usize,
    /// The entry whose key was read and whose value comes next.
    pub(super) pending: Option<(TapePart<'s, 'de>, TapePart<'s, 'de>)>,
}

impl<'s, 'de> EntriesAccess<'s, 'de> {
    pub(super) fn new(
        source: &'s Source<'de>,
        dictionary: TapePart<'s, 'de>,
    ) -> Result<Self, DeError> {
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
pub(super) struct PropertiesAccess<'s, 'de> {
    pub(super) source: &'s Source<'de>,
    pub(super) properties: Properties<'s, 'de>,
    pub(super) left: usize,
    pub(super) pending: Option<(GdStr<'de>, TapePart<'s, 'de>)>,
}

impl<'s, 'de> PropertiesAccess<'s, 'de> {
    pub(super) fn new(source: &'s Source<'de>, object: TapePart<'s, 'de>) -> Result<Self, DeError> {
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
pub(super) fn small_map<'de, V: Visitor<'de>>(
    dictionary: &crate::view::DictionaryRef<'de>,
    visitor: V,
) -> Result<Result<V::Value, V>, DeError> {
    let mut small = SmallEntries::new(dictionary);
    if small.fill::<false>(dictionary)? {
        visitor.visit_map(&mut small).map(Ok)
    } else {
        Ok(Err(visitor))
    }
}

/// How a property name appears in a path.
pub(super) fn name_segment(name: &GdStr<'_>) -> PathSegment {
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
