//! The one error type of the crate.
//!
//! An [`Error`] is small and `Copy`: a byte offset and an [`ErrorKind`]. The offset is absolute,
//! counted from the start of the buffer handed to [`parse`](crate::parse),
//! [`validate`](crate::validate) or [`parse_prefix`](crate::parse_prefix), and points at the
//! field that is wrong (a header, a count, a length, the first byte of a bad string).
//!
//! Two families of kinds exist, told apart by [`Error::is_malformed`]:
//!
//! * the bytes are not a value Godot would decode (truncated, unknown type, bad UTF-8, ...);
//! * the bytes are fine but not what the caller asked for ([`ErrorKind::WrongType`]). A missing
//!   key or index is not an error at all: lookups return `Ok(None)`.

use core::fmt;

use crate::wire::options::Version;
use crate::wire::types::VariantType;

/// Something that stopped a read, and the absolute byte offset where it was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    offset: usize,
    kind: ErrorKind,
}

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A fixed-size field (a header, a number, a count, a math value) runs past the end of the
    /// input. `needed` is how many bytes the field needs from the error offset on.
    Truncated {
        /// Bytes the field needs, counted from the error offset.
        needed: usize,
    },
    /// A string's declared length, plus its padding to 4 bytes, runs past the end of the input, or
    /// the length is negative as a signed 32-bit number. Godot reports this as `ERR_FILE_EOF`.
    StringOverrun {
        /// The declared length, as the unsigned 32-bit number on the wire.
        declared: u32,
    },
    /// The type id in the low byte of a header is not a type of the chosen Godot version.
    UnknownType {
        /// The type id found.
        id: u8,
    },
    /// A packed array's element count is negative, overflows Godot's signed 32-bit size
    /// arithmetic, or needs more bytes than remain; or a container or NodePath declares more
    /// elements than the remaining bytes could possibly hold (each needs at least 4 bytes).
    BadCount {
        /// The count as Godot reads it: bit 31 masked off for arrays and dictionaries; for a
        /// NodePath, names plus subnames (the error then points at the NodePath's first field).
        count: u32,
    },
    /// A string is not text Godot accepts (see [`GdStr`](crate::view::GdStr) for the rules of each
    /// version).
    InvalidUtf8,
    /// The string is accepted by Godot 3 but holds code points Rust's `str` cannot carry
    /// (UTF-16 surrogates or values above U+10FFFF). Read its code points with
    /// [`GdStr::code_points`](crate::view::GdStr::code_points), or own it as a
    /// [`GdString`](crate::owned::GdString) (feature `alloc`).
    NotUnicode,
    /// The string is Godot 3 text spelled with overlong UTF-8 forms, which Godot 3 accepts and
    /// reads as the characters they encode (`E0 81 B4` is `t`): the text exists
    /// ([`GdStr::to_text`](crate::view::GdStr::to_text), feature `alloc`) but is not in the buffer as
    /// such, so no `&str` borrows it.
    Overlong,
    /// The value is nested deeper than [`Options::max_depth`](crate::Options::max_depth).
    /// Godot reports `ERR_OUT_OF_MEMORY` ("Variant is too deep").
    DepthLimit,
    /// A full object (not an instance id) was found while
    /// [`Options::allow_objects`](crate::Options::allow_objects) is off (`ERR_UNAUTHORIZED`).
    ObjectsNotAllowed,
    /// A full object names a class Godot cannot instantiate.
    UnknownClass,
    /// A NodePath header lacks bit 31 (the pre-3.0 "plain string" form, which Godot rejects).
    OldNodePath,
    /// A typed container names a builtin element type that does not exist, or a script path Godot
    /// would refuse.
    InvalidContainerType,
    /// A full object's `script` property is not a `res://` path (Godot 4 only).
    InvalidScript,
    /// The bytes are a valid value, but not of the type the caller asked for.
    WrongType {
        /// The type the caller asked for.
        expected: VariantType,
        /// The type found.
        found: VariantType,
    },
    /// The value has the type asked for, but does not fit the Rust type it was asked as (an
    /// `int` over `i32::MAX` read as `i32`, a finite `float` beyond `f32::MAX` read as `f32`).
    OutOfRange {
        /// The Godot type of the value.
        found: VariantType,
    },
    /// Godot accepts the value, but what the game makes of it depends on the game itself, so it
    /// cannot be known from the bytes: with
    /// [`Options::with_game_view`](crate::Options::with_game_view), a typed container's element
    /// whose conversion takes a run-time value (the text of an object, which holds its instance id; the RID of a new
    /// resource) or whose admission depends on the game's scripts. The offset is that of the
    /// element, or of the typed container holding it.
    GameDependent,
}

/// Godot's own `Error` code for a failed decode, so results can be compared with the engine's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GodotError {
    /// `ERR_UNAVAILABLE` (2).
    Unavailable,
    /// `ERR_UNAUTHORIZED` (4).
    Unauthorized,
    /// `ERR_OUT_OF_MEMORY` (6).
    OutOfMemory,
    /// `ERR_FILE_EOF` (18).
    FileEof,
    /// `ERR_INVALID_DATA` (30).
    InvalidData,
}

impl GodotError {
    /// The name Godot prints, such as `"ERR_INVALID_DATA"`.
    pub const fn name(self) -> &'static str {
        match self {
            GodotError::Unavailable => "ERR_UNAVAILABLE",
            GodotError::Unauthorized => "ERR_UNAUTHORIZED",
            GodotError::OutOfMemory => "ERR_OUT_OF_MEMORY",
            GodotError::FileEof => "ERR_FILE_EOF",
            GodotError::InvalidData => "ERR_INVALID_DATA",
        }
    }

    /// The numeric value of Godot's `Error` enum.
    pub const fn code(self) -> u32 {
        match self {
            GodotError::Unavailable => 2,
            GodotError::Unauthorized => 4,
            GodotError::OutOfMemory => 6,
            GodotError::FileEof => 18,
            GodotError::InvalidData => 30,
        }
    }
}

impl Error {
    /// An error of `kind` at absolute byte `offset`.
    pub const fn new(offset: usize, kind: ErrorKind) -> Self {
        Error { offset, kind }
    }

    /// The absolute byte offset of the problem, from the start of the caller's buffer.
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// The same error with its offset moved `by` bytes further, for a value read out of a
    /// larger buffer (a frame of a stream, say). Saturates instead of overflowing.
    pub const fn offset_by(self, by: usize) -> Self {
        Error { offset: self.offset.saturating_add(by), kind: self.kind }
    }

    /// What went wrong.
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// `true` when the bytes themselves are bad (Godot would refuse them); `false` when they are
    /// fine but not what was asked for ([`ErrorKind::WrongType`], [`ErrorKind::OutOfRange`],
    /// and the Godot 3 strings Godot accepts but a `str` cannot hold or borrow:
    /// [`ErrorKind::NotUnicode`], [`ErrorKind::Overlong`]), or what the game makes of them cannot
    /// be known ([`ErrorKind::GameDependent`]).
    pub const fn is_malformed(&self) -> bool {
        !matches!(
            self.kind,
            ErrorKind::WrongType { .. }
                | ErrorKind::OutOfRange { .. }
                | ErrorKind::NotUnicode
                | ErrorKind::Overlong
                | ErrorKind::GameDependent
        )
    }

    /// For a malformed input, the error Godot's decoder of `version` returns for it.
    /// `None` for [`ErrorKind::WrongType`], [`ErrorKind::OutOfRange`], [`ErrorKind::NotUnicode`]
    /// [`ErrorKind::Overlong`] and [`ErrorKind::GameDependent`], which Godot does not have.
    pub const fn godot_error(&self, version: Version) -> Option<GodotError> {
        Some(match self.kind {
            ErrorKind::StringOverrun { .. } => GodotError::FileEof,
            ErrorKind::DepthLimit => GodotError::OutOfMemory,
            ErrorKind::ObjectsNotAllowed => GodotError::Unauthorized,
            ErrorKind::UnknownClass => match version {
                Version::Godot3 => GodotError::Unavailable,
                Version::Godot4 => GodotError::InvalidData,
            },
            ErrorKind::Truncated { .. }
            | ErrorKind::UnknownType { .. }
            | ErrorKind::BadCount { .. }
            | ErrorKind::InvalidUtf8
            | ErrorKind::OldNodePath
            | ErrorKind::InvalidContainerType
            | ErrorKind::InvalidScript => GodotError::InvalidData,
            ErrorKind::WrongType { .. }
            | ErrorKind::OutOfRange { .. }
            | ErrorKind::NotUnicode
            | ErrorKind::Overlong
            | ErrorKind::GameDependent => {
                return None;
            }
        })
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ErrorKind::Truncated { needed } => {
                write!(f, "input ends inside a field that needs {needed} bytes")
            }
            ErrorKind::StringOverrun { declared } => {
                write!(f, "string length {declared} (plus padding) runs past the end of the input")
            }
            ErrorKind::UnknownType { id } => write!(f, "unknown type id {id}"),
            ErrorKind::BadCount { count } => {
                write!(f, "element count {count} does not fit in the remaining bytes")
            }
            ErrorKind::InvalidUtf8 => f.write_str("string is not valid UTF-8"),
            ErrorKind::NotUnicode => {
                f.write_str("string holds code points that are not Unicode scalar values")
            }
            ErrorKind::Overlong => f.write_str(
                "string is spelled with overlong UTF-8 forms: its text cannot be borrowed",
            ),
            ErrorKind::DepthLimit => f.write_str("value is nested too deeply"),
            ErrorKind::ObjectsNotAllowed => {
                f.write_str("full object found while object decoding is not allowed")
            }
            ErrorKind::UnknownClass => f.write_str("object class cannot be instantiated"),
            ErrorKind::OldNodePath => f.write_str("NodePath in the obsolete plain-string form"),
            ErrorKind::InvalidContainerType => f.write_str("invalid typed-container element type"),
            ErrorKind::InvalidScript => f.write_str("object script is not a res:// path"),
            ErrorKind::WrongType { expected, found } => {
                write!(f, "expected {expected:?}, found {found:?}")
            }
            ErrorKind::OutOfRange { found } => {
                write!(f, "{found:?} value out of range for the type asked for")
            }
            ErrorKind::GameDependent => f.write_str(
                "what the game holds here depends on the game (an instance id, a RID or a script)",
            ),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte offset {}", self.kind, self.offset)
    }
}

impl core::error::Error for Error {}

/// The crate's result type.
pub type Result<T, E = Error> = core::result::Result<T, E>;
