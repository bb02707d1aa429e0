//! A packed array as a sequence: its numbers, strings, or math values (each a sequence of
//! its reals) read in place.

use super::*;

/// The items of a packed array.
pub(super) enum Items<'de> {
    Bytes(&'de [u8]),
    Int32(Packed<'de, i32>),
    Int64(Packed<'de, i64>),
    Float32(Packed<'de, f32>),
    Float64(Packed<'de, f64>),
    Strings(PackedStringsIter<'de>),
    Vector2(PackedReals<'de, Vector2<f32>, Vector2<f64>>),
    Vector3(PackedReals<'de, Vector3<f32>, Vector3<f64>>),
    Vector4(PackedReals<'de, Vector4<f32>, Vector4<f64>>),
    Colors(Packed<'de, Color<f32>>),
}

impl Items<'_> {
    pub(super) fn len(&self) -> usize {
        match self {
            Items::Bytes(bytes) => bytes.len(),
            Items::Int32(p) => p.len(),
            Items::Int64(p) => p.len(),
            Items::Float32(p) => p.len(),
            Items::Float64(p) => p.len(),
            Items::Strings(strings) => strings.size_hint().1.unwrap_or(0),
            Items::Vector2(p) => p.len(),
            Items::Vector3(p) => p.len(),
            Items::Vector4(p) => p.len(),
            Items::Colors(p) => p.len(),
        }
    }
}

/// A packed array's items, each with its offset when the array's is known.
pub(super) struct PackedAccess<'de> {
    pub(super) items: Items<'de>,
    pub(super) index: usize,
    pub(super) len: usize,
    /// The offset of the first item.
    pub(super) data: Option<usize>,
}

impl<'de> PackedAccess<'de> {
    pub(super) fn new(items: Items<'de>, data: Option<usize>) -> Self {
        PackedAccess { len: items.len(), items, index: 0, data }
    }
}

/// The part of a packed vector: single-precision components exactly as on the wire,
/// double-precision ones with their NaNs quiet (as `decode` reads them).
macro_rules! vector_part {
    ($packed:expr, $index:expr, $variant:ident, $offset:ident, $at:ident) => {
        match $packed {
            PackedReals::Single(p) => {
                $offset = $at(size_of::<$variant<f32>>());
                p.get($index).map(|v| Part::$variant(v.map(Leaf::F32)))
            }
            PackedReals::Double(p) => {
                $offset = $at(size_of::<$variant<f64>>());
                p.get($index).map(|v| {
                    Part::$variant(v.map(|c| Leaf::F64(crate::wire::exact_float::quiet(c))))
                })
            }
        }
    };
}

impl<'de> SeqAccess<'de> for PackedAccess<'de> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        let index = self.index;
        if index >= self.len {
            return Ok(None);
        }
        self.index = index.saturating_add(1);
        let data = self.data;
        let at = |size: usize| data.and_then(|d| index.checked_mul(size)?.checked_add(d));
        let mut offset = None;
        let result = match &mut self.items {
            Items::Bytes(bytes) => {
                offset = at(1);
                bytes.get(index).map(|&b| seed.deserialize(U8Deserializer::new(b)))
            }
            Items::Int32(p) => {
                offset = at(4);
                p.get(index).map(|x| seed.deserialize(I32Deserializer::new(x)))
            }
            Items::Int64(p) => {
                offset = at(8);
                p.get(index).map(|x| seed.deserialize(I64Deserializer::new(x)))
            }
            Items::Float32(p) => {
                offset = at(4);
                p.get(index).map(|x| seed.deserialize(F32Deserializer::new(x)))
            }
            Items::Float64(p) => {
                offset = at(8);
                p.get(index).map(|x| seed.deserialize(F64Deserializer::new(x)))
            }
            Items::Strings(strings) => strings.next().map(|string| {
                let string = string?;
                offset = string.offset().checked_sub(4);
                text_seed(seed, &string)
            }),
            Items::Vector2(p) => vector_part!(p, index, Vector2, offset, at)
                .map(|part| seed.deserialize(PartDeserializer { part, offset })),
            Items::Vector3(p) => vector_part!(p, index, Vector3, offset, at)
                .map(|part| seed.deserialize(PartDeserializer { part, offset })),
            Items::Vector4(p) => vector_part!(p, index, Vector4, offset, at)
                .map(|part| seed.deserialize(PartDeserializer { part, offset })),
            Items::Colors(p) => {
                offset = at(16);
                p.get(index).map(|c| {
                    let part = Part::Color(c.map(Leaf::F32));
                    seed.deserialize(PartDeserializer { part, offset })
                })
            }
        };
        result
            .transpose()
            .map_err(|error| error.or_offset(offset).within(PathSegment::Index(index)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.len.saturating_sub(self.index))
    }
}
