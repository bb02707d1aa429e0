//! [`Column`]: the values of one column of a batch, appended row by row from [`VariantRef`]s,
//! then made an Arrow array.
//!
//! Appending a value is O(its bytes x the column's nesting), at most [`MAX_NESTING`] plus
//! three levels (a math value's groups): the recursion follows the column's shape, never the
//! value's own nesting, and a JSON column is written by one cursor pass. A value that does not
//! fit the shape is a [`Misfit`]; the caller then cuts every column back to the rows before it
//! ([`Column::truncate`]), so a rejected row leaves nothing behind.
//!
//! [`MAX_NESTING`]: crate::shape::MAX_NESTING
//!
//! This file holds the column's kinds and appending a row's value or a lookup's find;
//! `append.rs` the values that fill several buffers or child columns, `finish.rs` cutting back
//! and the Arrow array.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::{
    ArrayRef, BinaryArray, BooleanArray, Float32Array, Float64Array, Int32Array, Int64Array,
    ListArray, NullArray, StringArray, StructArray,
};
use arrow_buffer::{NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field};
use gdvariant::json::{self, FieldKind};
use gdvariant::packed::PackedElement;
use gdvariant::{VariantRef, VariantType, math::Precision, packed::Packed, packed::PackedReals};

use crate::path::Found;
use crate::shape::{Shape, math_leaf};

mod append;
mod finish;

/// Why a value does not fit its column.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Misfit {
    /// The value's type is not the column's (`"pos": expected Vector2, found String`).
    Type {
        /// The column (or struct field) path.
        column: String,
        /// What the column holds.
        expected: String,
        /// The value's Godot type.
        found: VariantType,
    },
    /// A dictionary holds a key that is not among the struct's fields (or not a string).
    Key {
        /// The column (or struct field) path.
        column: String,
        /// The key's text (or its type).
        key: String,
    },
    /// A dictionary repeats a key (Godot keeps the last value; a row cannot say so).
    RepeatedKey {
        /// The column (or struct field) path.
        column: String,
        /// The key's text.
        key: String,
    },
    /// The value is malformed (only for values that were not validated first).
    Malformed(gdvariant::Error),
    /// A batch's text passed 2 GiB.
    TooLarge,
}

impl std::fmt::Display for Misfit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Misfit::Type { column, expected, found } => {
                write!(f, "column {column:?}: expected {expected}, found {found:?}")
            }
            Misfit::Key { column, key } => {
                write!(f, "column {column:?}: key {key:?} not in the schema")
            }
            Misfit::RepeatedKey { column, key } => {
                write!(f, "column {column:?}: key {key:?} repeated")
            }
            Misfit::Malformed(error) => write!(f, "malformed value: {error}"),
            Misfit::TooLarge => f.write_str("the batch's text passed 2 GiB"),
        }
    }
}

impl std::error::Error for Misfit {}

/// Components of a math value, in wire order.
pub(crate) enum Components {
    /// Reals (widened to f64).
    Reals([f64; 16]),
    /// Integers.
    Ints([i32; 4]),
}

/// One column's values.
pub struct Column {
    /// The column's path, for messages.
    name: String,
    shape: Shape,
    valid: Vec<bool>,
    data: Data,
}

/// The values of a [`Column`], by shape.
enum Data {
    Null,
    Bool(Vec<bool>),
    Int(Vec<i64>),
    Int32(Vec<i32>),
    Float(Vec<f64>),
    Float32(Vec<f32>),
    /// Text, JSON and bytes: offsets into one buffer.
    Bytes {
        offsets: Vec<i32>,
        bytes: Vec<u8>,
    },
    List {
        offsets: Vec<i32>,
        child: Box<Column>,
    },
    /// A dictionary: a column per key (`keys`, in schema order, found by `index`), and which
    /// keys the current row has given.
    Struct {
        fields: Vec<Column>,
        keys: Vec<String>,
        index: HashMap<String, usize>,
        seen: Vec<bool>,
    },
    /// A math value (or a group inside one, `ty` then `Nil`): a struct of the named
    /// components of `spec`.
    Math {
        ty: VariantType,
        spec: &'static [json::Field],
        fields: Vec<Column>,
    },
}

impl Column {
    /// An empty column named `name` (a path such as `pos` or `players/item/name`) of `shape`.
    pub fn new(name: &str, shape: &Shape) -> Column {
        let data = match shape {
            Shape::Null => Data::Null,
            Shape::Bool => Data::Bool(Vec::new()),
            Shape::Int => Data::Int(Vec::new()),
            Shape::Float => Data::Float(Vec::new()),
            Shape::Float32 => Data::Float32(Vec::new()),
            Shape::Text | Shape::Json(_) | Shape::Bytes => {
                Data::Bytes { offsets: vec![0], bytes: Vec::new() }
            }
            Shape::List(element) => Data::List {
                offsets: vec![0],
                child: Box::new(Column::new(&format!("{name}/item"), element)),
            },
            Shape::Struct(fields) => Data::Struct {
                fields: fields
                    .iter()
                    .map(|(field, shape)| {
                        Column::new(&format!("{name}/{}", crate::path::segment(field)), shape)
                    })
                    .collect(),
                keys: fields.iter().map(|(field, _)| field.clone()).collect(),
                index: fields.iter().zip(0..).map(|((field, _), i)| (field.clone(), i)).collect(),
                seen: vec![false; fields.len()],
            },
            Shape::Math(ty, precision) => {
                let leaf = math_leaf(*ty, *precision);
                let spec = json::math_fields(*ty).unwrap_or(&[]);
                Data::Math { ty: *ty, spec, fields: math_columns(name, spec, &leaf) }
            }
        };
        Column { name: name.to_owned(), shape: shape.clone(), valid: Vec::new(), data }
    }

    /// Makes room for `rows` more rows (their values' own contents aside: list elements and
    /// text bytes grow as they come).
    pub fn reserve(&mut self, rows: usize) {
        self.valid.reserve(rows);
        match &mut self.data {
            Data::Null => {}
            Data::Bool(values) => values.reserve(rows),
            Data::Int(values) => values.reserve(rows),
            Data::Int32(values) => values.reserve(rows),
            Data::Float(values) => values.reserve(rows),
            Data::Float32(values) => values.reserve(rows),
            Data::Bytes { offsets, .. } | Data::List { offsets, .. } => offsets.reserve(rows),
            Data::Struct { fields, .. } | Data::Math { fields, .. } => {
                for field in fields {
                    field.reserve(rows);
                }
            }
        }
    }

    /// Rows in the column.
    pub fn len(&self) -> usize {
        self.valid.len()
    }

    /// Whether the column has no rows.
    pub fn is_empty(&self) -> bool {
        self.valid.is_empty()
    }

    /// Appends `value` (`None`: a null, for a missing key).
    ///
    /// # Errors
    /// A [`Misfit`] when the value does not fit; the column may then hold part of it: cut it
    /// back with [`truncate`](Self::truncate).
    pub fn push(&mut self, value: Option<VariantRef<'_>>) -> Result<(), Misfit> {
        crate::work(1);
        let value = match value {
            None | Some(VariantRef::Nil) => return self.push_null(),
            Some(value) => value,
        };
        if matches!(self.shape, Shape::Json(_)) {
            return self.push_json(value);
        }
        let found = value.variant_type();
        let fits = match (&mut self.data, value) {
            (Data::Bool(values), VariantRef::Bool(b)) => {
                values.push(b);
                true
            }
            (Data::Int(values), VariantRef::Int(i)) => {
                values.push(i);
                true
            }
            (Data::Float(values), VariantRef::Float(f)) => {
                values.push(f);
                true
            }
            (Data::Float(values), VariantRef::Int(i)) => match exact_f64(i) {
                Some(f) => {
                    values.push(f);
                    true
                }
                None => false,
            },
            (Data::Float32(values), VariantRef::Float(f)) => match exact_f32(f) {
                Some(f) => {
                    values.push(f);
                    true
                }
                None => false,
            },
            (Data::Bytes { offsets, bytes }, VariantRef::String(s) | VariantRef::StringName(s))
                if self.shape == Shape::Text =>
            {
                let text = s.to_text().map_err(Misfit::Malformed)?;
                crate::work(text.len() >> 5);
                bytes.extend_from_slice(text.as_bytes());
                end_item(offsets, bytes.len())?;
                true
            }
            (Data::Bytes { offsets, bytes }, VariantRef::NodePath(path))
                if self.shape == Shape::Text =>
            {
                let text = path.to_text().map_err(Misfit::Malformed)?;
                crate::work(text.len() >> 5);
                bytes.extend_from_slice(text.as_bytes());
                end_item(offsets, bytes.len())?;
                true
            }
            (Data::Bytes { offsets, bytes }, VariantRef::PackedByteArray(b))
                if self.shape == Shape::Bytes =>
            {
                crate::work(b.len() >> 6);
                bytes.extend_from_slice(b);
                end_item(offsets, bytes.len())?;
                true
            }
            (Data::List { .. }, _) => return self.push_list(value),
            (Data::Struct { .. }, VariantRef::Dictionary(_)) => return self.push_struct(value),
            (Data::Math { ty, .. }, _) if *ty == found => match components(value) {
                Some(components) => {
                    self.push_components(&components)?;
                    true
                }
                None => false,
            },
            _ => false,
        };
        if !fits {
            return Err(self.mismatch(found));
        }
        self.valid.push(true);
        Ok(())
    }

    /// Appends what a column path found ([`crate::path::resolve`]; `None`: a null).
    ///
    /// # Errors
    /// As [`push`](Self::push).
    pub fn push_found(&mut self, found: Option<Found<'_>>) -> Result<(), Misfit> {
        match found {
            None => self.push(None),
            Some(Found::Value(value)) => self.push(Some(value)),
            Some(Found::Int(int)) => self.push(Some(VariantRef::Int(int.into()))),
            Some(Found::Real(real)) => self.push(Some(VariantRef::Float(real))),
            Some(Found::Real32(real)) => match &mut self.data {
                Data::Float32(values) => {
                    values.push(real);
                    self.valid.push(true);
                    Ok(())
                }
                _ => self.push(Some(VariantRef::Float(real.into()))),
            },
        }
    }

    /// A [`Misfit::Type`] for a value of type `found`.
    fn mismatch(&self, found: VariantType) -> Misfit {
        let expected = match &self.shape {
            Shape::Math(ty, _) => format!("{ty:?}"),
            Shape::List(_) => "an array".to_owned(),
            Shape::Struct(_) => "a dictionary".to_owned(),
            Shape::Null => "null".to_owned(),
            Shape::Text => "a string".to_owned(),
            other => format!("{other:?}").to_lowercase(),
        };
        Misfit::Type { column: self.name.clone(), expected, found }
    }

    /// Appends a null.
    fn push_null(&mut self) -> Result<(), Misfit> {
        crate::work(1);
        match &mut self.data {
            Data::Null => {}
            Data::Bool(values) => values.push(false),
            Data::Int(values) => values.push(0),
            Data::Int32(values) => values.push(0),
            Data::Float(values) => values.push(0.0),
            Data::Float32(values) => values.push(0.0),
            Data::Bytes { offsets, bytes } => end_item(offsets, bytes.len())?,
            Data::List { offsets, child } => end_item(offsets, child.len())?,
            Data::Struct { fields, .. } | Data::Math { fields, .. } => {
                for field in fields {
                    field.push_null()?;
                }
            }
        }
        self.valid.push(false);
        Ok(())
    }
}

/// Text written into a byte buffer (every write is a `str`, so the bytes stay UTF-8).
struct Utf8Sink<'a>(&'a mut Vec<u8>);

impl std::fmt::Write for Utf8Sink<'_> {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        self.0.extend_from_slice(text.as_bytes());
        Ok(())
    }
}

/// A number from a packed array.
enum Number {
    Int(i64),
    Float(f64),
    Float32(f32),
}

/// `i` as an f64, when exact.
fn exact_f64(i: i64) -> Option<f64> {
    #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)] // checked
    let f = i as f64;
    (f as i64 == i && f != 9_223_372_036_854_775_808.0).then_some(f)
}

/// `f` as an f32, when exact (NaN stays NaN).
fn exact_f32(f: f64) -> Option<f32> {
    #[allow(clippy::cast_possible_truncation)] // checked
    let narrow = f as f32;
    (f64::from(narrow) == f || f.is_nan()).then_some(narrow)
}

/// Ends an item of a list or byte column at `end`.
fn end_item(offsets: &mut Vec<i32>, end: usize) -> Result<(), Misfit> {
    offsets.push(i32::try_from(end).map_err(|_| Misfit::TooLarge)?);
    Ok(())
}

/// Moves values into an Arrow buffer.
fn take_buffer<T: arrow_buffer::ArrowNativeType>(values: &mut Vec<T>) -> ScalarBuffer<T> {
    ScalarBuffer::from(std::mem::take(values))
}

/// Moves offsets into an Arrow offset buffer, leaving `[0]`.
fn take_offsets(offsets: &mut Vec<i32>) -> OffsetBuffer<i32> {
    let taken = std::mem::replace(offsets, vec![0]);
    // Offsets are appended in increasing order from 0.
    OffsetBuffer::new(ScalarBuffer::from(taken))
}

/// The columns of a math value's named fields (groups are math columns of shape `Json`, which
/// marks them as groups).
fn math_columns(name: &str, spec: &'static [json::Field], leaf: &DataType) -> Vec<Column> {
    spec.iter()
        .map(|field| {
            let name = format!("{name}/{}", field.name);
            let (shape, data) = match (field.kind, leaf) {
                (FieldKind::Group(inner), _) => {
                    let fields = math_columns(&name, inner, leaf);
                    (
                        Shape::Json(Default::default()),
                        Data::Math { ty: VariantType::Nil, spec: inner, fields },
                    )
                }
                (FieldKind::Component(_), DataType::Int32) => (Shape::Int, Data::Int32(Vec::new())),
                (FieldKind::Component(_), DataType::Float64) => {
                    (Shape::Float, Data::Float(Vec::new()))
                }
                (FieldKind::Component(_), _) => (Shape::Float32, Data::Float32(Vec::new())),
            };
            Column { name, shape, valid: Vec::new(), data }
        })
        .collect()
}

/// Reals of `precision` from little-endian bytes, widened to f64.
fn read_reals(raw: &[u8], precision: Precision, out: &mut [f64; 16]) {
    match precision {
        Precision::Single => {
            for (slot, chunk) in out.iter_mut().zip(raw.chunks_exact(4)) {
                *slot = f32::from_le_bytes(chunk.try_into().unwrap_or_default()).into();
            }
        }
        Precision::Double => {
            for (slot, chunk) in out.iter_mut().zip(raw.chunks_exact(8)) {
                *slot = f64::from_le_bytes(chunk.try_into().unwrap_or_default());
            }
        }
    }
}

/// A math value's components in wire order; `None` for other values.
pub(crate) fn components(value: VariantRef<'_>) -> Option<Components> {
    use VariantRef as V;
    let mut reals = [0.0; 16];
    let (raw, precision) = match value {
        V::Vector2(r) => (r.raw_bytes(), r.precision()),
        V::Rect2(r) => (r.raw_bytes(), r.precision()),
        V::Vector3(r) => (r.raw_bytes(), r.precision()),
        V::Transform2D(r) => (r.raw_bytes(), r.precision()),
        V::Vector4(r) => (r.raw_bytes(), r.precision()),
        V::Plane(r) => (r.raw_bytes(), r.precision()),
        V::Quaternion(r) => (r.raw_bytes(), r.precision()),
        V::Aabb(r) => (r.raw_bytes(), r.precision()),
        V::Basis(r) => (r.raw_bytes(), r.precision()),
        V::Transform3D(r) => (r.raw_bytes(), r.precision()),
        V::Projection(r) => (r.raw_bytes(), r.precision()),
        V::Color(c) => {
            for (slot, c) in reals.iter_mut().zip([c.r, c.g, c.b, c.a]) {
                *slot = c.into();
            }
            return Some(Components::Reals(reals));
        }
        V::Vector2i(v) => return Some(Components::Ints([v.x, v.y, 0, 0])),
        V::Rect2i(v) => {
            return Some(Components::Ints([v.position.x, v.position.y, v.size.x, v.size.y]));
        }
        V::Vector3i(v) => return Some(Components::Ints([v.x, v.y, v.z, 0])),
        V::Vector4i(v) => return Some(Components::Ints([v.x, v.y, v.z, v.w])),
        _ => return None,
    };
    read_reals(raw, precision, &mut reals);
    Some(Components::Reals(reals))
}
