//! An `Object` from its lossless form: a null object, an instance id, or a full object
//! (class and properties, each property's value read into its slot).

use super::*;
use crate::owned::FullObject;

/// An object at nesting `depth` (its properties are one deeper), written into `slot`.
pub(super) struct ObjectInto<'t> {
    pub(super) depth: u16,
    pub(super) slot: &'t mut Variant,
}

impl<'de> DeserializeSeed<'de> for ObjectInto<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_enum(OBJECT, &OBJECT_NAMES, self)
    }
}

impl<'de> Visitor<'de> for ObjectInto<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an Object: Null, Id or Full")
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        let (index, access) = data.variant_seed(TagSeed { names: &OBJECT_NAMES })?;
        match index {
            0 => {
                access.unit_variant()?;
                *self.slot = Variant::Object(Object::Null);
                Ok(())
            }
            1 => {
                *self.slot = Variant::Object(Object::Id(access.newtype_variant()?));
                Ok(())
            }
            _ => {
                *self.slot = Variant::Object(Object::full(String::new(), Vec::new()));
                match self.slot {
                    Variant::Object(Object::Full(full)) => {
                        let FullObject { class, properties } = &mut **full;
                        let full = FullInto { depth: self.depth, class, properties };
                        access.struct_variant(&FULL_FIELDS, full)
                    }
                    _ => Ok(()),
                }
            }
        }
    }
}

/// The class and properties of a full object at nesting `depth`, read into an object made
/// for them.
pub(super) struct FullInto<'t> {
    pub(super) depth: u16,
    pub(super) class: &'t mut String,
    pub(super) properties: &'t mut Vec<(String, Variant)>,
}

impl<'de> Visitor<'de> for FullInto<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a full object: class and properties")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let [class_field, properties_field] = FULL_FIELDS;
        let depth = deeper(self.depth);
        let (class, properties) = (self.class, self.properties);
        let (mut has_class, mut has_properties) = (false, false);
        while let Some(field) = map.next_key_seed(FieldSeed { names: &FULL_FIELDS })? {
            if field == 0 {
                if has_class {
                    return Err(A::Error::duplicate_field(class_field));
                }
                has_class = true;
                *class = map.next_value::<String>()?;
            } else {
                if has_properties {
                    return Err(A::Error::duplicate_field(properties_field));
                }
                has_properties = true;
                map.next_value_seed(PropertiesInto { depth, out: &mut *properties })?;
            }
        }
        if !has_class {
            return Err(A::Error::missing_field(class_field));
        }
        if !has_properties {
            return Err(A::Error::missing_field(properties_field));
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let expected = &"a full object: class and properties";
        let depth = deeper(self.depth);
        let (class, properties) = (self.class, self.properties);
        *class =
            seq.next_element::<String>()?.ok_or_else(|| A::Error::invalid_length(0, expected))?;
        seq.next_element_seed(PropertiesInto { depth, out: properties })?
            .ok_or_else(|| A::Error::invalid_length(1, expected))?;
        Ok(())
    }
}

/// A full object's properties, values at nesting `depth`, pushed onto `out`.
pub(super) struct PropertiesInto<'t> {
    pub(super) depth: u16,
    pub(super) out: &'t mut Vec<(String, Variant)>,
}

impl<'de> DeserializeSeed<'de> for PropertiesInto<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for PropertiesInto<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence of [name, value] pairs")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.out.reserve(seq.size_hint().unwrap_or(0).min(RESERVE_MAX));
        loop {
            self.out.push((String::new(), Variant::Nil));
            let Some(slot) = self.out.last_mut() else { return Ok(()) };
            if seq.next_element_seed(PropertyInto { depth: self.depth, slot })?.is_none() {
                self.out.pop();
                return Ok(());
            }
        }
    }
}

/// A [name, value] property, its value at nesting `depth`, written into `slot`.
pub(super) struct PropertyInto<'t> {
    pub(super) depth: u16,
    pub(super) slot: &'t mut (String, Variant),
}

impl<'de> DeserializeSeed<'de> for PropertyInto<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_tuple(2, self)
    }
}

impl<'de> Visitor<'de> for PropertyInto<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a [name, value] property")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let (name, value) = self.slot;
        *name = seq
            .next_element::<String>()?
            .ok_or_else(|| A::Error::invalid_length(0, &"a [name, value] property"))?;
        if seq.next_element_seed(Into { depth: self.depth, slot: value })?.is_none() {
            return Err(A::Error::invalid_length(1, &"a [name, value] property"));
        }
        Ok(())
    }
}
