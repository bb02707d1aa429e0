//! Arrow IPC file output (the Feather v2 format), buffers compressed with ZSTD. Written batch
//! by batch; memory: one batch.

use std::io::Write;

use arrow_array::RecordBatch;
use arrow_ipc::CompressionType;
use arrow_ipc::writer::{FileWriter, IpcWriteOptions};
use arrow_schema::{ArrowError, Schema};

/// An Arrow IPC file being written.
pub struct IpcSink<W: Write> {
    writer: FileWriter<W>,
}

impl<W: Write> IpcSink<W> {
    /// Starts a file of `schema` on `out`.
    ///
    /// # Errors
    /// Arrow's (`out` fails).
    pub fn new(out: W, schema: &Schema) -> Result<Self, ArrowError> {
        let options =
            IpcWriteOptions::default().try_with_compression(Some(CompressionType::ZSTD))?;
        Ok(IpcSink { writer: FileWriter::try_new_with_options(out, schema, options)? })
    }

    /// Appends a batch.
    ///
    /// # Errors
    /// Arrow's (`out` fails).
    pub fn append(&mut self, batch: &RecordBatch) -> Result<(), ArrowError> {
        self.writer.write(batch)
    }

    /// Writes the footer and returns the output.
    ///
    /// # Errors
    /// Arrow's (`out` fails).
    pub fn finish(mut self) -> Result<W, ArrowError> {
        self.writer.finish()?;
        self.writer.into_inner()
    }
}
