//! `gdvariant detect`: Godot 3 or Godot 4, and why.

use std::process::ExitCode;

use clap::Args;

use crate::failure::Failure;
use crate::output::Out;
use crate::{FileArg, input};

/// Arguments of `detect`.
#[derive(Args, Debug)]
pub struct DetectArgs {
    /// The file (`-`: standard input).
    file: FileArg,
}

/// Runs `detect`: prints the verdict and its reason; exit code 1 when the bytes are a value
/// of neither version.
pub fn run(args: &DetectArgs) -> Result<ExitCode, Failure> {
    let name = input::name(&args.file);
    let bytes = input::open(&args.file)?;
    let detection = gdvariant::detect(&bytes);
    let mut out = Out::stdout();
    out.line(&format!("{name}: {detection}"))?;
    out.finish()?;
    Ok(if detection.version().is_some() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
