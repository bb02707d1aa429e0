//! Where converted chunks go, in frame order: the Parquet or Arrow writer, or the bytes of
//! CSV and JSON Lines; and what ends the file.

use super::*;

/// Where converted chunks go.
pub(super) enum Sink {
    Parquet(ParquetSink<BufWriter<OutputFile>>, Option<RowGroupEncoder>),
    Arrow(ipc::IpcSink<BufWriter<OutputFile>>),
    Bytes(BufWriter<OutputFile>),
}

impl Sink {
    /// Appends a converted chunk.
    pub(super) fn append(&mut self, converted: Converted) -> Result<(), String> {
        match (self, converted) {
            (Sink::Parquet(sink, _), Converted::RowGroup(group)) => {
                sink.append(group).map_err(|e| e.to_string())
            }
            (Sink::Arrow(sink), Converted::Batch(batch)) => {
                sink.append(&batch).map_err(|e| e.to_string())
            }
            (Sink::Bytes(out), Converted::Bytes(bytes)) => {
                out.write_all(&bytes).map_err(|e| e.to_string())
            }
            _ => Ok(()),
        }
    }

    /// Writes what ends the file and gives the output back.
    pub(super) fn finish(self) -> Result<BufWriter<OutputFile>, String> {
        match self {
            Sink::Parquet(sink, _) => sink.finish().map_err(|e| e.to_string()),
            Sink::Arrow(sink) => sink.finish().map_err(|e| e.to_string()),
            Sink::Bytes(out) => Ok(out),
        }
    }
}
