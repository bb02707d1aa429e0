//! `gdvariant get`: the value at a path, in one value or in every frame of a dump.

use std::process::ExitCode;

use clap::Args;

use crate::failure::Failure;
use crate::output::{self, Out};
use crate::records::{self, Printing, RecordArgs};
use crate::{DecodeArgs, FileArg, Format, FrameArgs, filter, input, options, render};

/// Arguments of `get`.
#[derive(Args, Debug)]
#[command(
    mut_arg("jobs", |arg| records::help_jobs(arg, "check, look into and print")),
    mut_arg("chunk_frames", |arg| records::help_chunk_frames(arg, "checked and printed", "")),
)]
pub struct GetArgs {
    /// The file (`-`: standard input).
    file: FileArg,
    /// Keys and indices separated by `/`, such as `players/3/pos`; an integer segment is an
    /// index or an int key, `"3"` (quoted) the string key 3; the empty path is the whole value.
    path: String,
    /// How to print: Godot's text, lossless JSON, or natural JSON.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write the value's exact bytes (header included) instead.
    #[arg(long, conflicts_with_all = ["format", "frames"])]
    raw: bool,
    /// The file holds length-prefixed frames: print the value at the path in each frame that
    /// has one, as a record (JSON: one line `{"frame":I,"offset":O,"value":V}`; text: a header
    /// line `# frame I at offset O: N bytes`, then N bytes of text).
    #[arg(long)]
    frames: bool,
    /// With --frames: go on past frames Godot refuses (each reported on standard error; the
    /// exit code is 1).
    #[arg(long, requires = "frames")]
    skip_bad: bool,
    #[command(flatten)]
    records: RecordArgs,
    #[command(flatten)]
    decode: DecodeArgs,
    #[command(flatten)]
    framing: FrameArgs,
}

/// Runs `get`.
pub fn run(args: &GetArgs) -> Result<ExitCode, Failure> {
    let keys = gdvariant::view::parse_path(&args.path)
        .map_err(|e| Failure::Usage(format!("path {:?}: {e}", args.path)))?;
    let conditions = filter::parse_all(&args.records.conditions)?;
    if args.raw {
        output::check_binary_target(None)?;
    }
    let name = input::name(&args.file);
    let bytes = input::open(&args.file)?;
    let mut out = Out::stdout();
    if args.frames {
        let options = options::frame_options(args.decode, args.framing, &name, &bytes)?;
        let how =
            Printing::new(&name, options, args.framing, args.skip_bad, &args.records, args.format);
        // A frame without a value at the path has no record.
        return records::print_frames(&bytes, how, &conditions, out, |value| {
            value.lookup(&keys).ok().flatten()
        });
    }
    let options = options::decode_options(args.decode, &name, &bytes)?;
    options::check_value(&name, &bytes, options)?;
    let root = gdvariant::parse_prefix(&bytes, options).map_err(|e| Failure::input(&name, e))?;
    if !filter::all_hold(&conditions, root.value()) {
        return Err(Failure::input(&name, "the value does not meet --where"));
    }
    let found = root
        .lookup(&keys)
        .map_err(|e| Failure::input(&name, format_args!("path {:?}: {e}", args.path)))?
        .ok_or_else(|| Failure::input(&name, format_args!("no value at path {:?}", args.path)))?;
    if args.raw {
        out.bytes(found.raw_bytes())?;
    } else {
        let text = render::render(found.value(), args.format, options.version())
            .map_err(|e| Failure::input(&name, e))?;
        out.line(&text)?;
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
