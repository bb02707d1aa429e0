//! What stops a command, and the exit code it gives.

use std::io::{self, Write};
use std::process::ExitCode;

/// Exit code: the input is refused.
pub const REFUSED: u8 = 1;
/// Exit code: a usage error.
pub const USAGE: u8 = 2;

/// A command that could not complete: one line for standard error, and an exit code.
#[derive(Debug)]
pub enum Failure {
    /// The input is refused or unreadable (exit 1).
    Input(String),
    /// The arguments are wrong (exit 2).
    Usage(String),
    /// Standard output was closed by the reader (a pipe into `head`): stop quietly, exit 0.
    Closed,
}

impl Failure {
    /// `FILE: what` as an input failure.
    pub fn input(file: &str, what: impl std::fmt::Display) -> Self {
        Failure::Input(format!("{file}: {what}"))
    }

    /// An output error: quiet when the reader went away.
    pub fn output(error: &io::Error) -> Self {
        if error.kind() == io::ErrorKind::BrokenPipe {
            Failure::Closed
        } else {
            Failure::Input(format!("cannot write the output: {error}"))
        }
    }

    /// Prints the message (each of its lines, such as a hint that follows the error, after
    /// `gdvariant: `) and gives the exit code.
    pub fn report(self) -> ExitCode {
        let (message, code) = match self {
            Failure::Input(message) => (message, REFUSED),
            Failure::Usage(message) => (message, USAGE),
            Failure::Closed => return ExitCode::SUCCESS,
        };
        let mut stderr = io::stderr().lock();
        for line in message.lines() {
            // Nothing more can be done if standard error is gone.
            let _ = writeln!(stderr, "gdvariant: {line}");
        }
        ExitCode::from(code)
    }
}

/// Prints one line on standard error as it is (a line that carries its own `gdvariant: `).
pub fn warn(message: impl std::fmt::Display) {
    let _ = writeln!(io::stderr().lock(), "{message}");
}

/// Prints one line about an error on standard error, `gdvariant: ` first like every such line
/// of the command (a refused file among others, a bad frame skipped, a warning).
pub fn error_line(message: impl std::fmt::Display) {
    let _ = writeln!(io::stderr().lock(), "gdvariant: {message}");
}
