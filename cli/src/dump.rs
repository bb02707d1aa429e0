//! `gdvariant dump`: print a value, or every frame's value.

use std::process::ExitCode;

use clap::Args;

use crate::failure::Failure;
use crate::output::Out;
use crate::records::{self, Printing, RecordArgs};
use crate::{DecodeArgs, FileArg, Format, FrameArgs, filter, input, options, render};

/// Arguments of `dump`.
#[derive(Args, Debug)]
#[command(
    mut_arg("jobs", |arg| records::help_jobs(arg, "check and print")),
    mut_arg("chunk_frames", |arg| records::help_chunk_frames(arg, "checked and printed", "")),
)]
pub struct DumpArgs {
    /// The file (`-`: standard input).
    file: FileArg,
    /// How to print: Godot's text, lossless JSON, or natural JSON.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The file holds length-prefixed frames (store_var, put_var): print each frame's value as
    /// a record (JSON: one line `{"frame":I,"offset":O,"value":V}`; text: a header line
    /// `# frame I at offset O: N bytes`, then N bytes of text).
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

/// Runs `dump`.
pub fn run(args: &DumpArgs) -> Result<ExitCode, Failure> {
    let name = input::name(&args.file);
    let conditions = filter::parse_all(&args.records.conditions)?;
    let bytes = input::open(&args.file)?;
    let mut out = Out::stdout();
    if !args.frames {
        let options = options::decode_options(args.decode, &name, &bytes)?;
        options::check_value(&name, &bytes, options)?;
        let value = gdvariant::parse(&bytes, options).map_err(|e| Failure::input(&name, e))?;
        if filter::all_hold(&conditions, value) {
            let text = render::render(value, args.format, options.version())
                .map_err(|e| Failure::input(&name, e))?;
            out.line(&text)?;
        }
        out.finish()?;
        return Ok(ExitCode::SUCCESS);
    }
    let options = options::frame_options(args.decode, args.framing, &name, &bytes)?;
    let how =
        Printing::new(&name, options, args.framing, args.skip_bad, &args.records, args.format);
    records::print_frames(&bytes, how, &conditions, out, Some)
}
