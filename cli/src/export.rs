//! `gdvariant export`: a dump's frames as the rows of a Parquet, Arrow IPC, CSV or JSON Lines
//! file, converted on every core (`gdvariant_arrow` does the conversion; this file reads the
//! arguments, infers the schema from the first rows and writes the chunks in order).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use gdvariant::framing::{self, Frame, FrameWriter, LengthPrefix};
use gdvariant::{Key, Options};
use gdvariant_arrow::parquet::{EncodedRowGroup, ParquetSink, RowGroupEncoder};
use gdvariant_arrow::{BatchBuilder, ExportSchema, Layout, Rejected, RowSource, csv, ipc};

use crate::failure::{self, Failure};
use crate::filter::{self, Condition};
use crate::parallel::{self, Chunk};
use crate::records::{self, OnBad, RecordArgs, Walked};
use crate::{DecodeArgs, FileArg, FrameArgs, input, options};

/// Arguments of `export`.
#[derive(Args, Debug)]
#[command(
    mut_arg("jobs", |arg| records::help_jobs(arg, "check and convert")),
    mut_arg("chunk_frames", |arg| records::help_chunk_frames(
        arg,
        "converted",
        "; `--to parquet` writes one row group per chunk",
    )),
)]
pub struct ExportArgs {
    /// The dump (`-`: standard input).
    file: FileArg,
    /// The output format.
    #[arg(long = "to", value_enum)]
    to: To,
    /// The output file.
    #[arg(short, long)]
    output: PathBuf,
    /// What becomes a row: each frame's value, or each element of each frame's top-level
    /// array.
    #[arg(long, value_enum, default_value = "frames")]
    rows: Rows,
    /// The columns, as paths of string keys (`a,b.c`: the key `a`, and the key `c` inside
    /// `b`); default: every string key of the rows' dictionaries.
    #[arg(long, value_delimiter = ',')]
    columns: Vec<String>,
    /// Add the columns `_frame` (the frame's index) and `_offset` (its byte offset) first.
    #[arg(long)]
    frame_columns: bool,
    /// Rows the column types are inferred from (the first ones that meet --where).
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    infer_rows: usize,
    /// Write each row that does not fit the schema to FILE, as a store_var frame of its value
    /// (the file is a dump of its own).
    #[arg(long, value_name = "FILE")]
    rejects: Option<PathBuf>,
    /// Go on past frames Godot refuses (each reported on standard error and counted; the exit
    /// code is then 1) instead of stopping at the first.
    #[arg(long)]
    skip_bad: bool,
    #[command(flatten)]
    records: RecordArgs,
    #[command(flatten)]
    decode: DecodeArgs,
    #[command(flatten)]
    framing: FrameArgs,
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum To {
    /// Parquet, ZSTD-compressed, one row group per chunk of frames.
    Parquet,
    /// Arrow IPC file (Feather v2), ZSTD-compressed.
    Arrow,
    /// CSV with a header; struct fields flattened (`pos.x`), lists as JSON.
    Csv,
    /// JSON Lines: each row's natural JSON.
    Jsonl,
}

/// What becomes a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Rows {
    /// Each frame's value.
    Frames,
    /// Each element of each frame's top-level array.
    Elements,
}

/// What a chunk becomes.
enum Converted {
    /// Parquet: an encoded row group.
    RowGroup(EncodedRowGroup),
    /// Arrow IPC: a batch.
    Batch(gdvariant_arrow::RecordBatch),
    /// CSV and JSON Lines: the formatted rows.
    Bytes(Vec<u8>),
}

/// One chunk's result: the conversion, what was rejected, the walk's report.
struct Done {
    converted: Option<Converted>,
    rows: u64,
    rejected: Vec<Rejected>,
    walked: Walked,
}

/// Runs `export`.
pub fn run(args: &ExportArgs) -> Result<ExitCode, Failure> {
    let conditions = filter::parse_all(&args.records.conditions)?;
    let layout = layout(args)?;
    let name = input::name(&args.file);
    let bytes = input::open(&args.file)?;
    let options = options::frame_options(args.decode, args.framing, &name, &bytes)?;
    let prefix = options::prefix(args.framing);
    let schema = infer(&bytes, prefix, options, &conditions, layout, args.infer_rows);
    let result = write(args, &name, &bytes, options, &conditions, &schema);
    if result.is_err() {
        // A partial file is not left behind as if it were the export.
        let _ = std::fs::remove_file(&args.output);
    }
    result
}

/// The layout the arguments ask for.
fn layout(args: &ExportArgs) -> Result<Layout, Failure> {
    let columns = if args.columns.is_empty() {
        None
    } else {
        let mut paths = Vec::new();
        for column in &args.columns {
            let path: Vec<String> = column.split('.').map(str::to_owned).collect();
            if path.iter().any(String::is_empty) {
                return Err(Failure::Usage(format!("--columns: empty key in {column:?}")));
            }
            paths.push(path);
        }
        Some(paths)
    };
    let rows = match args.rows {
        Rows::Frames => RowSource::Frames,
        Rows::Elements => RowSource::Elements,
    };
    Ok(Layout { rows, columns, frame_columns: args.frame_columns })
}

/// The schema, from the first `limit` rows of the good frames that meet the conditions.
fn infer(
    bytes: &[u8],
    prefix: LengthPrefix,
    options: Options,
    conditions: &[Condition],
    layout: Layout,
    limit: usize,
) -> ExportSchema {
    let frames = framing::raw_scan(bytes, prefix, options)
        .filter_map(|item| item.ok()?.decode(options).ok())
        .filter(|frame| filter::all_hold(conditions, frame.value()));
    let rows: Box<dyn Iterator<Item = gdvariant::VariantRef<'_>>> = match layout.rows {
        RowSource::Frames => Box::new(frames.map(|frame| frame.value())),
        RowSource::Elements => Box::new(frames.flat_map(|frame| {
            let array = frame.value().as_array();
            array.map(|a| a.iter().filter_map(Result::ok).collect::<Vec<_>>()).unwrap_or_default()
        })),
    };
    ExportSchema::infer(layout, rows.take(limit))
}

/// Converts every chunk and writes the output.
fn write(
    args: &ExportArgs,
    name: &str,
    bytes: &[u8],
    options: Options,
    conditions: &[Condition],
    schema: &ExportSchema,
) -> Result<ExitCode, Failure> {
    let out_name = args.output.display().to_string();
    let out_failure = |e: &dyn std::fmt::Display| Failure::input(&out_name, e);
    let file = File::create(&args.output).map_err(|e| out_failure(&e))?;
    let out = BufWriter::with_capacity(1 << 20, file);
    let mut rejects = match &args.rejects {
        Some(path) => Some(create(path)?),
        None => None,
    };
    let arrow_schema = schema.arrow_schema();
    let mut sink = match args.to {
        To::Parquet => {
            let (sink, encoder) =
                ParquetSink::new(out, arrow_schema).map_err(|e| out_failure(&e))?;
            Sink::Parquet(sink, Some(encoder))
        }
        To::Arrow => {
            Sink::Arrow(ipc::IpcSink::new(out, &arrow_schema).map_err(|e| out_failure(&e))?)
        }
        To::Csv => {
            let mut out = out;
            out.write_all(&csv::header(&arrow_schema)).map_err(|e| out_failure(&e))?;
            Sink::Bytes(out)
        }
        To::Jsonl => Sink::Bytes(out),
    };
    let encoder = match &mut sink {
        Sink::Parquet(_, encoder) => encoder.take(),
        _ => None,
    };
    let chunks = parallel::chunks(
        bytes,
        options::prefix(args.framing),
        options,
        args.skip_bad,
        args.records.chunk_frames,
    );
    let on_bad = if args.skip_bad { OnBad::Report } else { OnBad::Stop };
    let progress = records::progress_bar(bytes.len());
    let (mut rows, mut rejected, mut bad) = (0u64, 0u64, 0u64);
    let mut first_reject: Option<String> = None;
    let to = args.to;
    let work = |chunk: Chunk<'_>| {
        convert(chunk, name, options, conditions, on_bad, schema, to, encoder.as_ref())
    };
    parallel::run(
        parallel::threads(args.records.jobs),
        chunks,
        work,
        |done: Result<Done, String>| {
            let done = done.map_err(|e| out_failure(&e))?;
            if let Some(converted) = done.converted {
                sink.append(converted).map_err(|e| out_failure(&e))?;
            }
            rows = rows.saturating_add(done.rows);
            rejected = rejected.saturating_add(done.rejected.len() as u64);
            if first_reject.is_none() {
                first_reject = done.rejected.first().map(describe);
            }
            if let Some((file, path)) = &mut rejects {
                for row in &done.rejected {
                    file.write_frame(&row.bytes).map_err(|e| Failure::input(path, e))?;
                }
            }
            bad = bad.saturating_add(done.walked.bad.len() as u64);
            records::warn_all(&done.walked.bad, progress.as_ref());
            if let Some(bar) = &progress {
                bar.set_position(done.walked.end);
            }
            records::outcome(&done.walked)
        },
    )?;
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    sink.finish().map_err(|e| out_failure(&e))?;
    if let Some((mut file, path)) = rejects {
        file.flush().map_err(|e| Failure::input(&path, e))?;
    }
    let mut summary = format!("{rows} rows written to {out_name}; {rejected} rows rejected");
    if let Some(first) = first_reject {
        summary.push_str(&format!(" (the first: {first})"));
    }
    summary.push_str(&format!("; {bad} bad frames skipped"));
    failure::warn(format_args!("gdvariant: {summary}"));
    filter::report(conditions)?;
    Ok(if bad > 0 { ExitCode::from(failure::REFUSED) } else { ExitCode::SUCCESS })
}

/// A rejected row, for the summary.
fn describe(row: &Rejected) -> String {
    match row.element {
        Some(element) => format!(
            "frame {} at offset {}, element {element}: {}",
            row.frame, row.offset, row.reason
        ),
        None => format!("frame {} at offset {}: {}", row.frame, row.offset, row.reason),
    }
}

/// Opens the rejects file: a store_var dump.
fn create(path: &Path) -> Result<(FrameWriter<BufWriter<File>>, String), Failure> {
    let name = path.display().to_string();
    let file = File::create(path).map_err(|e| Failure::input(&name, e))?;
    Ok((FrameWriter::new(BufWriter::new(file), LengthPrefix::store_var(false)), name))
}

/// Checks, filters and converts one chunk.
#[allow(clippy::too_many_arguments)]
fn convert(
    chunk: Chunk<'_>,
    name: &str,
    options: Options,
    conditions: &[Condition],
    on_bad: OnBad,
    schema: &ExportSchema,
    to: To,
    encoder: Option<&RowGroupEncoder>,
) -> Result<Done, String> {
    let number = chunk.number;
    let capacity = if schema.layout().rows == RowSource::Frames { chunk.items.len() } else { 0 };
    let mut builder = BatchBuilder::with_capacity(schema, capacity);
    let mut lines = Vec::new();
    let walked = records::walk(chunk, name, options, conditions, on_bad, |index, frame, _| {
        if to == To::Jsonl {
            json_rows(&mut lines, schema.layout(), index, frame).map_err(|e| e.to_string())
        } else {
            builder.push_frame(index, frame);
            Ok(())
        }
    });
    if to == To::Jsonl {
        let rows = lines_count(&lines);
        return Ok(Done {
            converted: Some(Converted::Bytes(lines)),
            rows,
            rejected: Vec::new(),
            walked,
        });
    }
    let (batch, rejected) = builder.finish().map_err(|e| e.to_string())?;
    let rows = batch.num_rows() as u64;
    let converted = match (to, encoder) {
        (To::Parquet, Some(encoder)) => {
            if batch.num_rows() == 0 {
                None
            } else {
                Some(Converted::RowGroup(
                    encoder.encode(number, &batch).map_err(|e| e.to_string())?,
                ))
            }
        }
        (To::Csv, _) => {
            let mut out = Vec::new();
            csv::write_rows(&batch, &mut out);
            Some(Converted::Bytes(out))
        }
        _ => Some(Converted::Batch(batch)),
    };
    Ok(Done { converted, rows, rejected, walked })
}

/// Lines in a buffer of JSON Lines.
fn lines_count(lines: &[u8]) -> u64 {
    lines.iter().filter(|b| **b == b'\n').count() as u64
}

/// A frame's rows as JSON Lines: each row's natural JSON, or with `--columns` an object of
/// those columns; with `--frame-columns`, `_frame` and `_offset` first.
fn json_rows(
    out: &mut Vec<u8>,
    layout: &Layout,
    index: u64,
    frame: &Frame<'_>,
) -> Result<(), gdvariant::Error> {
    let value = frame.value();
    let rows: Vec<gdvariant::VariantRef<'_>> = match layout.rows {
        RowSource::Frames => vec![value],
        RowSource::Elements => match value.as_array() {
            Some(array) => array.iter().collect::<Result<_, _>>()?,
            None => Vec::new(),
        },
    };
    for row in rows {
        let mut text = String::new();
        match &layout.columns {
            Some(paths) => {
                text.push('{');
                for (i, path) in paths.iter().enumerate() {
                    if i > 0 {
                        text.push(',');
                    }
                    text.push_str(&serde_json_string(&path.join(".")));
                    text.push(':');
                    let keys: Vec<Key<'_>> = path.iter().map(|k| Key::from(k.as_str())).collect();
                    // A path that cannot be followed finds nothing, as in the other formats.
                    match row.lookup(&keys).ok().flatten() {
                        Some(found) => text.push_str(&gdvariant::json::to_natural_json(found)?),
                        None => text.push_str("null"),
                    }
                }
                text.push('}');
            }
            None => text = gdvariant::json::to_natural_json(row)?,
        }
        if layout.frame_columns {
            let head = format!("\"_frame\":{index},\"_offset\":{}", frame.offset());
            text = match text.strip_prefix('{') {
                Some("}") => format!("{{{head}}}"),
                Some(rest) => format!("{{{head},{rest}"),
                None => format!("{{{head},\"value\":{text}}}"),
            };
        }
        out.extend_from_slice(text.as_bytes());
        out.push(b'\n');
    }
    Ok(())
}

/// A JSON string literal.
fn serde_json_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_owned())
}

/// Where converted chunks go.
enum Sink {
    Parquet(ParquetSink<BufWriter<File>>, Option<RowGroupEncoder>),
    Arrow(ipc::IpcSink<BufWriter<File>>),
    Bytes(BufWriter<File>),
}

impl Sink {
    /// Appends a converted chunk.
    fn append(&mut self, converted: Converted) -> Result<(), String> {
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

    /// Writes what ends the file and flushes it.
    fn finish(self) -> Result<(), String> {
        let out = match self {
            Sink::Parquet(sink, _) => sink.finish().map_err(|e| e.to_string())?,
            Sink::Arrow(sink) => sink.finish().map_err(|e| e.to_string())?,
            Sink::Bytes(out) => out,
        };
        out.into_inner().map(drop).map_err(|e| e.to_string())
    }
}
