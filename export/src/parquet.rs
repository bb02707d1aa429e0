//! Parquet output, ZSTD-compressed, one row group per batch, with the encoding of a row group
//! (the costly part: encodings, statistics, compression) separate from appending it to the
//! file, so that row groups can be encoded on several threads and written in order.
//!
//! Memory: a row group's encoded column chunks until they are appended; the file writer keeps
//! only the row groups' metadata.

use std::io::Write;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::{ArrowColumnChunk, ArrowRowGroupWriterFactory, compute_leaves};
use parquet::basic::{Compression, ZstdLevel};
use parquet::errors::Result;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;

/// The writer properties: ZSTD (level 1) for every column, no row-group size limit of its own
/// (each batch is one row group).
pub fn properties() -> WriterProperties {
    WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .set_max_row_group_row_count(Some(usize::MAX))
        .build()
}

/// Encodes batches into row groups; shared by every thread that encodes (`Sync`).
pub struct RowGroupEncoder {
    factory: ArrowRowGroupWriterFactory,
    schema: SchemaRef,
}

/// A row group, encoded and compressed, ready to be appended.
pub struct EncodedRowGroup {
    chunks: Vec<ArrowColumnChunk>,
}

impl RowGroupEncoder {
    /// Encodes `batch` as row group number `index`. O(batch).
    ///
    /// # Errors
    /// The Parquet writer's.
    pub fn encode(&self, index: usize, batch: &RecordBatch) -> Result<EncodedRowGroup> {
        let mut writers = self.factory.create_column_writers(index)?.into_iter();
        let mut chunks = Vec::new();
        for (field, column) in self.schema.fields().iter().zip(batch.columns()) {
            let leaves = compute_leaves(field, column)?;
            for leaf in leaves {
                let Some(mut writer) = writers.next() else { break };
                writer.write(&leaf)?;
                chunks.push(writer.close()?);
            }
        }
        Ok(EncodedRowGroup { chunks })
    }
}

/// A Parquet file being written, row group by row group.
pub struct ParquetSink<W: Write + Send> {
    writer: SerializedFileWriter<W>,
}

impl<W: Write + Send> ParquetSink<W> {
    /// Starts a file of `schema` on `out` (the Arrow schema is stored in the file's metadata,
    /// so Arrow readers get the same types back), and the encoder for its row groups.
    ///
    /// # Errors
    /// The Parquet writer's (the schema cannot be written, `out` fails).
    pub fn new(out: W, schema: SchemaRef) -> Result<(Self, RowGroupEncoder)> {
        let writer = ArrowWriter::try_new(out, Arc::clone(&schema), Some(properties()))?;
        let (writer, factory) = writer.into_serialized_writer()?;
        Ok((ParquetSink { writer }, RowGroupEncoder { factory, schema }))
    }

    /// Appends an encoded row group (row groups go in the order they are appended).
    ///
    /// # Errors
    /// The Parquet writer's (`out` fails).
    pub fn append(&mut self, row_group: EncodedRowGroup) -> Result<()> {
        let mut group = self.writer.next_row_group()?;
        for chunk in row_group.chunks {
            chunk.append_to_row_group(&mut group)?;
        }
        group.close()?;
        Ok(())
    }

    /// Writes the footer and returns the output.
    ///
    /// # Errors
    /// The Parquet writer's.
    pub fn finish(self) -> Result<W> {
        self.writer.into_inner()
    }
}
