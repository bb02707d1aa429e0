//! `gdvariant get`: the value at a path.

use std::process::ExitCode;

use clap::Args;

use crate::failure::Failure;
use crate::output::{self, Out};
use crate::{DecodeArgs, FileArg, Format, input, options, render};

/// Arguments of `get`.
#[derive(Args, Debug)]
pub struct GetArgs {
    /// The file (`-`: standard input).
    file: FileArg,
    /// Keys and indices separated by `/`, such as `players/3/pos`; an integer segment is an
    /// index or an int key, `"3"` (quoted) the string key 3; the empty path is the whole value.
    path: String,
    /// How to print: Godot's text, or lossless JSON.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write the value's exact bytes (header included) instead.
    #[arg(long, conflicts_with = "format")]
    raw: bool,
    #[command(flatten)]
    decode: DecodeArgs,
}

/// Runs `get`.
pub fn run(args: &GetArgs) -> Result<ExitCode, Failure> {
    let keys = gdvariant::parse_path(&args.path)
        .map_err(|e| Failure::Usage(format!("path {:?}: {e}", args.path)))?;
    if args.raw {
        output::check_binary_target(None)?;
    }
    let name = input::name(&args.file);
    let bytes = input::open(&args.file)?;
    let options = options::decode_options(args.decode, &name, &bytes)?;
    gdvariant::validate(&bytes, options).map_err(|e| Failure::input(&name, e))?;
    let root = gdvariant::parse_prefix(&bytes, options).map_err(|e| Failure::input(&name, e))?;
    let found = root
        .lookup(&keys)
        .map_err(|e| Failure::input(&name, format_args!("path {:?}: {e}", args.path)))?
        .ok_or_else(|| Failure::input(&name, format_args!("no value at path {:?}", args.path)))?;
    let mut out = Out::stdout();
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
