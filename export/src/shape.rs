//! [`Shape`]: the type of a column, inferred from the values seen, and its Arrow type.
//!
//! Inference reads a value's containers through their iterators down to [`MAX_NESTING`]
//! levels (deeper content makes the column JSON), so observing a value is O(bytes x
//! [`MAX_NESTING`]); merging two shapes is O(size of the shapes), and a struct keeps at most
//! [`MAX_FIELDS`] fields.

use std::collections::BTreeSet;
use std::sync::Arc;

use arrow_schema::{DataType, Field, Fields};
use gdvariant::json::{self, FieldKind};
use gdvariant::{VariantRef, VariantType, math::Precision};

/// Levels of lists and structs a column may nest; deeper values make the column JSON.
pub const MAX_NESTING: usize = 8;
/// Fields a struct may have; more make it JSON (a dictionary used as a map, not a record).
pub const MAX_FIELDS: usize = 256;

/// The type of a column.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// Only nulls (or nothing) seen: an Arrow `Null` column.
    Null,
    /// `bool`: `Boolean`.
    Bool,
    /// `int`: `Int64`.
    Int,
    /// `float` (a double in Godot, whatever its width on the wire), or ints and floats mixed:
    /// `Float64`.
    Float,
    /// The elements of a `PackedFloat32Array`: `Float32`.
    Float32,
    /// `String`, `StringName`, `NodePath` (its text): `Utf8`.
    Text,
    /// `PackedByteArray`: `Binary`.
    Bytes,
    /// A math value: a struct of its named components ([`gdvariant::json::math_fields`]),
    /// reals in their wire precision (`Float32`, or `Float64` once a double-precision value
    /// was seen), integer vectors `Int32`.
    Math(VariantType, Precision),
    /// An array or packed array: `List` of the elements' shape.
    List(Box<Shape>),
    /// A dictionary whose keys are all strings: `Struct` of its keys (the union of those seen).
    Struct(Vec<(String, Shape)>),
    /// Anything else (mixed types, other keys, objects, deeper nesting): `Utf8` holding the
    /// value's natural JSON; with the types of the values seen ([`Types`]: two or more when
    /// the values mixed types).
    Json(Types),
}

/// The types of the values a JSON column was given, in the order of [`VariantType`], each
/// named as the column shapes name them: `String` also for `StringName` and `NodePath`, `Array`
/// also for the packed arrays but `PackedByteArray`. Two or more: the values mixed types (a
/// `float` among them may have been an `int`, as ints and floats make a `Float64` column);
/// one: values of that type have no Arrow type (an `Array` of mixed elements, a `Dictionary`
/// with other keys or more than [`MAX_FIELDS`] of them, nesting past [`MAX_NESTING`], an
/// `Object`, `RID`, `Callable` or `Signal`). Nulls are not counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Types(BTreeSet<VariantType>);

impl Types {
    /// The types, in the order of [`VariantType`].
    pub fn iter(&self) -> impl Iterator<Item = VariantType> + '_ {
        self.0.iter().copied()
    }

    /// How many types.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no type was seen (only nulls).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether the values mixed types (two or more).
    pub fn mixed(&self) -> bool {
        self.0.len() > 1
    }

    /// The one type `ty`.
    fn one(ty: VariantType) -> Self {
        Types(BTreeSet::from([ty]))
    }

    /// `self` and `other`.
    fn union(mut self, other: Types) -> Self {
        self.0.extend(other.0);
        self
    }

    /// Whether `value`'s type is among these (a null always is).
    fn holds(&self, value: VariantRef<'_>) -> bool {
        kind(value).is_none_or(|ty| self.0.contains(&ty))
    }
}

/// The type a value counts as in [`Types`]; `None` for a null.
fn kind(value: VariantRef<'_>) -> Option<VariantType> {
    use VariantType as T;
    Some(match value.variant_type() {
        T::Nil => return None,
        T::String | T::StringName | T::NodePath => T::String,
        T::PackedInt32Array
        | T::PackedInt64Array
        | T::PackedFloat32Array
        | T::PackedFloat64Array
        | T::PackedStringArray
        | T::PackedVector2Array
        | T::PackedVector3Array
        | T::PackedVector4Array
        | T::PackedColorArray => T::Array,
        ty => ty,
    })
}

/// The JSON shape of `value` alone.
fn json_of(value: VariantRef<'_>) -> Shape {
    Shape::Json(kind(value).map(Types::one).unwrap_or_default())
}

impl Shape {
    /// The shape of one value, looking `depth` levels deep at most.
    pub fn of(value: VariantRef<'_>, depth: usize) -> Shape {
        use VariantRef as V;
        crate::work(1);
        let math = |precision: Precision| Shape::Math(value.variant_type(), precision);
        match value {
            V::Nil => Shape::Null,
            V::Bool(_) => Shape::Bool,
            V::Int(_) => Shape::Int,
            V::Float(_) => Shape::Float,
            V::String(_) | V::StringName(_) | V::NodePath(_) => Shape::Text,
            V::PackedByteArray(_) => Shape::Bytes,
            V::Vector2(r) => math(r.precision()),
            V::Rect2(r) => math(r.precision()),
            V::Vector3(r) => math(r.precision()),
            V::Transform2D(r) => math(r.precision()),
            V::Vector4(r) => math(r.precision()),
            V::Plane(r) => math(r.precision()),
            V::Quaternion(r) => math(r.precision()),
            V::Aabb(r) => math(r.precision()),
            V::Basis(r) => math(r.precision()),
            V::Transform3D(r) => math(r.precision()),
            V::Projection(r) => math(r.precision()),
            V::Color(_) | V::Vector2i(_) | V::Rect2i(_) | V::Vector3i(_) | V::Vector4i(_) => {
                math(Precision::Single)
            }
            V::PackedInt32Array(_) | V::PackedInt64Array(_) => Shape::List(Box::new(Shape::Int)),
            V::PackedFloat32Array(_) => Shape::List(Box::new(Shape::Float32)),
            V::PackedFloat64Array(_) => Shape::List(Box::new(Shape::Float)),
            V::PackedStringArray(_) => Shape::List(Box::new(Shape::Text)),
            V::PackedVector2Array(p) => packed_math(VariantType::Vector2, p.precision()),
            V::PackedVector3Array(p) => packed_math(VariantType::Vector3, p.precision()),
            V::PackedVector4Array(p) => packed_math(VariantType::Vector4, p.precision()),
            V::PackedColorArray(_) => packed_math(VariantType::Color, Precision::Single),
            V::Array(array) if depth > 0 => {
                let mut element = Shape::Null;
                for item in array.iter() {
                    let Ok(item) = item else { return json_of(value) };
                    element = element.merge(Shape::of(item, depth.saturating_sub(1)));
                    if matches!(element, Shape::Json(_)) {
                        return json_of(value);
                    }
                }
                Shape::List(Box::new(element))
            }
            V::Dictionary(dictionary) if depth > 0 => {
                let mut fields = KeyFields::default();
                for entry in dictionary.iter() {
                    let Ok((key, item)) = entry else { return json_of(value) };
                    let Some(name) = key_text(key) else { return json_of(value) };
                    let shape = Shape::of(item, depth.saturating_sub(1));
                    fields.add(name, shape);
                    if fields.list.len() > MAX_FIELDS {
                        return json_of(value);
                    }
                }
                Shape::Struct(fields.list)
            }
            _ => json_of(value),
        }
    }

    /// The types of the values this shape holds, as [`Types`] counts them (a JSON column's
    /// own; a list is an `Array`, a struct a `Dictionary`).
    pub fn types(&self) -> Types {
        use VariantType as T;
        let ty = match self {
            Shape::Null => return Types::default(),
            Shape::Json(types) => return types.clone(),
            Shape::Bool => T::Bool,
            Shape::Int => T::Int,
            Shape::Float | Shape::Float32 => T::Float,
            Shape::Text => T::String,
            Shape::Bytes => T::PackedByteArray,
            Shape::Math(ty, _) => *ty,
            Shape::List(_) => T::Array,
            Shape::Struct(_) => T::Dictionary,
        };
        Types::one(ty)
    }

    /// Whether this shape already holds `value` looked at `depth` levels deep, that is,
    /// whether merging [`Shape::of`] `value` into it would leave it as it is. Allocates
    /// nothing, so inferring from many rows of the same shape costs about a walk of each
    /// (a `false` only means "merge to know": it is never `true` wrongly). O(bytes x depth),
    /// a dictionary key found among at most [`MAX_FIELDS`] fields.
    pub fn covers(&self, value: VariantRef<'_>, depth: usize) -> bool {
        use Shape as S;
        use VariantRef as V;
        let math = |ty: VariantType, precision: Precision| {
            matches!(self, S::Math(own, p) if *own == ty
                && (*p == Precision::Double || precision == Precision::Single))
        };
        let list = |element: &dyn Fn(&Shape) -> bool| matches!(self, S::List(e) if element(e));
        if let S::Json(types) = self {
            return types.holds(value);
        }
        match value {
            V::Nil => true,
            V::Bool(_) => *self == S::Bool,
            V::Int(_) => matches!(self, S::Int | S::Float),
            V::Float(_) => *self == S::Float,
            V::String(_) | V::StringName(_) | V::NodePath(_) => *self == S::Text,
            V::PackedByteArray(_) => *self == S::Bytes,
            V::Vector2(r) => math(VariantType::Vector2, r.precision()),
            V::Rect2(r) => math(VariantType::Rect2, r.precision()),
            V::Vector3(r) => math(VariantType::Vector3, r.precision()),
            V::Transform2D(r) => math(VariantType::Transform2D, r.precision()),
            V::Vector4(r) => math(VariantType::Vector4, r.precision()),
            V::Plane(r) => math(VariantType::Plane, r.precision()),
            V::Quaternion(r) => math(VariantType::Quaternion, r.precision()),
            V::Aabb(r) => math(VariantType::Aabb, r.precision()),
            V::Basis(r) => math(VariantType::Basis, r.precision()),
            V::Transform3D(r) => math(VariantType::Transform3D, r.precision()),
            V::Projection(r) => math(VariantType::Projection, r.precision()),
            V::Color(_) | V::Vector2i(_) | V::Rect2i(_) | V::Vector3i(_) | V::Vector4i(_) => {
                math(value.variant_type(), Precision::Single)
            }
            V::PackedInt32Array(_) | V::PackedInt64Array(_) => {
                list(&|e| matches!(e, S::Int | S::Float))
            }
            V::PackedFloat32Array(_) => list(&|e| matches!(e, S::Float32 | S::Float)),
            V::PackedFloat64Array(_) => list(&|e| *e == S::Float),
            V::PackedStringArray(_) => list(&|e| *e == S::Text),
            V::PackedVector2Array(p) => {
                list(&|e| e.covers_math(VariantType::Vector2, p.precision()))
            }
            V::PackedVector3Array(p) => {
                list(&|e| e.covers_math(VariantType::Vector3, p.precision()))
            }
            V::PackedVector4Array(p) => {
                list(&|e| e.covers_math(VariantType::Vector4, p.precision()))
            }
            V::PackedColorArray(_) => {
                list(&|e| e.covers_math(VariantType::Color, Precision::Single))
            }
            V::Array(array) if depth > 0 => {
                let S::List(element) = self else { return false };
                array.iter().all(|item| {
                    item.is_ok_and(|item| element.covers(item, depth.saturating_sub(1)))
                })
            }
            V::Dictionary(dictionary) if depth > 0 => {
                let S::Struct(fields) = self else { return false };
                let mut hint = 0usize;
                for entry in dictionary.iter() {
                    let Ok((key, item)) = entry else { return false };
                    let (VariantRef::String(name) | VariantRef::StringName(name)) = key else {
                        return false;
                    };
                    let at = match fields.get(hint) {
                        Some((field, _)) if name.eq_str(field) => hint,
                        _ => match fields.iter().position(|(field, _)| name.eq_str(field)) {
                            Some(at) => at,
                            None => return false,
                        },
                    };
                    let covered = fields
                        .get(at)
                        .is_some_and(|(_, shape)| shape.covers(item, depth.saturating_sub(1)));
                    if !covered {
                        return false;
                    }
                    hint = at.saturating_add(1);
                }
                true
            }
            _ => false,
        }
    }

    /// Whether this shape holds math values of `ty` in `precision`.
    fn covers_math(&self, ty: VariantType, precision: Precision) -> bool {
        matches!(self, Shape::Math(own, p) if *own == ty
            && (*p == Precision::Double || precision == Precision::Single))
    }

    /// The shape that holds values of both shapes (see the variants for the rules).
    pub fn merge(self, other: Shape) -> Shape {
        use Shape as S;
        crate::work(1);
        match (self, other) {
            (S::Null, other) | (other, S::Null) => other,
            (S::Json(types), other) | (other, S::Json(types)) => {
                S::Json(types.union(other.types()))
            }
            (S::Int | S::Float | S::Float32, S::Float)
            | (S::Float, S::Int | S::Float32)
            | (S::Int, S::Float32)
            | (S::Float32, S::Int) => S::Float,
            (S::Math(a, p), S::Math(b, q)) if a == b => {
                let double = p == Precision::Double || q == Precision::Double;
                S::Math(a, if double { Precision::Double } else { Precision::Single })
            }
            (S::List(a), S::List(b)) => match a.merge(*b) {
                // A list of mixed elements is JSON as a whole.
                S::Json(_) => S::Json(Types::one(VariantType::Array)),
                element => S::List(Box::new(element)),
            },
            (S::Struct(mut a), S::Struct(b)) => {
                for (name, shape) in b {
                    add_field(&mut a, name, shape);
                }
                if a.len() > MAX_FIELDS {
                    S::Json(Types::one(VariantType::Dictionary))
                } else {
                    S::Struct(a)
                }
            }
            (a, b) if a == b => a,
            (a, b) => S::Json(a.types().union(b.types())),
        }
    }

    /// The Arrow type of the column.
    pub fn data_type(&self) -> DataType {
        match self {
            Shape::Null => DataType::Null,
            Shape::Bool => DataType::Boolean,
            Shape::Int => DataType::Int64,
            Shape::Float => DataType::Float64,
            Shape::Float32 => DataType::Float32,
            Shape::Text | Shape::Json(_) => DataType::Utf8,
            Shape::Bytes => DataType::Binary,
            Shape::Math(ty, precision) => {
                let leaf = math_leaf(*ty, *precision);
                let fields = json::math_fields(*ty).unwrap_or(&[]);
                DataType::Struct(math_struct(fields, &leaf))
            }
            Shape::List(element) => DataType::List(Arc::new(element.field("item"))),
            Shape::Struct(fields) => {
                DataType::Struct(fields.iter().map(|(name, shape)| shape.field(name)).collect())
            }
        }
    }
}

impl Shape {
    /// The Arrow field of a column of this shape named `name`: nullable; a JSON column carries
    /// the metadata [`JSON_METADATA`] = `"true"`.
    pub fn field(&self, name: &str) -> Field {
        let field = Field::new(name, self.data_type(), true);
        if matches!(self, Shape::Json(_)) {
            let metadata = [(JSON_METADATA.to_owned(), "true".to_owned())];
            field.with_metadata(metadata.into_iter().collect::<std::collections::HashMap<_, _>>())
        } else {
            field
        }
    }
}

/// The field metadata key that marks a column of natural JSON text.
pub const JSON_METADATA: &str = "gdvariant.json";

/// A dictionary key's text, when it is a `String` or a `StringName`.
pub fn key_text(key: VariantRef<'_>) -> Option<String> {
    match key {
        VariantRef::String(s) | VariantRef::StringName(s) => {
            crate::work((s.text_bytes().len() >> 6).saturating_add(1));
            s.to_text().ok().map(|text| text.into_owned())
        }
        _ => None,
    }
}

/// Adds `shape` to the field `name` (merging with a field of that name), keeping first-seen
/// order.
/// O([`MAX_FIELDS`]) comparisons, each O(1) unless the lengths are equal.
fn add_field(fields: &mut Vec<(String, Shape)>, name: String, shape: Shape) {
    let found = fields.iter_mut().find(|(existing, _)| {
        crate::work(if existing.len() == name.len() {
            (name.len() >> 6).saturating_add(1)
        } else {
            1
        });
        *existing == name
    });
    match found {
        Some((_, existing)) => *existing = std::mem::replace(existing, Shape::Null).merge(shape),
        None => fields.push((name, shape)),
    }
}

/// A struct's fields being gathered, found by name in O(1) each once there are more than a
/// few (a dictionary of many keys is read in O(its bytes), not O(keys x fields)).
#[derive(Clone, Debug, Default)]
pub(crate) struct KeyFields {
    /// Names and shapes, in first-seen order.
    pub(crate) list: Vec<(String, Shape)>,
    /// Each field's position, by name (built when the list passes [`KeyKeyFields::SCAN`]).
    index: std::collections::HashMap<String, usize>,
}

impl KeyFields {
    /// Fields found by comparing names one by one; past that, by the index.
    const SCAN: usize = 8;

    /// Whether the fields already hold every entry of `dictionary` (a row looked at `depth`
    /// levels deep): each key a field whose shape [covers](Shape::covers) its value, so adding
    /// the row would change nothing. Allocates nothing (a `false` only means "add it to know").
    /// O(bytes x depth), each key found by hash once the fields are indexed.
    pub(crate) fn covers(
        &self,
        dictionary: gdvariant::view::DictionaryRef<'_>,
        depth: usize,
    ) -> bool {
        for entry in dictionary.iter() {
            let Ok((key, item)) = entry else { return false };
            let (VariantRef::String(name) | VariantRef::StringName(name)) = key else {
                return false;
            };
            let Ok(text) = name.to_str() else { return false };
            crate::work((text.len() >> 5).saturating_add(1));
            let at = if self.index.is_empty() {
                self.list.iter().position(|(field, _)| field == text)
            } else {
                self.index.get(text).copied()
            };
            let Some((_, shape)) = at.and_then(|at| self.list.get(at)) else { return false };
            if !shape.covers(item, depth.saturating_sub(1)) {
                return false;
            }
        }
        true
    }

    /// Adds `shape` to the field `name` (merging with a field of that name). O(name) once
    /// indexed, else [`KeyKeyFields::SCAN`] comparisons at most.
    pub(crate) fn add(&mut self, name: String, shape: Shape) {
        if self.list.len() <= KeyFields::SCAN {
            add_field(&mut self.list, name, shape);
            if self.list.len() > KeyFields::SCAN {
                for (i, (field, _)) in self.list.iter().enumerate() {
                    crate::work((field.len() >> 6).saturating_add(1));
                    self.index.insert(field.clone(), i);
                }
            }
            return;
        }
        crate::work((name.len() >> 5).saturating_add(1));
        match self.index.get(&name).and_then(|&at| self.list.get_mut(at)) {
            Some((_, existing)) => {
                *existing = std::mem::replace(existing, Shape::Null).merge(shape)
            }
            None => {
                self.index.insert(name.clone(), self.list.len());
                self.list.push((name, shape));
            }
        }
    }
}

/// A list of math values.
fn packed_math(ty: VariantType, precision: Precision) -> Shape {
    Shape::List(Box::new(Shape::Math(ty, precision)))
}

/// The Arrow type of a math type's components.
pub fn math_leaf(ty: VariantType, precision: Precision) -> DataType {
    match ty {
        VariantType::Vector2i
        | VariantType::Vector3i
        | VariantType::Vector4i
        | VariantType::Rect2i => DataType::Int32,
        VariantType::Color => DataType::Float32,
        _ if precision == Precision::Double => DataType::Float64,
        _ => DataType::Float32,
    }
}

/// The struct fields of a math value (the static tables nest three levels at most).
fn math_struct(fields: &[json::Field], leaf: &DataType) -> Fields {
    fields
        .iter()
        .map(|field| {
            let data_type = match field.kind {
                FieldKind::Component(_) => leaf.clone(),
                FieldKind::Group(inner) => DataType::Struct(math_struct(inner, leaf)),
            };
            Field::new(field.name, data_type, true)
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    /// Values of many kinds: Godot 4.6's `store_var` of 11 values, and the corpus's values.
    fn sample_values() -> Vec<Vec<u8>> {
        use gdvariant::framing::{self, LengthPrefix};
        let dump = include_bytes!("../../corpus/godot4/stream_file_store_var.bin");
        let mut values: Vec<Vec<u8>> =
            framing::frames(dump, LengthPrefix::store_var(false), gdvariant::Options::godot4())
                .map(|frame| frame.unwrap().payload().to_vec())
                .collect();
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/godot4");
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if !path.is_file() || path.extension().is_none_or(|e| e != "bin") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            if gdvariant::validate(&bytes, gdvariant::Options::godot4()).is_ok() {
                values.push(bytes);
            }
        }
        values
    }

    #[test]
    fn covering_is_never_claimed_wrongly_and_a_shape_covers_its_own_value() {
        let bytes = sample_values();
        let options = gdvariant::Options::godot4();
        let values: Vec<_> = bytes.iter().map(|b| gdvariant::parse(b, options).unwrap()).collect();
        assert!(values.len() > 20, "{}", values.len());
        let mut own = 0;
        for a in &values {
            for depth in [0, 1, MAX_NESTING] {
                let shape = Shape::of(*a, depth);
                own += usize::from(shape.covers(*a, depth));
                for b in &values {
                    if shape.covers(*b, depth) {
                        let merged = shape.clone().merge(Shape::of(*b, depth));
                        assert_eq!(merged, shape, "{a:?} covers {b:?} at {depth}");
                    }
                }
            }
        }
        // Every value but those whose shape widens itself (mixed elements) is covered.
        assert!(own * 10 >= values.len() * 3 * 9, "{own} of {}", values.len() * 3);
    }

    #[test]
    fn merging_follows_the_documented_rules() {
        use Shape as S;
        assert_eq!(S::Null.merge(S::Int), S::Int);
        assert_eq!(S::Int.merge(S::Float), S::Float);
        let types = |list: &[VariantType]| S::Json(Types(list.iter().copied().collect()));
        assert_eq!(S::Int.merge(S::Text), types(&[VariantType::Int, VariantType::String]));
        // Types seen after the column became JSON are added, whichever side they come from.
        assert_eq!(
            S::Bool.merge(S::Int.merge(S::Text)),
            types(&[VariantType::Bool, VariantType::Int, VariantType::String])
        );
        assert_eq!(
            S::List(Box::new(S::Int)).merge(S::List(Box::new(S::Text))),
            types(&[VariantType::Array])
        );
        assert_eq!(
            S::Math(VariantType::Vector2, Precision::Single)
                .merge(S::Math(VariantType::Vector2, Precision::Double)),
            S::Math(VariantType::Vector2, Precision::Double)
        );
        assert_eq!(
            S::Math(VariantType::Vector2, Precision::Single)
                .merge(S::Math(VariantType::Vector3, Precision::Single)),
            types(&[VariantType::Vector2, VariantType::Vector3])
        );
        let a = S::Struct(vec![("a".into(), S::Int)]);
        let b = S::Struct(vec![("b".into(), S::Text), ("a".into(), S::Null)]);
        assert_eq!(a.merge(b), S::Struct(vec![("a".into(), S::Int), ("b".into(), S::Text)]));
        assert_eq!(
            S::List(Box::new(S::Int)).merge(S::List(Box::new(S::Null))),
            S::List(Box::new(S::Int))
        );
    }
}
