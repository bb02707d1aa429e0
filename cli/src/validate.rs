//! `gdvariant validate`: Godot's accept/reject verdict for each file.

use std::process::ExitCode;

use clap::Args;
use gdvariant::framing;

use crate::failure::{self, Failure};
use crate::{DecodeArgs, FileArg, FrameArgs, input, options};

/// Arguments of `validate`.
#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// The files (`-`: standard input).
    #[arg(required = true)]
    files: Vec<FileArg>,
    /// The files hold length-prefixed frames: check every frame.
    #[arg(long)]
    frames: bool,
    #[command(flatten)]
    decode: DecodeArgs,
    #[command(flatten)]
    framing: FrameArgs,
}

/// Runs `validate`: silent when every file is valid; one line on standard error per refused
/// file (per bad frame with `--frames`), and exit code 1.
pub fn run(args: &ValidateArgs) -> Result<ExitCode, Failure> {
    let mut refused = false;
    for file in &args.files {
        if let Err(message) = check(args, file) {
            failure::warn(message);
            refused = true;
        }
    }
    Ok(if refused { ExitCode::from(failure::REFUSED) } else { ExitCode::SUCCESS })
}

/// Checks one file; the message for standard error when it is refused.
fn check(args: &ValidateArgs, file: &FileArg) -> Result<(), String> {
    let name = input::name(file);
    let as_message = |failure: Failure| match failure {
        Failure::Input(message) | Failure::Usage(message) => message,
        Failure::Closed => String::new(),
    };
    let bytes = input::open(file).map_err(as_message)?;
    if !args.frames {
        let options = options::decode_options(args.decode, &name, &bytes).map_err(as_message)?;
        return gdvariant::validate(&bytes, options).map_err(|e| format!("{name}: {e}"));
    }
    let options =
        options::frame_options(args.decode, args.framing, &name, &bytes).map_err(as_message)?;
    let mut messages = Vec::new();
    for frame in framing::frames(&bytes, options::prefix(args.framing), options) {
        if let Err(error) = frame {
            messages.push(format!("{name}: {error}"));
        }
    }
    if messages.is_empty() { Ok(()) } else { Err(messages.join("\n")) }
}
