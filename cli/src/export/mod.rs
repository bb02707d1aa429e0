//! `gdvariant export`: a dump's frames as the rows of a Parquet, Arrow IPC, CSV or JSON Lines
//! file, converted on every core (`gdvariant_arrow` does the conversion; this file reads the
//! arguments, infers the schema from the first rows and writes the chunks in order).
//!
//! This file holds the arguments, the run (the schema inferred from the first rows, then every
//! chunk converted on the workers and appended in order) and the report of misfit rows;
//! `convert.rs` one chunk's conversion, `sink.rs` the output formats, `suggest.rs` the hint
//! for a misspelt column.

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use gdvariant::framing::{self, Frame, FrameWriter, LengthPrefix};
use gdvariant::{Options, VariantRef, VariantType, Version, view::PathSyntaxErrorKind};
use gdvariant_arrow::parquet::{EncodedRowGroup, ParquetSink, RowGroupEncoder};
use gdvariant_arrow::path::{self, Found, Step};
use gdvariant_arrow::{
    BatchBuilder, ExportSchema, Inference, Layout, Rejected, RowSource, csv, ipc,
};

use crate::failure::{self, Failure};
use crate::filter::{self, Condition};
use crate::output::{self, OutputFile};
use crate::parallel::{self, Chunk, Flow};
use crate::records::{self, OnBad, RecordArgs, Walked};
use crate::{DecodeArgs, FileArg, FrameArgs, input, options};

mod convert;
mod sink;
mod suggest;

use convert::*;
use sink::*;
use suggest::*;

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
    /// The output file, written beside it first and renamed over it once complete (`-`:
    /// standard output; a pipe, FIFO or device is written directly).
    #[arg(short, long)]
    output: PathBuf,
    /// What becomes a row: each frame's value, or each element of each frame's top-level
    /// array.
    #[arg(long, value_enum, default_value = "frames")]
    rows: Rows,
    /// The columns, as paths in the syntax of `get` and `--where` (`a,b/c`: the key `a`, and
    /// the key `c` inside `b`; `pos/x`: a Vector2's component; a key holding `/` or `,` in
    /// double quotes, `"a,b"/c`); default: every string key of the rows' dictionaries.
    #[arg(long, value_delimiter = ',', value_name = "PATHS")]
    columns: Vec<String>,
    /// Add the columns `_frame` (the frame's index) and `_offset` (its byte offset) first.
    #[arg(long)]
    frame_columns: bool,
    /// Infer the column types from the first N rows (that meet --where) only, instead of a
    /// first pass over every row: faster, but a later row that does not fit is then a misfit
    /// (see --misfits).
    #[arg(long, value_name = "N")]
    infer_rows: Option<usize>,
    /// What to do with rows that do not fit the schema: fail (nothing is written, exit 1),
    /// skip them, or reject them into --rejects FILE (both counted; the exit code is then 1).
    /// Default: reject with --rejects, else fail.
    #[arg(long, value_enum, value_name = "POLICY")]
    misfits: Option<Misfits>,
    /// Write each row that does not fit the schema to FILE, as a store_var frame of its value
    /// (the file is a dump of its own); implies --misfits reject.
    #[arg(long, value_name = "FILE")]
    rejects: Option<PathBuf>,
    /// Go on past frames Godot refuses (each reported on standard error and counted; the exit
    /// code is then 1) instead of stopping at the first.
    #[arg(long)]
    skip_bad: bool,
    /// Replace an existing output even when no row is written (by default an export of no
    /// rows, say a --where that matches none, leaves an existing file as it was and exits 1; a
    /// new file is written, empty but for the format's header, with a warning).
    #[arg(long)]
    allow_empty: bool,
    #[command(flatten)]
    records: RecordArgs,
    #[command(flatten)]
    decode: DecodeArgs,
    #[command(flatten)]
    framing: FrameArgs,
}

/// What happens to rows that do not fit the schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Misfits {
    /// The export fails (exit 1), naming the first and the count; no file is written.
    Fail,
    /// Rows are written to --rejects FILE and counted; the exit code is 1 if there were any.
    Reject,
    /// Rows are left out and counted; the exit code is 1 if there were any.
    Skip,
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum To {
    /// Parquet, ZSTD-compressed, one row group per chunk of frames (streams to a pipe too).
    Parquet,
    /// Arrow IPC file (Feather v2), ZSTD-compressed (streams to a pipe too).
    Arrow,
    /// CSV with a header; struct fields flattened (`pos/x`), lists as JSON.
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
    let policy = policy(args)?;
    if matches!(args.to, To::Parquet | To::Arrow) {
        output::check_binary_target(Some(&args.output))?;
    }
    let mut outputs = vec![("-o", args.output.as_path())];
    outputs.extend(args.rejects.as_deref().map(|path| ("--rejects", path)));
    output::check_not_input(&outputs, &[&args.file])?;
    let name = input::name(&args.file);
    let bytes = input::open(&args.file)?;
    // Refuses empty input and what is not a dump, before any output exists.
    let options = options::frame_options(args.decode, args.framing, &name, &bytes)?;
    let (schema, inferred) = infer(args, &name, &bytes, options, &conditions, layout)?;
    filter::restart_count(&conditions);
    if args.to != To::Jsonl || !args.columns.is_empty() {
        report_json_columns(&schema, options.version());
    }
    // Nothing is created before the input is known to be a dump and the columns exist; a
    // failure after this removes only the temporary files.
    let out = OutputFile::create(&args.output)?;
    let rejects = match &args.rejects {
        Some(path) => Some(OutputFile::create(path)?),
        None => None,
    };
    let how = How { args, name: &name, options, conditions: &conditions, policy, inferred };
    write(&how, &bytes, &schema, out, rejects)
}

/// What `write` needs besides the schema and the outputs.
struct How<'a> {
    args: &'a ExportArgs,
    name: &'a str,
    options: Options,
    conditions: &'a [Condition],
    policy: Misfits,
    /// The rows the schema was inferred from, when `--infer-rows` limited them.
    inferred: Option<usize>,
}

/// The misfit policy the arguments ask for.
fn policy(args: &ExportArgs) -> Result<Misfits, Failure> {
    match (args.misfits, &args.rejects) {
        (None, Some(_)) | (Some(Misfits::Reject), Some(_)) => Ok(Misfits::Reject),
        (None, None) => Ok(Misfits::Fail),
        (Some(Misfits::Reject), None) => {
            Err(Failure::Usage("--misfits reject needs --rejects FILE".to_owned()))
        }
        (Some(policy), Some(_)) => Err(Failure::Usage(format!(
            "--rejects keeps rows that do not fit: it goes with --misfits reject, not {}",
            if policy == Misfits::Skip { "skip" } else { "fail" }
        ))),
        (Some(policy), None) => Ok(policy),
    }
}

/// The layout the arguments ask for.
fn layout(args: &ExportArgs) -> Result<Layout, Failure> {
    let columns = if args.columns.is_empty() { None } else { Some(column_paths(&args.columns)?) };
    let rows = match args.rows {
        Rows::Frames => RowSource::Frames,
        Rows::Elements => RowSource::Elements,
    };
    Ok(Layout { rows, columns, frame_columns: args.frame_columns })
}

/// The paths of `--columns`. Its values are split at every `,` before they reach here, so a
/// piece that opens a quote it does not close is joined with the next: `"a,b"/c` is one path.
fn column_paths(pieces: &[String]) -> Result<Vec<Vec<Step>>, Failure> {
    let usage = |text: &str, what: &dyn std::fmt::Display| {
        Failure::Usage(format!("--columns: path {text:?}: {what}"))
    };
    let mut paths = Vec::new();
    let mut open: Option<String> = None;
    for piece in pieces {
        let text = match open.take() {
            Some(before) => format!("{before},{piece}"),
            None => piece.clone(),
        };
        match gdvariant_arrow::path::parse(&text) {
            Ok(steps) if steps.is_empty() => return Err(usage(&text, &"empty path")),
            Ok(steps) => paths.push(steps),
            Err(e) if e.kind() == PathSyntaxErrorKind::UnterminatedQuote => open = Some(text),
            Err(e) => return Err(usage(&text, &e)),
        }
    }
    if let Some(text) = open {
        let error = gdvariant_arrow::path::parse(&text).err();
        return Err(usage(&text, &error.map_or_else(String::new, |e| e.to_string())));
    }
    Ok(paths)
}

/// The schema: from every row that meets the conditions (on every core), or with
/// `--infer-rows N` from the first N. A `--columns` path that finds nothing in the rows seen
/// is an error. Also gives N, when the rows were limited.
fn infer(
    args: &ExportArgs,
    name: &str,
    bytes: &[u8],
    options: Options,
    conditions: &[Condition],
    layout: Layout,
) -> Result<(ExportSchema, Option<usize>), Failure> {
    let prefix = options::prefix(args.framing);
    let mut inference = Inference::new(&layout);
    if let Some(limit) = args.infer_rows {
        for row in rows(bytes, prefix, options, conditions, layout.rows).take(limit) {
            inference.observe(row);
        }
    } else if args.to == To::Jsonl && layout.columns.is_none() {
        // JSON Lines without --columns writes each row's own JSON: no schema to infer.
    } else {
        let chunks =
            parallel::chunks(bytes, prefix, options, args.skip_bad, args.records.chunk_frames);
        let source = layout.rows;
        let work = |chunk: Chunk<'_>| {
            let mut part = Inference::new(&layout);
            let walked =
                records::walk(chunk, name, options, conditions, OnBad::Report, |_, frame, _| {
                    for_rows(frame.value(), source, |row| part.observe(row));
                    Ok(())
                });
            (part, walked.ended)
        };
        parallel::run(parallel::threads(args.records.jobs), chunks, work, |(part, ended)| {
            inference.merge(part);
            Ok(if ended { Flow::Stop } else { Flow::Continue })
        })?;
    }
    if let Some(path) = inference.unfound().first() {
        let text = gdvariant_arrow::path::text(path);
        let rows = match args.infer_rows {
            Some(limit) => format!("none of the first {limit} rows has"),
            None => "no row has".to_owned(),
        };
        let mut message = format!("--columns: {rows} a value at {text:?}");
        if let Some(closest) = closest_column(&text, bytes, prefix, options, conditions, &layout) {
            message.push_str(&format!(" (did you mean {closest:?}?)"));
        }
        return Err(Failure::input(name, message));
    }
    Ok((inference.finish(layout), args.infer_rows))
}

/// The rows of the good frames that meet the conditions, in order.
fn rows<'a>(
    bytes: &'a [u8],
    prefix: LengthPrefix,
    options: Options,
    conditions: &'a [Condition],
    source: RowSource,
) -> impl Iterator<Item = VariantRef<'a>> + 'a {
    framing::raw_scan(bytes, prefix, options)
        .filter_map(move |item| item.ok()?.decode(options).ok())
        .filter(|frame| filter::all_hold(conditions, frame.value()))
        .flat_map(move |frame| {
            let mut rows = Vec::new();
            for_rows(frame.value(), source, |row| rows.push(row));
            rows
        })
}

/// Calls `each` on a frame's rows (its value, or its array's elements).
fn for_rows<'a>(value: VariantRef<'a>, source: RowSource, mut each: impl FnMut(VariantRef<'a>)) {
    match source {
        RowSource::Frames => each(value),
        RowSource::Elements => {
            if let Some(array) = value.as_array() {
                array.iter().filter_map(Result::ok).for_each(each);
            }
        }
    }
}

/// Converts every chunk and writes the output; puts the output (and the rejects file) in place
/// only when the export succeeds.
fn write(
    how: &How<'_>,
    bytes: &[u8],
    schema: &ExportSchema,
    out: OutputFile,
    rejects: Option<OutputFile>,
) -> Result<ExitCode, Failure> {
    let args = how.args;
    let out_name = out.name().to_owned();
    let closed = out.closed();
    let out_failure = |e: &dyn std::fmt::Display| output::closed_or(&closed, &out_name, e);
    let streams = !out.is_temporary();
    let out = BufWriter::with_capacity(1 << 20, out);
    let mut rejects = rejects.map(|file| {
        let name = file.name().to_owned();
        (FrameWriter::new(BufWriter::new(file), LengthPrefix::store_var(false)), name)
    });
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
        how.options,
        args.skip_bad,
        args.records.chunk_frames,
    );
    let on_bad = if args.skip_bad { OnBad::Report } else { OnBad::Stop };
    let progress = records::progress_bar(bytes.len());
    let (mut rows, mut misfits, mut bad) = (0u64, 0u64, 0u64);
    let mut first_misfit: Option<String> = None;
    let to = args.to;
    let (name, options, conditions) = (how.name, how.options, how.conditions);
    let work = |chunk: Chunk<'_>| {
        convert(chunk, name, options, conditions, on_bad, schema, to, encoder.as_ref())
    };
    parallel::run(
        parallel::threads(args.records.jobs),
        chunks,
        work,
        |done: Result<Done, String>| {
            let done = done.map_err(|e| out_failure(&e))?;
            misfits = misfits.saturating_add(done.rejected.len() as u64);
            if first_misfit.is_none() {
                first_misfit = done.rejected.first().map(describe);
            }
            // Once the export is failing, nothing more is written: only misfits are counted.
            if how.policy != Misfits::Fail || misfits == 0 {
                if let Some(converted) = done.converted {
                    sink.append(converted).map_err(|e| out_failure(&e))?;
                }
                rows = rows.saturating_add(done.rows);
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
    let first = first_misfit.map(|first| format!(" (the first: {first})")).unwrap_or_default();
    if how.policy == Misfits::Fail && misfits > 0 {
        let sample = match how.inferred {
            Some(n) => format!(" inferred from the first {n} rows"),
            None => String::new(),
        };
        let outcome = if streams {
            format!("the rows before it were written to {out_name}")
        } else {
            format!("{out_name} was not written")
        };
        let hint = if how.inferred.is_some() {
            "infer from every row (leave out --infer-rows), or "
        } else {
            ""
        };
        return Err(Failure::Input(format!(
            "{misfits} rows do not fit the schema{sample}{first}; {outcome}; {hint}\
             choose --misfits skip or --rejects FILE to leave them out"
        )));
    }
    let out = sink.finish().map_err(|e| out_failure(&e))?;
    let out = out.into_inner().map_err(|e| out_failure(&e.error().to_string()))?;
    if rows == 0 {
        let why = if misfits > 0 {
            "no row fits the schema"
        } else if !conditions.is_empty() {
            "--where matched no row"
        } else if bad > 0 {
            "no frame was good"
        } else {
            "the dump has no rows"
        };
        if out.replaces() && !args.allow_empty {
            // `out` and `rejects` are dropped: only their temporary files are removed.
            return Err(Failure::Input(format!(
                "no rows to write ({why}): {out_name} was left as it was; --allow-empty \
                 replaces it with a file of no rows"
            )));
        }
        failure::error_line(format_args!("warning: no rows to write ({why})"));
    }
    out.commit()?;
    if let Some((file, path)) = rejects {
        let file = file.into_inner().into_inner().map_err(|e| Failure::input(&path, e.error()))?;
        file.commit()?;
    }
    let mut summary = format!("{rows} rows written to {out_name}");
    if misfits > 0 || how.policy != Misfits::Fail {
        match &args.rejects {
            Some(path) => summary.push_str(&format!(
                "; {misfits} rows that do not fit the schema rejected into {}{first}",
                path.display()
            )),
            None => summary
                .push_str(&format!("; {misfits} rows that do not fit the schema skipped{first}")),
        }
    }
    if args.skip_bad || bad > 0 {
        summary.push_str(&format!("; {bad} bad frames skipped"));
    }
    failure::warn(format_args!("gdvariant: {summary}"));
    filter::report(conditions)?;
    let complete = bad == 0 && misfits == 0;
    Ok(if complete { ExitCode::SUCCESS } else { ExitCode::from(failure::REFUSED) })
}

/// Names each column of JSON text on standard error, with the types its values mixed (or why
/// values of one type became JSON), one line each:
/// `gdvariant: column "score" is JSON text: its values mix int, String`.
fn report_json_columns(schema: &ExportSchema, version: Version) {
    for (column, types) in schema.json_columns() {
        let names: Vec<&str> = types.iter().map(|ty| ty.name(version)).collect();
        let why = match (types.mixed(), types.iter().next()) {
            (true, _) => format!("its values mix {}", names.join(", ")),
            (false, Some(VariantType::Array)) => {
                "its arrays mix element types, or hold what has no Arrow type".to_owned()
            }
            (false, Some(VariantType::Dictionary)) => format!(
                "its dictionaries have keys that are not strings or more than {} keys, or \
                 hold what has no Arrow type",
                gdvariant_arrow::MAX_FIELDS
            ),
            (false, Some(_)) => format!("{} values have no Arrow type", names.join(", ")),
            (false, None) => continue,
        };
        failure::error_line(format_args!("column {column:?} is JSON text: {why}"));
    }
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
