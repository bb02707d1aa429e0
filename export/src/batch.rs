//! [`Layout`] (what a row is and which columns it has), [`ExportSchema`] (the columns' types,
//! inferred from sample rows) and [`BatchBuilder`] (frames in, an Arrow `RecordBatch` out, the
//! rows that do not fit set aside).
//!
//! Costs: inferring from a sample is O(bytes x [`MAX_NESTING`]); building
//! a batch O(bytes x the schema's nesting) per row, plus the natural JSON of JSON columns
//! (O(bytes)); memory: the batch's own columns (about the size of the values converted).

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::{ArrayRef, Int64Array, RecordBatch, RecordBatchOptions};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use gdvariant::framing::Frame;
use gdvariant::{Key, VariantRef};

use crate::column::{Column, Misfit};
use crate::path::{self, Found, Step};
use crate::shape::{KeyFields, MAX_FIELDS, MAX_NESTING, Shape, Types};

/// What becomes a row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RowSource {
    /// Each frame's value is a row.
    #[default]
    Frames,
    /// Each element of a frame's top-level array is a row (a frame that is not an array is
    /// rejected).
    Elements,
}

/// What a row is and which columns it has.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// What becomes a row.
    pub rows: RowSource,
    /// The columns: `None` for the string keys of the rows' dictionaries (a row that is not a
    /// dictionary with string keys is then one column, `value`); `Some` for these paths
    /// ([`crate::path`]: `b/c` is the key `c` inside `b`, `pos/x` a math value's component),
    /// each column named by its path's text ([`crate::path::text`]).
    pub columns: Option<Vec<Vec<Step>>>,
    /// Two leading columns, `_frame` (the frame's index) and `_offset` (its absolute byte
    /// offset), both Int64.
    pub frame_columns: bool,
}

/// The columns of an export and their types, fixed before the first batch is written.
#[derive(Clone, Debug)]
pub struct ExportSchema {
    layout: Layout,
    /// Column names and shapes, in order (without the frame columns).
    columns: Vec<(String, Shape)>,
    /// Whether the columns are the keys of each row's dictionary.
    keyed: bool,
    /// Each column's position, by name (a row's keys found in O(1) each).
    index: HashMap<String, usize>,
    arrow: SchemaRef,
}

impl ExportSchema {
    /// Infers the columns from sample rows' values (the first rows of a dump, say, or all of
    /// them): the union of their string keys in first-seen order, each typed by the rules of
    /// [`Shape`]. O(bytes of the sample x [`MAX_NESTING`]). [`Inference`] does the same in
    /// parts (on several threads).
    pub fn infer<'a>(layout: Layout, sample: impl IntoIterator<Item = VariantRef<'a>>) -> Self {
        let mut inference = Inference::new(&layout);
        for value in sample {
            inference.observe(value);
        }
        inference.finish(layout)
    }

    /// A schema of the given columns (names and shapes).
    fn with_columns(layout: Layout, columns: Vec<(String, Shape)>, keyed: bool) -> Self {
        let mut fields = Vec::new();
        if layout.frame_columns {
            fields.push(Field::new("_frame", DataType::Int64, false));
            fields.push(Field::new("_offset", DataType::Int64, false));
        }
        for (name, shape) in &columns {
            // A key is named as a path's segment (a path's text is one already).
            let name = if keyed { path::segment(name) } else { name.clone() };
            fields.push(Column::new(&name, shape).field(&name));
        }
        let arrow = Arc::new(Schema::new(fields));
        crate::work(columns.len());
        let index = columns.iter().zip(0..).map(|((name, _), i)| (name.clone(), i)).collect();
        ExportSchema { layout, columns, keyed, index, arrow }
    }

    /// The Arrow schema of every batch.
    pub fn arrow_schema(&self) -> SchemaRef {
        Arc::clone(&self.arrow)
    }

    /// The layout the schema was inferred with.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The column names and shapes (without the frame columns).
    pub fn columns(&self) -> &[(String, Shape)] {
        &self.columns
    }

    /// Every column of JSON text ([`Shape::Json`]), nested ones included, by its path's text
    /// (`stats/hp`: the field `hp` of the struct column `stats`; `items/item/kind`: a field of
    /// a list's elements), with the types of the values it was inferred from ([`Types`]:
    /// mixed types when there are two or more), in schema order.
    pub fn json_columns(&self) -> Vec<(String, &Types)> {
        let mut found = Vec::new();
        for (name, shape) in &self.columns {
            let name = if self.keyed { path::segment(name) } else { name.clone() };
            json_columns(name, shape, &mut found);
        }
        found
    }
}

/// Adds the JSON columns in `shape` (named `name`) to `found`.
fn json_columns<'a>(name: String, shape: &'a Shape, found: &mut Vec<(String, &'a Types)>) {
    match shape {
        Shape::Json(types) => found.push((name, types)),
        Shape::List(element) => json_columns(format!("{name}/item"), element, found),
        Shape::Struct(fields) => {
            for (field, shape) in fields {
                json_columns(format!("{name}/{}", path::segment(field)), shape, found);
            }
        }
        _ => {}
    }
}

/// Schema inference in parts: observe rows (in any number of parts, on any threads), merge
/// the parts in row order, and [`finish`](Self::finish) into an [`ExportSchema`].
#[derive(Clone, Debug)]
pub struct Inference {
    /// The selected columns' keys and shapes so far, and whether each path found anything.
    selected: Option<Vec<(Vec<Step>, Shape, bool)>>,
    /// The rows' shape so far (without `--columns`), once a row is not a dictionary.
    root: Shape,
    /// While every row so far is a dictionary of string keys (or null): their fields, found
    /// by hash, so rows of ever different keys widen the schema in linear work.
    keys: Option<KeyFields>,
    /// A dictionary row was seen.
    structs: bool,
    rows: u64,
}

impl Inference {
    /// Nothing observed yet, for `layout`.
    pub fn new(layout: &Layout) -> Self {
        let selected = layout
            .columns
            .as_ref()
            .map(|paths| paths.iter().map(|p| (p.clone(), Shape::Null, false)).collect());
        Inference {
            selected,
            root: Shape::Null,
            keys: Some(KeyFields::default()),
            structs: false,
            rows: 0,
        }
    }

    /// Takes one row into account. O(bytes x [`MAX_NESTING`]), counted by the work counter.
    pub fn observe(&mut self, value: VariantRef<'_>) {
        crate::work(1);
        self.rows = self.rows.saturating_add(1);
        match &mut self.selected {
            Some(columns) => {
                for (steps, shape, found) in columns.iter_mut() {
                    let keys: Vec<Key<'_>> = steps.iter().map(Step::key).collect();
                    if let Some(value) = path::resolve(value, &keys) {
                        *found = true;
                        let covered = match value {
                            Found::Value(value) => shape.covers(value, MAX_NESTING),
                            _ => false,
                        };
                        if !covered {
                            let seen = found_shape(value);
                            *shape = std::mem::replace(shape, Shape::Null).merge(seen);
                        }
                    }
                }
            }
            None if self.keys.is_some() => self.observe_keyed(value),
            // Most rows have the shape of the rows before: checked without allocating.
            None if self.root.covers(value, MAX_NESTING) => {}
            None => {
                let seen = Shape::of(value, MAX_NESTING);
                self.root = std::mem::replace(&mut self.root, Shape::Null).merge(seen);
            }
        }
    }

    /// [`observe`](Self::observe) while every row so far is a dictionary (or null).
    fn observe_keyed(&mut self, value: VariantRef<'_>) {
        let Some(fields) = &mut self.keys else { return };
        if let VariantRef::Dictionary(dictionary) = value {
            // Most rows have the keys and shapes of the rows before: checked without allocating.
            if self.structs && fields.covers(dictionary, MAX_NESTING) {
                return;
            }
        }
        match Shape::of(value, MAX_NESTING) {
            Shape::Null => {}
            Shape::Struct(row) => {
                self.structs = true;
                row.into_iter().for_each(|(name, shape)| fields.add(name, shape));
                if fields.list.len() > MAX_FIELDS {
                    self.keys = None;
                    self.root = Shape::Json(Shape::Struct(Vec::new()).types());
                }
            }
            other => {
                self.settle();
                self.root = std::mem::replace(&mut self.root, Shape::Null).merge(other);
            }
        }
    }

    /// Moves the gathered fields into `root`.
    fn settle(&mut self) {
        if let Some(fields) = self.keys.take().filter(|_| self.structs) {
            self.root = Shape::Struct(fields.list);
        }
    }

    /// Adds what `later` (the rows after these) observed.
    pub fn merge(&mut self, mut later: Inference) {
        self.settle();
        later.settle();
        self.rows = self.rows.saturating_add(later.rows);
        self.root = std::mem::replace(&mut self.root, Shape::Null).merge(later.root);
        if let (Some(mine), Some(theirs)) = (&mut self.selected, later.selected) {
            for ((_, shape, found), (_, other, other_found)) in mine.iter_mut().zip(theirs) {
                *shape = std::mem::replace(shape, Shape::Null).merge(other);
                *found = *found || other_found;
            }
        }
    }

    /// Rows observed.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The selected paths that found nothing in any row observed.
    pub fn unfound(&self) -> Vec<&[Step]> {
        self.selected
            .iter()
            .flatten()
            .filter(|(_, _, found)| !found)
            .map(|(steps, _, _)| steps.as_slice())
            .collect()
    }

    /// The schema of the rows observed.
    pub fn finish(mut self, layout: Layout) -> ExportSchema {
        self.settle();
        let (columns, keyed) = match (self.selected, self.root) {
            (Some(selected), _) => (
                selected.into_iter().map(|(steps, shape, _)| (path::text(&steps), shape)).collect(),
                false,
            ),
            (None, Shape::Struct(fields)) => (fields, true),
            (None, other) => (vec![("value".to_owned(), other)], false),
        };
        ExportSchema::with_columns(layout, columns, keyed)
    }
}

/// The shape of what a path found.
fn found_shape(found: Found<'_>) -> Shape {
    match found {
        Found::Value(value) => Shape::of(value, MAX_NESTING),
        Found::Int(_) => Shape::Int,
        Found::Real(_) => Shape::Float,
        Found::Real32(_) => Shape::Float32,
    }
}

/// A row that does not fit the schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    /// The frame's index in the dump.
    pub frame: u64,
    /// The frame's absolute byte offset.
    pub offset: u64,
    /// The element's index, when rows are array elements.
    pub element: Option<usize>,
    /// Why it does not fit.
    pub reason: Misfit,
    /// The row's value, exactly as on the wire (no length prefix).
    pub bytes: Vec<u8>,
}

/// Frames in, one Arrow `RecordBatch` out. One builder per batch; builders of the same schema
/// are independent, so batches can be built on several threads and written in order.
pub struct BatchBuilder<'s> {
    schema: &'s ExportSchema,
    /// The keys of the selected columns' paths.
    paths: Vec<Vec<Key<'s>>>,
    columns: Vec<Column>,
    frames: Vec<i64>,
    offsets: Vec<i64>,
    rejected: Vec<Rejected>,
    rows: usize,
    /// Which columns a row's dictionary has given (reused from row to row).
    seen: Vec<bool>,
}

impl<'s> BatchBuilder<'s> {
    /// An empty batch of `schema`.
    pub fn new(schema: &'s ExportSchema) -> Self {
        let columns = schema.columns.iter().map(|(name, shape)| Column::new(name, shape)).collect();
        let paths = match &schema.layout.columns {
            Some(paths) => paths.iter().map(|p| p.iter().map(Step::key).collect()).collect(),
            None => Vec::new(),
        };
        BatchBuilder {
            schema,
            paths,
            columns,
            frames: Vec::new(),
            offsets: Vec::new(),
            rejected: Vec::new(),
            rows: 0,
            seen: vec![false; schema.columns.len()],
        }
    }

    /// An empty batch of `schema` with room for `rows` rows (fewer reallocations; a hint, not
    /// a limit).
    pub fn with_capacity(schema: &'s ExportSchema, rows: usize) -> Self {
        let mut builder = BatchBuilder::new(schema);
        for column in &mut builder.columns {
            column.reserve(rows);
        }
        builder.frames.reserve(rows);
        builder.offsets.reserve(rows);
        builder
    }

    /// Rows so far.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Adds the rows of a checked frame (`index`: its index in the dump). A row that does not
    /// fit is set aside as [`Rejected`], and the others are added.
    ///
    /// O(the row's bytes x the schema's nesting + the schema's columns) per row (every column
    /// gets a value or a null; a rejected row cuts every column back), each key found by hash;
    /// recursion follows the schema, never the value's own nesting; memory: the values
    /// appended (a rejected row's bytes are copied). Counted by the work counter.
    pub fn push_frame(&mut self, index: u64, frame: &Frame<'_>) {
        crate::work(1);
        let value = frame.value();
        match self.schema.layout.rows {
            RowSource::Frames => {
                self.push_row(index, frame.offset(), None, value, frame.element().raw_bytes())
            }
            RowSource::Elements => match value {
                VariantRef::Array(array) => {
                    for (i, element) in array.elements().enumerate() {
                        crate::work(1);
                        match element {
                            Ok(element) => self.push_row(
                                index,
                                frame.offset(),
                                Some(i),
                                element.value(),
                                element.raw_bytes(),
                            ),
                            Err(error) => {
                                self.reject(
                                    index,
                                    frame.offset(),
                                    Some(i),
                                    Misfit::Malformed(error),
                                    &[],
                                );
                                break;
                            }
                        }
                    }
                }
                other => self.reject(
                    index,
                    frame.offset(),
                    None,
                    Misfit::Type {
                        column: String::new(),
                        expected: "an array of rows".to_owned(),
                        found: other.variant_type(),
                    },
                    frame.element().raw_bytes(),
                ),
            },
        }
    }

    /// Adds one row, or rejects it.
    fn push_row(
        &mut self,
        frame: u64,
        offset: u64,
        element: Option<usize>,
        value: VariantRef<'_>,
        bytes: &[u8],
    ) {
        match self.convert(value) {
            Ok(()) => {
                self.rows = self.rows.saturating_add(1);
                self.frames.push(i64::try_from(frame).unwrap_or(i64::MAX));
                self.offsets.push(i64::try_from(offset).unwrap_or(i64::MAX));
            }
            Err(reason) => {
                // Every column is cut back: a unit per column (and nested column) visited.
                for column in &mut self.columns {
                    column.truncate(self.rows);
                }
                self.reject(frame, offset, element, reason, bytes);
            }
        }
    }

    /// Appends one row's values to every column.
    fn convert(&mut self, value: VariantRef<'_>) -> Result<(), Misfit> {
        if self.schema.layout.columns.is_some() {
            for (keys, column) in self.paths.iter().zip(self.columns.iter_mut()) {
                column.push_found(path::resolve(value, keys))?;
            }
            return Ok(());
        }
        if !self.schema.keyed {
            if let Some(column) = self.columns.first_mut() {
                column.push(Some(value))?;
            }
            return Ok(());
        }
        let VariantRef::Dictionary(dictionary) = value else {
            return Err(Misfit::Type {
                column: String::new(),
                expected: "a dictionary".to_owned(),
                found: value.variant_type(),
            });
        };
        // The columns are the fields of one struct: the row's dictionary.
        self.push_keyed(dictionary)
    }

    /// Appends a dictionary's entries to the columns named by its keys.
    fn push_keyed(&mut self, dictionary: gdvariant::view::DictionaryRef<'_>) -> Result<(), Misfit> {
        let seen = &mut self.seen;
        crate::work((seen.len() >> 6).saturating_add(1));
        seen.fill(false);
        let mut hint = 0usize;
        for entry in dictionary.iter() {
            let (key, item) = entry.map_err(Misfit::Malformed)?;
            let text = match key {
                VariantRef::String(s) | VariantRef::StringName(s) => {
                    s.to_text().map_err(Misfit::Malformed)?
                }
                other => {
                    let key = format!("{:?}", other.variant_type());
                    return Err(Misfit::Key { column: String::new(), key });
                }
            };
            // Compared with the next column, then hashed: a unit each, plus one per 64 bytes.
            crate::work((text.len() >> 5).saturating_add(2));
            let at = match self.schema.columns.get(hint) {
                Some((name, _)) if *name == *text => hint,
                _ => match self.schema.index.get(&*text) {
                    Some(&at) => at,
                    None => {
                        return Err(Misfit::Key { column: String::new(), key: text.to_string() });
                    }
                },
            };
            match seen.get_mut(at) {
                Some(true) => {
                    return Err(Misfit::RepeatedKey { column: String::new(), key: text.into() });
                }
                Some(flag) => *flag = true,
                None => {}
            }
            if let Some(column) = self.columns.get_mut(at) {
                column.push(Some(item))?;
            }
            hint = at.saturating_add(1);
        }
        for (column, seen) in self.columns.iter_mut().zip(seen.iter()) {
            if !*seen {
                column.push(None)?;
            }
        }
        Ok(())
    }

    /// Records a rejected row.
    fn reject(
        &mut self,
        frame: u64,
        offset: u64,
        element: Option<usize>,
        reason: Misfit,
        bytes: &[u8],
    ) {
        crate::work((bytes.len() >> 6).saturating_add(1));
        self.rejected.push(Rejected { frame, offset, element, reason, bytes: bytes.to_vec() });
    }

    /// The batch, and the rows set aside, in order. O(rows x columns + text bytes) (validity
    /// packed, text checked as UTF-8); the columns' buffers are moved, not copied.
    ///
    /// # Errors
    /// Arrow's, if the columns do not make a batch of the schema (not expected: each column
    /// is built from its field's shape).
    pub fn finish(mut self) -> Result<(RecordBatch, Vec<Rejected>), ArrowError> {
        let mut arrays: Vec<ArrayRef> = Vec::new();
        if self.schema.layout.frame_columns {
            arrays.push(Arc::new(Int64Array::from(std::mem::take(&mut self.frames))));
            arrays.push(Arc::new(Int64Array::from(std::mem::take(&mut self.offsets))));
        }
        arrays.extend(self.columns.iter_mut().map(Column::finish));
        let options = RecordBatchOptions::new().with_row_count(Some(self.rows));
        let batch =
            RecordBatch::try_new_with_options(self.schema.arrow_schema(), arrays, &options)?;
        Ok((batch, self.rejected))
    }
}
