//! `gdvariant frames`: walk the frames of a dump or stream capture, list them or summarise
//! them.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Args;
use gdvariant::framing::{self, Frame, FrameStats, FrameSummary, Skipped};
use gdvariant::{Options, Version};
use indicatif::{ProgressBar, ProgressStyle};

use crate::failure::{self, Failure};
use crate::output::Out;
use crate::{DecodeArgs, FileArg, FrameArgs, input, options};

/// Arguments of `frames`.
#[derive(Args, Debug)]
pub struct FramesArgs {
    /// The file (`-`: standard input).
    file: FileArg,
    /// Print counts per type, bytes, the largest frames and the deepest value instead of one
    /// line per frame.
    #[arg(long)]
    stats: bool,
    /// Go on past a corrupt frame (each is reported on standard error) instead of stopping at
    /// the first; the exit code is still 1 when any frame was bad.
    #[arg(long)]
    skip_bad: bool,
    #[command(flatten)]
    decode: DecodeArgs,
    #[command(flatten)]
    framing: FrameArgs,
}

/// Frames between progress updates.
const PROGRESS_EVERY: u32 = 4096;

/// Runs `frames`.
pub fn run(args: &FramesArgs) -> Result<ExitCode, Failure> {
    let name = input::name(&args.file);
    let bytes = input::open(&args.file)?;
    let options = options::frame_options(args.decode, args.framing, &name, &bytes)?;
    let prefix = options::prefix(args.framing);
    let progress = progress_bar(bytes.len());
    let mut out = Out::stdout();
    if !args.stats {
        out.line(HEADER)?;
    }
    let mut stats = FrameStats::new();
    let mut index = 0u64;
    let mut until_update = PROGRESS_EVERY;
    let mut step = |item: Result<Frame<'_>, Skipped>, out: &mut Out| -> Result<bool, Failure> {
        until_update = until_update.saturating_sub(1);
        if until_update == 0 {
            until_update = PROGRESS_EVERY;
            if let (Some(bar), Ok(frame)) = (&progress, &item) {
                bar.set_position(frame.offset());
            }
        }
        let good = match item {
            Ok(frame) => {
                let summary = FrameSummary::of(&frame);
                stats.add_summary(summary);
                if !args.stats {
                    out.line(&line(index, summary, options))?;
                }
                true
            }
            Err(skipped) => {
                stats.add_bad(skipped.len);
                let message = format!("{name}: {}", skipped.error);
                match &progress {
                    Some(bar) => bar.suspend(|| failure::warn(&message)),
                    None => failure::warn(&message),
                }
                false
            }
        };
        index = index.saturating_add(1);
        Ok(good)
    };
    if args.skip_bad {
        for item in framing::scan(&bytes, prefix, options) {
            step(item, &mut out)?;
        }
    } else {
        for item in framing::frames(&bytes, prefix, options) {
            let item = item.map_err(|error| Skipped { error, len: 0 });
            if !step(item, &mut out)? {
                break;
            }
        }
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if args.stats {
        for text in summary(&stats, options.version()) {
            out.line(&text)?;
        }
    }
    out.finish()?;
    let clean = stats.bad_frames() == 0;
    Ok(if clean { ExitCode::SUCCESS } else { ExitCode::from(failure::REFUSED) })
}

/// A progress bar on standard error, when it is a terminal.
fn progress_bar(len: usize) -> Option<ProgressBar> {
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

/// The first line of the list: the columns of [`line`].
const HEADER: &str = "index\toffset\tbytes\ttype\tdepth";

/// One frame's line: index, offset, bytes (prefix included), type, depth.
fn line(index: u64, frame: FrameSummary, options: Options) -> String {
    let ty = frame.variant_type.name(options.version());
    format!("{index}\t{}\t{}\t{ty}\t{}", frame.offset, frame.len, frame.depth)
}

/// The lines of `--stats`.
fn summary(stats: &FrameStats, version: Version) -> Vec<String> {
    let mut lines = vec![
        format!("frames: {} ({} bytes)", stats.frames(), stats.bytes()),
        format!("bad frames: {} ({} bytes)", stats.bad_frames(), stats.bad_bytes()),
        "by type:".to_owned(),
    ];
    for (ty, count) in stats.by_type() {
        lines.push(format!(
            "  {}\t{} frames\t{} bytes",
            ty.name(version),
            count.frames,
            count.bytes
        ));
    }
    lines.push("largest frames:".to_owned());
    for frame in stats.largest() {
        let ty = frame.variant_type.name(version);
        lines.push(format!("  {} bytes\tat byte offset {}\t{ty}", frame.len, frame.offset));
    }
    match stats.deepest() {
        Some(frame) => lines.push(format!(
            "max depth: {} (at byte offset {}, {})",
            frame.depth,
            frame.offset,
            frame.variant_type.name(version)
        )),
        None => lines.push("max depth: -".to_owned()),
    }
    lines
}
