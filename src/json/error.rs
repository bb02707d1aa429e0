//! [`JsonError`]: why a JSON writer stopped.

use core::fmt;

use crate::wire::error::Error;

/// Why a JSON writer ([`write_json`](super::write_json), [`write_natural_json`](super::write_natural_json)) stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum JsonError {
    /// A malformed value was met; the error carries its byte offset.
    Value(Error),
    /// The output refused a write (`fmt::Write` returned an error).
    Write,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonError::Value(error) => error.fmt(f),
            JsonError::Write => f.write_str("the output refused a write"),
        }
    }
}

impl core::error::Error for JsonError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            JsonError::Value(error) => Some(error),
            JsonError::Write => None,
        }
    }
}

impl From<Error> for JsonError {
    fn from(error: Error) -> Self {
        JsonError::Value(error)
    }
}

impl From<fmt::Error> for JsonError {
    fn from(_: fmt::Error) -> Self {
        JsonError::Write
    }
}
