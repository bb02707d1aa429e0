//! Helpers shared by the modules: bytes written by a `Writer`, a map in its entries' order, a
//! struct that borrows.

use super::*;

/// Bytes of one value, written by `write`.
pub(crate) fn written(options: EncodeOptions, write: impl FnOnce(&mut Writer<Vec<u8>>)) -> Vec<u8> {
    let mut writer = Writer::new(Vec::new(), options);
    write(&mut writer);
    writer.finish().unwrap()
}

/// A map's entries in the order the deserializer gives them.
#[derive(Debug, PartialEq)]
pub(crate) struct InOrder(pub(crate) Vec<(String, i64)>);

impl<'de> Deserialize<'de> for InOrder {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = InOrder;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<InOrder, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(InOrder(entries))
            }
        }
        deserializer.deserialize_map(Entries)
    }
}

#[derive(Debug, Deserialize, PartialEq)]
pub(crate) struct Move<'a> {
    pub(crate) player: &'a str,
    pub(crate) pos: Vector2<f32>,
    pub(crate) seq: u32,
}
