//! `gdvariant dump`: print a value, or every frame's value.

use std::process::ExitCode;

use clap::Args;
use gdvariant::framing;

use crate::failure::Failure;
use crate::output::Out;
use crate::{DecodeArgs, FileArg, Format, FrameArgs, input, options, render};

/// Arguments of `dump`.
#[derive(Args, Debug)]
pub struct DumpArgs {
    /// The file (`-`: standard input).
    file: FileArg,
    /// How to print: Godot's text, or lossless JSON.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The file holds length-prefixed frames (store_var, put_var): print each value on its
    /// own line.
    #[arg(long)]
    frames: bool,
    #[command(flatten)]
    decode: DecodeArgs,
    #[command(flatten)]
    framing: FrameArgs,
}

/// Runs `dump`.
pub fn run(args: &DumpArgs) -> Result<ExitCode, Failure> {
    let name = input::name(&args.file);
    let bytes = input::open(&args.file)?;
    let mut out = Out::stdout();
    if args.frames {
        let options = options::frame_options(args.decode, args.framing, &name, &bytes)?;
        for frame in framing::frames(&bytes, options::prefix(args.framing), options) {
            let frame = frame.map_err(|e| Failure::input(&name, e))?;
            let text = render::render(frame.value(), args.format, options.version())
                .map_err(|e| Failure::input(&name, e))?;
            out.line(&text)?;
        }
    } else {
        let options = options::decode_options(args.decode, &name, &bytes)?;
        gdvariant::validate(&bytes, options).map_err(|e| Failure::input(&name, e))?;
        let value = gdvariant::parse(&bytes, options).map_err(|e| Failure::input(&name, e))?;
        let text = render::render(value, args.format, options.version())
            .map_err(|e| Failure::input(&name, e))?;
        out.line(&text)?;
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
