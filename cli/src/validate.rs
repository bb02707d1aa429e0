//! `gdvariant validate`: Godot's accept/reject verdict for each file.

use std::process::ExitCode;

use clap::Args;

use crate::failure::{self, Failure};
use crate::output::Out;
use crate::parallel::Flow;
use crate::records::{self, OnBad, RecordArgs};
use crate::{DecodeArgs, FileArg, FrameArgs, filter, input, options, parallel};

/// Arguments of `validate`.
#[derive(Args, Debug)]
#[command(
    mut_arg("jobs", |arg| records::help_jobs(arg, "check")),
    mut_arg("chunk_frames", |arg| records::help_chunk_frames(arg, "checked", "")),
)]
pub struct ValidateArgs {
    /// The files (`-`: standard input).
    #[arg(required = true)]
    files: Vec<FileArg>,
    /// The files hold length-prefixed frames: check every frame.
    #[arg(long)]
    frames: bool,
    #[command(flatten)]
    records: RecordArgs,
    #[command(flatten)]
    decode: DecodeArgs,
    #[command(flatten)]
    framing: FrameArgs,
}

/// Runs `validate`: silent when every file is valid; one line `gdvariant: FILE: <what>` on
/// standard error per refused file (per bad frame with `--frames`), and exit code 1. With `--where` and `--frames`, one
/// line per file on standard output: its name, the frames that meet the conditions, the good
/// frames.
pub fn run(args: &ValidateArgs) -> Result<ExitCode, Failure> {
    let conditions = filter::parse_all(&args.records.conditions)?;
    let mut out = Out::stdout();
    let mut refused = false;
    for file in &args.files {
        match check(args, &conditions, file) {
            Ok(Some((matched, frames))) => {
                out.line(&format!("{}\t{matched}\t{frames}", input::name(file)))?
            }
            Ok(None) => {}
            Err(message) => {
                for line in message.lines() {
                    failure::error_line(line);
                }
                refused = true;
            }
        }
    }
    out.finish()?;
    if args.frames {
        filter::report(&conditions)?;
    }
    Ok(if refused { ExitCode::from(failure::REFUSED) } else { ExitCode::SUCCESS })
}

/// Checks one file; the message for standard error when it is refused; with `--where` and
/// `--frames`, the frames that match and the good frames.
fn check(
    args: &ValidateArgs,
    conditions: &[filter::Condition],
    file: &FileArg,
) -> Result<Option<(u64, u64)>, String> {
    let name = input::name(file);
    let as_message = |failure: Failure| match failure {
        Failure::Input(message) | Failure::Usage(message) => message,
        Failure::Closed => String::new(),
    };
    let bytes = input::open(file).map_err(as_message)?;
    if !args.frames {
        let options = options::decode_options(args.decode, &name, &bytes).map_err(as_message)?;
        options::check_value_alone(&name, &bytes, options).map_err(as_message)?;
        return Ok(None);
    }
    let options =
        options::frame_options(args.decode, args.framing, &name, &bytes).map_err(as_message)?;
    let chunks = parallel::chunks(
        &bytes,
        options::prefix(args.framing),
        options,
        false,
        args.records.chunk_frames,
    );
    let mut messages = Vec::new();
    let (mut matched, mut frames) = (0u64, 0u64);
    parallel::run(
        parallel::threads(args.records.jobs),
        chunks,
        |chunk| records::walk(chunk, &name, options, conditions, OnBad::Report, |_, _, _| Ok(())),
        |walked| {
            messages.extend(walked.bad.iter().cloned());
            matched = matched.saturating_add(walked.matched);
            frames = frames.saturating_add(walked.frames);
            Ok(if walked.ended { Flow::Stop } else { Flow::Continue })
        },
    )
    .map_err(as_message)?;
    if !messages.is_empty() {
        return Err(messages.join("\n"));
    }
    Ok((!conditions.is_empty()).then_some((matched, frames)))
}
