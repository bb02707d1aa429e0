//! `gdvariant reencode`: decode, then write the bytes Godot's encoder writes for the value.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gdvariant::{EncodeOptions, Options, framing, math::Precision};

use crate::failure::Failure;
use crate::output::{self, Out};
use crate::{DecodeArgs, FileArg, FrameArgs, input, options};

/// Arguments of `reencode`.
#[derive(Args, Debug)]
pub struct ReencodeArgs {
    /// The file (`-`: standard input).
    file: FileArg,
    /// Where to write (default: standard output, which must not be a terminal).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Write real-valued math types in f64, as Godot 4 `precision=double` builds do.
    #[arg(long)]
    double: bool,
    /// The file holds length-prefixed frames: re-encode each value, framed the same way.
    #[arg(long)]
    frames: bool,
    #[command(flatten)]
    decode: DecodeArgs,
    #[command(flatten)]
    framing: FrameArgs,
}

/// Runs `reencode`.
pub fn run(args: &ReencodeArgs) -> Result<ExitCode, Failure> {
    output::check_binary_target(args.output.as_deref())?;
    if let Some(path) = &args.output {
        output::check_not_input(&[("-o", path)], &[&args.file])?;
    }
    let name = input::name(&args.file);
    let bytes = input::open(&args.file)?;
    let mut encoded = Vec::new();
    if args.frames {
        let options = options::frame_options(args.decode, args.framing, &name, &bytes)?;
        let prefix = options::prefix(args.framing);
        for frame in framing::frames(&bytes, prefix, options) {
            let frame = frame.map_err(|e| Failure::input(&name, options::frame_error(&e)))?;
            let value = encode(&name, frame.payload(), options, args.double)?;
            framing::append_frame(&mut encoded, prefix, &value)
                .map_err(|e| Failure::input(&name, e))?;
        }
    } else {
        let options = options::decode_options(args.decode, &name, &bytes)?;
        options::check_value(&name, &bytes, options)?;
        encoded = encode(&name, &bytes, options, args.double)?;
    }
    let mut out = match &args.output {
        Some(path) => Out::create(path)?,
        None => Out::stdout(),
    };
    out.bytes(&encoded)?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// The canonical bytes of the value at the start of `bytes`.
fn encode(name: &str, bytes: &[u8], options: Options, double: bool) -> Result<Vec<u8>, Failure> {
    let value = gdvariant::decode(bytes, options).map_err(|e| Failure::input(name, e))?;
    let precision = if double { Precision::Double } else { Precision::Single };
    let encode_options = EncodeOptions::new(options.version())
        .with_full_objects(options.allow_objects())
        .with_precision(precision);
    gdvariant::encode(&value, encode_options).map_err(|e| Failure::input(name, e))
}
