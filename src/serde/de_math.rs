//! Math values (and signals) as the struct-mapping deserializer shows them: maps with their
//! field names, nested as the types nest (`Rect2` is `{"position": {"x", "y"}, "size": ...}`),
//! `Basis` rows and `Projection` columns as sequences. A math value also reads as a sequence of
//! its fields, for tuple-like targets.

use ::serde::de::value::BorrowedStrDeserializer;
use ::serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use alloc::string::String;

use super::error::{DeError, PathSegment};
use crate::VariantRef;
use crate::view::math::{
    Aabb, Basis, Color, Plane, Projection, Quaternion, Rect2, Transform2D, Transform3D, Vector2,
    Vector3, Vector4,
};

/// One number or string inside a math value or a signal.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Leaf<'de> {
    /// A single-precision component, exactly as on the wire.
    F32(f32),
    /// A double-precision component.
    F64(f64),
    /// An integer component (`Vector2i`, ...).
    I32(i32),
    /// An object id.
    U64(u64),
    /// A name.
    Str(&'de str),
}

/// A math value, a part of one, or a signal.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Part<'de> {
    Leaf(Leaf<'de>),
    Vector2(Vector2<Leaf<'de>>),
    Vector3(Vector3<Leaf<'de>>),
    Vector4(Vector4<Leaf<'de>>),
    Rect2(Rect2<Leaf<'de>>),
    Transform2D(Transform2D<Leaf<'de>>),
    Plane(Plane<Leaf<'de>>),
    Quaternion(Quaternion<Leaf<'de>>),
    Aabb(Aabb<Leaf<'de>>),
    Basis(Basis<Leaf<'de>>),
    Transform3D(Transform3D<Leaf<'de>>),
    Projection(Projection<Leaf<'de>>),
    Color(Color<Leaf<'de>>),
    /// `Basis::rows`.
    Rows([Vector3<Leaf<'de>>; 3]),
    /// `Projection::columns`.
    Columns([Vector4<Leaf<'de>>; 4]),
    Signal {
        name: &'de str,
        object_id: u64,
    },
}

const XY: &[&str] = &["x", "y"];
const XYZ: &[&str] = &["x", "y", "z"];
const XYZW: &[&str] = &["x", "y", "z", "w"];
const RGBA: &[&str] = &["r", "g", "b", "a"];

impl<'de> Part<'de> {
    /// The field names of a struct-like part; empty for leaves and sequences.
    fn fields(&self) -> &'static [&'static str] {
        match self {
            Part::Leaf(_) | Part::Rows(_) | Part::Columns(_) => &[],
            Part::Vector2(_) => XY,
            Part::Vector3(_) => XYZ,
            Part::Vector4(_) | Part::Quaternion(_) => XYZW,
            Part::Rect2(_) | Part::Aabb(_) => &["position", "size"],
            Part::Transform2D(_) => &["x", "y", "origin"],
            Part::Plane(_) => &["normal", "d"],
            Part::Basis(_) => &["rows"],
            Part::Transform3D(_) => &["basis", "origin"],
            Part::Projection(_) => &["columns"],
            Part::Color(_) => RGBA,
            Part::Signal { .. } => &["name", "object_id"],
        }
    }

    /// The number of fields or elements.
    fn len(&self) -> usize {
        match self {
            Part::Rows(_) => 3,
            Part::Columns(_) => 4,
            other => other.fields().len(),
        }
    }

    /// Field or element `index`.
    fn get(&self, index: usize) -> Option<Part<'de>> {
        use Part as P;
        let l = P::Leaf;
        fn nth<'de, const N: usize>(index: usize, parts: [Part<'de>; N]) -> Option<Part<'de>> {
            parts.get(index).copied()
        }
        match *self {
            P::Leaf(_) => None,
            P::Vector2(v) => nth(index, [l(v.x), l(v.y)]),
            P::Vector3(v) => nth(index, [l(v.x), l(v.y), l(v.z)]),
            P::Vector4(v) => nth(index, [l(v.x), l(v.y), l(v.z), l(v.w)]),
            P::Quaternion(q) => nth(index, [l(q.x), l(q.y), l(q.z), l(q.w)]),
            P::Color(c) => nth(index, [l(c.r), l(c.g), l(c.b), l(c.a)]),
            P::Rect2(r) => nth(index, [P::Vector2(r.position), P::Vector2(r.size)]),
            P::Aabb(a) => nth(index, [P::Vector3(a.position), P::Vector3(a.size)]),
            P::Transform2D(t) => {
                nth(index, [P::Vector2(t.x), P::Vector2(t.y), P::Vector2(t.origin)])
            }
            P::Plane(p) => nth(index, [P::Vector3(p.normal), l(p.d)]),
            P::Basis(b) => nth(index, [P::Rows(b.rows)]),
            P::Transform3D(t) => nth(index, [P::Basis(t.basis), P::Vector3(t.origin)]),
            P::Projection(p) => nth(index, [P::Columns(p.columns)]),
            P::Rows(rows) => rows.get(index).map(|row| P::Vector3(*row)),
            P::Columns(columns) => columns.get(index).map(|column| P::Vector4(*column)),
            P::Signal { name, object_id } => {
                nth(index, [l(Leaf::Str(name)), l(Leaf::U64(object_id))])
            }
        }
    }

    /// Whether the part is a sequence even to `deserialize_any`.
    fn is_seq(&self) -> bool {
        matches!(self, Part::Rows(_) | Part::Columns(_))
    }
}

/// The part of a math value (single-precision components exactly as on the wire,
/// double-precision ones with their NaNs quiet, as `decode` reads them), or of a signal.
macro_rules! reals {
    ($reals:expr, $variant:ident) => {
        Part::$variant(match $reals.get_f32() {
            Some(single) => single.map(Leaf::F32),
            None => $reals.get().map(|c| Leaf::F64(crate::wire::exact_float::quiet(c))),
        })
    };
}

/// The math value or signal `value` as a [`Part`]; `Ok(None)` for other types.
///
/// # Errors
/// A signal name that is not text.
pub(crate) fn part_of<'de>(value: &VariantRef<'de>) -> Result<Option<Part<'de>>, DeError> {
    use VariantRef as V;
    Ok(Some(match *value {
        V::Vector2(v) => reals!(v, Vector2),
        V::Vector3(v) => reals!(v, Vector3),
        V::Vector4(v) => reals!(v, Vector4),
        V::Rect2(v) => reals!(v, Rect2),
        V::Transform2D(v) => reals!(v, Transform2D),
        V::Plane(v) => reals!(v, Plane),
        V::Quaternion(v) => reals!(v, Quaternion),
        V::Aabb(v) => reals!(v, Aabb),
        V::Basis(v) => reals!(v, Basis),
        V::Transform3D(v) => reals!(v, Transform3D),
        V::Projection(v) => reals!(v, Projection),
        V::Vector2i(v) => Part::Vector2(v.map(Leaf::I32)),
        V::Vector3i(v) => Part::Vector3(v.map(Leaf::I32)),
        V::Vector4i(v) => Part::Vector4(v.map(Leaf::I32)),
        V::Rect2i(v) => Part::Rect2(v.map(Leaf::I32)),
        V::Color(c) => Part::Color(c.map(Leaf::F32)),
        V::Signal(signal) => {
            Part::Signal { name: signal.name().to_str()?, object_id: signal.object_id() }
        }
        _ => return Ok(None),
    }))
}

/// Deserializes one [`Part`]; errors get the offset of the math value it belongs to.
pub(crate) struct PartDeserializer<'de> {
    pub(crate) part: Part<'de>,
    pub(crate) offset: Option<usize>,
}

impl<'de> PartDeserializer<'de> {
    fn seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let offset = self.offset;
        visitor
            .visit_seq(PartAccess { part: self.part, index: 0, offset })
            .map_err(|e| e.or_offset(offset))
    }
}

impl<'de> Deserializer<'de> for PartDeserializer<'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let offset = self.offset;
        let result = match self.part {
            Part::Leaf(Leaf::F32(x)) => visitor.visit_f32(x),
            Part::Leaf(Leaf::F64(x)) => visitor.visit_f64(x),
            Part::Leaf(Leaf::I32(x)) => visitor.visit_i32(x),
            Part::Leaf(Leaf::U64(x)) => visitor.visit_u64(x),
            Part::Leaf(Leaf::Str(x)) => visitor.visit_borrowed_str(x),
            part if part.is_seq() => visitor.visit_seq(PartAccess { part, index: 0, offset }),
            part => visitor.visit_map(PartAccess { part, index: 0, offset }),
        };
        result.map_err(|e| e.or_offset(offset))
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.part {
            Part::Leaf(_) => self.deserialize_any(visitor),
            _ => self.seq(visitor),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_unit()
    }

    ::serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct map struct enum identifier
    }
}

/// The fields (as a map) or the elements (as a sequence) of a [`Part`].
struct PartAccess<'de> {
    part: Part<'de>,
    index: usize,
    offset: Option<usize>,
}

impl<'de> PartAccess<'de> {
    /// Deserializes field or element `index` and moves past it.
    fn next<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
        segment: impl FnOnce(usize) -> PathSegment,
    ) -> Result<Option<T::Value>, DeError> {
        let index = self.index;
        let Some(part) = self.part.get(index) else { return Ok(None) };
        self.index = index.saturating_add(1);
        seed.deserialize(PartDeserializer { part, offset: self.offset })
            .map(Some)
            .map_err(|e| e.within(segment(index)))
    }
}

impl<'de> MapAccess<'de> for PartAccess<'de> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let Some(&name) = self.part.fields().get(self.index) else { return Ok(None) };
        seed.deserialize(BorrowedStrDeserializer::<DeError>::new(name)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let fields = self.part.fields();
        let segment = |index: usize| {
            PathSegment::Field(String::from(fields.get(index).copied().unwrap_or_default()))
        };
        self.next(seed, segment)?.ok_or_else(|| ::serde::de::Error::custom("no value left"))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.part.len().saturating_sub(self.index))
    }
}

impl<'de> SeqAccess<'de> for PartAccess<'de> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        self.next(seed, PathSegment::Index)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.part.len().saturating_sub(self.index))
    }
}
