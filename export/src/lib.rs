//! # gdvariant-arrow
//!
//! Godot Variant values, such as the frames of a `store_var` dump, as Apache Arrow record
//! batches, and from there Parquet, Arrow IPC and CSV files: the bridge from a game's saves,
//! logs and telemetry to DuckDB, Polars, DataFusion or Spark.
//!
//! A row is a frame's value (or each element of a frame's top-level array,
//! [`RowSource::Elements`]). The columns are the string keys of the rows' dictionaries (or
//! chosen paths, [`Layout::columns`]), typed from sample rows ([`ExportSchema::infer`]):
//!
//! | Godot value | Arrow |
//! | --- | --- |
//! | `bool`, `int` | `Boolean`, `Int64` |
//! | `float` (a double in Godot, whatever its width on the wire), ints and floats mixed | `Float64` |
//! | `String`, `StringName`, `NodePath` | `Utf8` (a NodePath as its text) |
//! | math values (`Vector2`, `Rect2`, `Transform3D`, `Color`, ...) | `Struct` of named components (`pos/x`; [`gdvariant::json::math_fields`]), reals `Float32` as on the wire (`Float64` once a double-precision value is seen), integer vectors `Int32` |
//! | `Array`, packed arrays | `List` of the elements' type (`PackedFloat32Array`: `Float32`) |
//! | `PackedByteArray` | `Binary` |
//! | a dictionary with string keys | `Struct` of the union of its keys (at most 256) |
//! | anything else: mixed types (an array of mixed elements included), other keys, objects, nesting past 8 levels | `Utf8` holding the value's natural JSON ([`gdvariant::json::write_natural_json`]), the field marked with the metadata [`JSON_METADATA`]; [`ExportSchema::json_columns`] lists these columns with the [`Types`] their values mixed |
//! | only nulls | `Null` |
//!
//! Every column is nullable: a missing key and a Godot `null` are both a null, in a JSON column
//! too (never the text `null`). The schema is fixed before the first
//! batch, so a row that does not fit it (a type the column cannot hold, a key it does not
//! have, a repeated key) is not written: [`BatchBuilder`] sets it aside as [`Rejected`] with its
//! frame, offset, reason and bytes, and the caller counts it or keeps it.
//!
//! ```
//! use gdvariant::framing::{self, LengthPrefix};
//! use gdvariant::Options;
//! use gdvariant_arrow::{BatchBuilder, ExportSchema, Layout};
//!
//! // Godot 4.6: FileAccess.store_var(v) for 11 values of all kinds: one column, JSON.
//! let dump = include_bytes!("../../corpus/godot4/stream_file_store_var.bin");
//! let frames: Vec<_> = framing::frames(dump, LengthPrefix::store_var(false), Options::godot4())
//!     .collect::<Result<_, _>>()?;
//! let schema = ExportSchema::infer(Layout::default(), frames.iter().map(|f| f.value()));
//! let mut batch = BatchBuilder::new(&schema);
//! for (i, frame) in frames.iter().enumerate() {
//!     batch.push_frame(i as u64, frame);
//! }
//! let (batch, rejected) = batch.finish()?;
//! assert_eq!((batch.num_rows(), rejected.len()), (11, 0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Batches of one schema are built independently ([`BatchBuilder`] borrows the schema), so a
//! dump can be converted on every core and written in order; [`parquet::RowGroupEncoder`]
//! encodes row groups on any thread, [`parquet::ParquetSink`] appends them.
//!
//! Costs: inference O(sample bytes x 8); conversion O(bytes x the schema's nesting, at most 8
//! levels plus a math value's 3) per row, no recursion on the value's own nesting (JSON
//! columns are one cursor pass); memory: one batch's columns per batch in flight.

pub use ::parquet as parquet_crate;
pub use arrow_array;
pub use arrow_schema;

pub mod batch;
pub mod column;
pub mod csv;
pub mod ipc;
pub mod parquet;
pub mod path;
pub mod shape;

pub use arrow_array::RecordBatch;
pub use batch::{BatchBuilder, ExportSchema, Inference, Layout, Rejected, RowSource};
pub use column::Misfit;
pub use path::Step;
pub use shape::{JSON_METADATA, MAX_FIELDS, MAX_NESTING, Shape, Types};

/// Counts `units` of work on the library's counter (feature `work-counter`; nothing without
/// it): a unit per value converted, per key compared or hashed (plus one per 64 bytes of it),
/// per column visited, per 64 bytes copied or scanned.
#[inline(always)]
pub(crate) fn work(units: usize) {
    #[cfg(feature = "work-counter")]
    gdvariant::work::add(units);
    #[cfg(not(feature = "work-counter"))]
    let _ = units;
}

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
