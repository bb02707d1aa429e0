//! How [`Variant`]'s `Deserialize` reads Godot bytes through the struct-mapping deserializer
//! without recursing: it asks for a newtype struct named [`RAW`]; the struct-mapping
//! deserializer recognises the name and answers with a private two-entry map holding the
//! options and the bytes of the value, which are decoded with the iterative owned decoder.
//! Every other deserializer sees an ordinary newtype struct around the lossless form.

use ::serde::de::value::U64Deserializer;
use ::serde::de::value::{BorrowedBytesDeserializer, BorrowedStrDeserializer, BytesDeserializer};
use ::serde::de::{DeserializeSeed, Deserializer, Error, MapAccess, Unexpected, Visitor};
use core::fmt;

use crate::owned::Variant;
use crate::view::element::Element;
use crate::{Options, Version};

/// The newtype name that asks for the raw bytes.
pub(crate) const RAW: &str = "$gdvariant::private::Variant";
/// The first key of the answer: the options and the depth, as one number.
const OPTIONS_KEY: &str = "$gdvariant::private::options";
/// The second key: the bytes, starting with the value (anything after it is ignored).
const BYTES_KEY: &str = "$gdvariant::private::bytes";

/// The bytes of a value, borrowed from the input or made for a value that does not know where
/// it sits (a bare scalar, or a value the game view converted).
pub(crate) enum RawBytes<'de> {
    Borrowed(&'de [u8]),
    /// At most a header and a 64-bit payload.
    Made([u8; 12], usize),
    /// The encoding of a value made while reading (a converted element).
    Encoded(alloc::vec::Vec<u8>),
}

/// The answer to a [`RAW`] request: a map of two entries.
pub(crate) struct RawAccess<'de> {
    /// Entries given so far.
    given: u8,
    code: u64,
    bytes: RawBytes<'de>,
}

impl<'de> RawAccess<'de> {
    /// The answer for a value whose bytes start `bytes`, read with `options` at `depth`.
    pub(crate) fn new(bytes: RawBytes<'de>, options: Options, depth: u16) -> Self {
        let godot3 = u64::from(options.version() == Version::Godot3);
        let objects = u64::from(options.allow_objects()) << 1;
        let game_view = u64::from(options.game_view()) << 2;
        let limit = u64::from(options.max_depth()) << 16;
        let code = godot3 | objects | game_view | limit | (u64::from(depth) << 32);
        RawAccess { given: 0, code, bytes }
    }
}

impl<'de> MapAccess<'de> for RawAccess<'de> {
    type Error = super::DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        let key = match self.given {
            0 => OPTIONS_KEY,
            1 => BYTES_KEY,
            _ => return Ok(None),
        };
        seed.deserialize(BorrowedStrDeserializer::new(key)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        self.given = self.given.saturating_add(1);
        match (self.given, &self.bytes) {
            (1, _) => seed.deserialize(U64Deserializer::new(self.code)),
            (_, RawBytes::Borrowed(bytes)) => {
                seed.deserialize(BorrowedBytesDeserializer::new(bytes))
            }
            (_, RawBytes::Made(bytes, len)) => {
                seed.deserialize(BytesDeserializer::new(bytes.get(..*len).unwrap_or(&[])))
            }
            (_, RawBytes::Encoded(bytes)) => seed.deserialize(BytesDeserializer::new(bytes)),
        }
    }
}

/// Reads a [`RawAccess`] answer into a [`Variant`] (O(n), iterative); anything else is an error.
pub(crate) fn read<'de, A: MapAccess<'de>>(mut map: A) -> Result<Variant, A::Error> {
    let expected = &"a Godot Variant";
    if map.next_key_seed(KeySeed(OPTIONS_KEY))? != Some(true) {
        return Err(A::Error::invalid_type(Unexpected::Map, expected));
    }
    let code: u64 = map.next_value()?;
    if map.next_key_seed(KeySeed(BYTES_KEY))? != Some(true) {
        return Err(A::Error::invalid_type(Unexpected::Map, expected));
    }
    let version = if code & 1 != 0 { Version::Godot3 } else { Version::Godot4 };
    let options = Options::new(version)
        .with_allow_objects(code & 2 != 0)
        .with_game_view(code & 4 != 0)
        .with_max_depth((code >> 16) as u16);
    map.next_value_seed(DecodeSeed { options, depth: (code >> 32) as u16 })
}

/// A key that must be the given one: `true` when it is.
struct KeySeed(&'static str);

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }

    fn visit_str<E: Error>(self, key: &str) -> Result<bool, E> {
        Ok(key == self.0)
    }
}

/// Bytes decoded into a [`Variant`] with these options, at this depth.
struct DecodeSeed {
    options: Options,
    depth: u16,
}

impl DecodeSeed {
    fn decode<E: Error>(&self, bytes: &[u8]) -> Result<Variant, E> {
        let element = Element::new(bytes, 0, bytes.len(), self.options, self.depth);
        Variant::from_element(&element).map_err(E::custom)
    }
}

impl<'de> DeserializeSeed<'de> for DecodeSeed {
    type Value = Variant;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Variant, D::Error> {
        deserializer.deserialize_bytes(self)
    }
}

impl<'de> Visitor<'de> for DecodeSeed {
    type Value = Variant;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the bytes of a Godot value")
    }

    fn visit_bytes<E: Error>(self, bytes: &[u8]) -> Result<Variant, E> {
        self.decode(bytes)
    }

    fn visit_borrowed_bytes<E: Error>(self, bytes: &'de [u8]) -> Result<Variant, E> {
        self.decode(bytes)
    }
}

/// The bytes of a bare scalar that has no position (a top-level `null`, `bool`, `int` or
/// `float` handed to [`from_variant_ref`](super::from_variant_ref)); these four have the same
/// ids in both versions. `None` for anything else.
pub(crate) fn made(value: &crate::VariantRef<'_>) -> Option<RawBytes<'static>> {
    use crate::VariantRef as R;
    const WIDE: u32 = 1 << 16;
    let mut out = [0u8; 12];
    let (header, payload): (u32, [u8; 8]) = match *value {
        R::Nil => (0, [0; 8]),
        R::Bool(b) => (1, u64::from(b).to_le_bytes()),
        R::Int(i) => (2 | WIDE, i.to_le_bytes()),
        R::Float(f) => (3 | WIDE, f.to_le_bytes()),
        _ => return None,
    };
    let len = match header {
        0 => 4,
        1 => 8,
        _ => 12,
    };
    let (head, tail) = out.split_at_mut(4);
    head.copy_from_slice(&header.to_le_bytes());
    tail.copy_from_slice(&payload);
    Some(RawBytes::Made(out, len))
}
