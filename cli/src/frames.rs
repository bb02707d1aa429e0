//! `gdvariant frames`: walk the frames of a dump or stream capture, list them or summarise
//! them.

use std::process::ExitCode;

use clap::Args;
use gdvariant::framing::{FrameStats, FrameSummary};
use gdvariant::{Options, Version};

use crate::failure::{self, Failure};
use crate::output::Out;
use crate::parallel::Flow;
use crate::records::{self, OnBad, RecordArgs};
use crate::{DecodeArgs, FileArg, FrameArgs, filter, input, options, parallel};

/// Arguments of `frames`.
#[derive(Args, Debug)]
#[command(
    mut_arg("jobs", |arg| records::help_jobs(arg, "check and list")),
    mut_arg("chunk_frames", |arg| records::help_chunk_frames(arg, "checked and listed", "")),
)]
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
    records: RecordArgs,
    #[command(flatten)]
    decode: DecodeArgs,
    #[command(flatten)]
    framing: FrameArgs,
}

/// Runs `frames`.
pub fn run(args: &FramesArgs) -> Result<ExitCode, Failure> {
    let name = input::name(&args.file);
    let conditions = filter::parse_all(&args.records.conditions)?;
    let bytes = input::open(&args.file)?;
    let options = options::frame_options(args.decode, args.framing, &name, &bytes)?;
    let prefix = options::prefix(args.framing);
    let progress = records::progress_bar(bytes.len());
    let mut out = Out::stdout();
    if !args.stats {
        out.line(HEADER)?;
    }
    let mut stats = FrameStats::new();
    let on_bad = if args.skip_bad { OnBad::Report } else { OnBad::Stop };
    let list = !args.stats;
    parallel::run(
        parallel::threads(args.records.jobs),
        parallel::chunks(&bytes, prefix, options, args.skip_bad, args.records.chunk_frames),
        |chunk| {
            records::walk(chunk, &name, options, &conditions, on_bad, |index, frame, walked| {
                if list {
                    let text = line(index, FrameSummary::of(frame), options);
                    walked.out.extend_from_slice(text.as_bytes());
                    walked.out.push(b'\n');
                }
                Ok(())
            })
        },
        |walked| {
            out.bytes(&walked.out)?;
            for summary in &walked.summaries {
                stats.add_summary(*summary);
            }
            for len in &walked.bad_bytes {
                stats.add_bad(*len);
            }
            records::warn_all(&walked.bad, progress.as_ref());
            if let Some(bar) = &progress {
                bar.set_position(walked.end);
            }
            match &walked.fail {
                // Without --skip-bad the first bad frame ends the list.
                Some(message) => {
                    records::warn_all(std::slice::from_ref(message), progress.as_ref());
                    stats.add_bad(0);
                    Ok(Flow::Stop)
                }
                None if walked.ended => Ok(Flow::Stop),
                None => Ok(Flow::Continue),
            }
        },
    )?;
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if args.stats {
        for text in summary(&stats, options.version()) {
            out.line(&text)?;
        }
    }
    out.finish()?;
    filter::report(&conditions)?;
    let clean = stats.bad_frames() == 0;
    Ok(if clean { ExitCode::SUCCESS } else { ExitCode::from(failure::REFUSED) })
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
