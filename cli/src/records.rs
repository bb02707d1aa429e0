//! Frames as records: the options every frame-walking command shares (`--where`, `--jobs`),
//! the walk of one chunk of frames (check, filter, format, on any thread), how a frame's value
//! is written as a record (a JSON line with its index and offset, or a block of text behind a
//! header that gives its length), and [`print_frames`], the whole of `dump --frames` and
//! `get --frames` but for the value each prints.

use std::io::IsTerminal;

use clap::Args;
use std::process::ExitCode;

use gdvariant::framing::{Frame, FrameSummary, LengthPrefix};
use gdvariant::{Options, VariantRef, Version};
use indicatif::{ProgressBar, ProgressStyle};

use crate::failure::{self, Failure};
use crate::filter::{self, Condition};
use crate::output::Out;
use crate::parallel::{self, Chunk, Flow, Item};
use crate::{Format, options};

/// `--where`, `--jobs` and `--chunk-frames`. What a thread does with a chunk differs by command,
/// so each command gives `--jobs` and `--chunk-frames` its own help ([`help_jobs`],
/// [`help_chunk_frames`], applied with clap's `mut_arg` on the command's arguments).
#[derive(Args, Debug, Clone)]
pub struct RecordArgs {
    /// Only frames whose value meets CONDITION: `PATH=VALUE`, `PATH!=VALUE`, or `PATH` (a value
    /// is there); repeatable, all must hold. VALUE: null, true, false, a number (1 equals 1.0),
    /// or a string.
    #[arg(long = "where", value_name = "CONDITION")]
    pub conditions: Vec<String>,
    /// Threads that work on frames (0: one per core). The output is the same whatever the
    /// number.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub jobs: usize,
    /// Frames per chunk of work, one chunk per thread at a time (at most 8 MiB of frames each).
    #[arg(long, default_value_t = crate::parallel::CHUNK_FRAMES, value_name = "N")]
    pub chunk_frames: usize,
}

/// The help of `--jobs` for a command whose threads do `work` with frames ("check and print").
pub fn help_jobs(arg: clap::Arg, work: &str) -> clap::Arg {
    arg.help(format!(
        "Threads that {work} frames (0: one per core). The output is the same whatever the number"
    ))
}

/// The help of `--chunk-frames` for a command whose threads do `work` with each chunk, and
/// `more` to say about chunks (may be empty).
pub fn help_chunk_frames(arg: clap::Arg, work: &str, more: &str) -> clap::Arg {
    arg.help(format!(
        "Frames per chunk of work (at most 8 MiB of frames each): each chunk is {work} on one \
         thread{more}"
    ))
}

/// What to do at a frame whose value Godot refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnBad {
    /// Report it and stop (nothing after it is read).
    Stop,
    /// Report it and go on.
    Report,
}

/// What walking one chunk gave.
#[derive(Debug, Default)]
pub struct Walked {
    /// The formatted output of the chunk's matching frames.
    pub out: Vec<u8>,
    /// One message per bad frame or unreadable stretch, in order.
    pub bad: Vec<String>,
    /// The bytes of each bad frame or stretch (for statistics).
    pub bad_bytes: Vec<u64>,
    /// Set when the command must fail after this chunk's output: the message.
    pub fail: Option<String>,
    /// Set when nothing after this chunk can be read (the message is in `bad`).
    pub ended: bool,
    /// Summaries of the matching frames (for statistics).
    pub summaries: Vec<FrameSummary>,
    /// Frames read (good and matching or not).
    pub frames: u64,
    /// Frames that met every condition.
    pub matched: u64,
    /// Where the chunk ends in the dump (for progress).
    pub end: u64,
}

/// Walks a chunk: checks each frame, keeps those that meet `conditions` (counting them for
/// [`filter::report`]), and calls `each` on them with their index (in the dump) and the output
/// buffer.
pub fn walk<'a>(
    chunk: Chunk<'a>,
    name: &str,
    options: Options,
    conditions: &[Condition],
    on_bad: OnBad,
    mut each: impl FnMut(u64, &Frame<'a>, &mut Walked) -> Result<(), String>,
) -> Walked {
    let mut walked = Walked { end: chunk.end, ..Walked::default() };
    for (item, index) in chunk.items.into_iter().zip(chunk.first..) {
        match item {
            Item::Frame(raw) => match raw.decode(options) {
                Ok(frame) => {
                    walked.frames = walked.frames.saturating_add(1);
                    let matched = filter::all_hold(conditions, frame.value());
                    filter::count(conditions, matched);
                    if !matched {
                        continue;
                    }
                    walked.matched = walked.matched.saturating_add(1);
                    walked.summaries.push(FrameSummary::of(&frame));
                    if let Err(message) = each(index, &frame, &mut walked) {
                        walked.fail = Some(format!("{name}: {message}"));
                        return walked;
                    }
                }
                Err(error) if on_bad == OnBad::Stop => {
                    walked.fail = Some(format!("{name}: {}", options::frame_error(&error)));
                    return walked;
                }
                Err(error) => {
                    walked.bad.push(format!("{name}: {}", options::frame_error(&error)));
                    walked.bad_bytes.push(raw.raw_bytes().len() as u64);
                }
            },
            Item::Skipped(skipped) => {
                walked.bad.push(format!("{name}: {}", options::frame_error(&skipped.error)));
                walked.bad_bytes.push(skipped.len);
            }
            Item::Broken(error) if on_bad == OnBad::Stop => {
                walked.fail = Some(format!("{name}: {}", options::frame_error(&error)));
                return walked;
            }
            Item::Broken(error) => {
                walked.bad.push(format!("{name}: {}", options::frame_error(&error)));
                walked.bad_bytes.push(0);
                walked.ended = true;
                return walked;
            }
        }
    }
    walked
}

/// Appends one record: with a JSON format, a line `{"frame":I,"offset":O,"value":V}`; with
/// text, a header line `# frame I at offset O: N bytes` and then exactly N bytes of Godot's
/// text (which may span lines) and a line break, so records can be split without parsing the
/// text.
pub fn record(
    out: &mut Vec<u8>,
    format: Format,
    version: Version,
    index: u64,
    offset: u64,
    value: VariantRef<'_>,
) -> Result<(), gdvariant::Error> {
    let text = crate::render::render(value, format, version)?;
    match format {
        Format::Text => {
            out.extend_from_slice(
                format!("# frame {index} at offset {offset}: {} bytes\n", text.len()).as_bytes(),
            );
        }
        Format::Json | Format::Natural => {
            out.extend_from_slice(
                format!("{{\"frame\":{index},\"offset\":{offset},\"value\":").as_bytes(),
            );
        }
    }
    out.extend_from_slice(text.as_bytes());
    if format != Format::Text {
        out.push(b'}');
    }
    out.push(b'\n');
    Ok(())
}

/// A progress bar on standard error over `len` bytes, when it is a terminal.
pub fn progress_bar(len: usize) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(u64::try_from(len).unwrap_or(u64::MAX));
    let style =
        ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    Some(bar)
}

/// What the sink does after a chunk's output: fail with its message, stop after an
/// unreadable prefix, or go on.
pub fn outcome(walked: &Walked) -> Result<Flow, Failure> {
    match &walked.fail {
        Some(message) => Err(Failure::Input(message.clone())),
        None if walked.ended => Ok(Flow::Stop),
        None => Ok(Flow::Continue),
    }
}

/// Prints error messages on standard error, each behind `gdvariant: ` (above the progress
/// bar, if any).
pub fn warn_all(messages: &[String], bar: Option<&ProgressBar>) {
    for message in messages.iter().filter(|m| !m.is_empty()) {
        match bar {
            Some(bar) => bar.suspend(|| failure::error_line(message)),
            None => failure::error_line(message),
        }
    }
}

/// How `dump --frames` and `get --frames` read and print a dump's frames.
#[derive(Debug, Clone, Copy)]
pub struct Printing<'c> {
    /// The input's name, for messages.
    pub name: &'c str,
    /// How each frame's value is read.
    pub options: Options,
    /// The frames' length prefix.
    pub prefix: LengthPrefix,
    /// Go on past frames Godot refuses (reported on standard error) instead of stopping.
    pub skip_bad: bool,
    /// `--jobs` and `--chunk-frames`.
    pub records: &'c RecordArgs,
    /// How each value is printed.
    pub format: Format,
}

impl<'c> Printing<'c> {
    /// The settings of a command's arguments: `framing` gives the length prefix.
    pub fn new(
        name: &'c str,
        options: Options,
        framing: crate::FrameArgs,
        skip_bad: bool,
        records: &'c RecordArgs,
        format: Format,
    ) -> Self {
        Printing {
            name,
            options,
            prefix: crate::options::prefix(framing),
            skip_bad,
            records,
            format,
        }
    }
}

/// Prints a record for every frame of `bytes` that meets `conditions`: the value `pick` chooses
/// in the frame's value (a frame where it finds none has no record). Chunks of frames are
/// checked and formatted on `--jobs` threads and printed to `out` in frame order; then, with
/// `--where`, how many frames matched ([`filter::report`]). Returns the exit
/// code: [`failure::REFUSED`] when a frame was skipped as bad.
///
/// # Errors
/// The first bad frame (without `skip_bad`), a value that cannot be printed, a failed write.
pub fn print_frames<'a>(
    bytes: &'a [u8],
    how: Printing<'_>,
    conditions: &[Condition],
    mut out: Out,
    pick: impl Fn(VariantRef<'a>) -> Option<VariantRef<'a>> + Sync,
) -> Result<ExitCode, Failure> {
    let chunks =
        parallel::chunks(bytes, how.prefix, how.options, how.skip_bad, how.records.chunk_frames);
    let on_bad = if how.skip_bad { OnBad::Report } else { OnBad::Stop };
    let version = how.options.version();
    let mut bad = false;
    parallel::run(
        parallel::threads(how.records.jobs),
        chunks,
        |chunk| {
            walk(chunk, how.name, how.options, conditions, on_bad, |index, frame, walked| {
                let Some(value) = pick(frame.value()) else { return Ok(()) };
                record(&mut walked.out, how.format, version, index, frame.offset(), value)
                    .map_err(|e| e.to_string())
            })
        },
        |walked| {
            out.bytes(&walked.out)?;
            warn_all(&walked.bad, None);
            bad |= !walked.bad.is_empty();
            outcome(&walked)
        },
    )?;
    out.finish()?;
    filter::report(conditions)?;
    Ok(if bad { ExitCode::from(failure::REFUSED) } else { ExitCode::SUCCESS })
}
