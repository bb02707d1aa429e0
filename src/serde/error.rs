//! [`DeError`]: what stopped a deserialization, where in the value, and at which byte.

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

/// One step of the path from the top-level value to the value an error is about.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PathSegment {
    /// A dictionary entry with a `String` or `StringName` key, a property of a full object, a
    /// field of a math value or a signal, or an enum variant: shown as `.name`.
    Field(String),
    /// An element of an array, a packed array or a tuple-like value: shown as `[3]`.
    Index(usize),
    /// A dictionary entry with any other key, as text (`5`, `true`, `null`, `Vector2`, ...):
    /// shown as `[5]`.
    Key(String),
}

/// A deserialization error from [`from_bytes`](super::from_bytes),
/// [`from_variant_ref`](super::from_variant_ref) or a [`VariantDeserializer`](super::VariantDeserializer):
/// a message, the path to the value it is about (`pos.x`, `items[3].name`) and the absolute byte
/// offset of that value (of the offending byte, for malformed input).
///
/// Displays as `invalid type: string "a", expected u32 at seq (byte offset 40)`; the path is
/// left out at the top level, the offset when it is unknown (a top-level scalar handed to
/// [`from_variant_ref`](super::from_variant_ref)).
pub struct DeError {
    inner: Box<Inner>,
}

struct Inner {
    message: String,
    /// Innermost step first (errors collect their path on the way out).
    path: Vec<PathSegment>,
    offset: Option<usize>,
    decode: Option<crate::Error>,
}

impl DeError {
    fn new(message: String) -> Self {
        DeError { inner: Box::new(Inner { message, path: Vec::new(), offset: None, decode: None }) }
    }

    /// What went wrong, without the path and the offset.
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// The absolute byte offset, from the start of the buffer, of the value the error is about,
    /// or of the offending byte when the input is malformed.
    pub fn offset(&self) -> Option<usize> {
        self.inner.offset
    }

    /// The steps from the top-level value to the value the error is about, outermost first.
    pub fn path_segments(
        &self,
    ) -> impl DoubleEndedIterator<Item = &PathSegment> + ExactSizeIterator {
        self.inner.path.iter().rev()
    }

    /// The path as text, such as `items[3].name`; empty at the top level.
    pub fn path(&self) -> String {
        let mut text = String::new();
        for segment in self.path_segments() {
            match segment {
                PathSegment::Field(name) => {
                    if !text.is_empty() {
                        text.push('.');
                    }
                    text.push_str(name);
                }
                PathSegment::Index(index) => {
                    text.push('[');
                    text.push_str(&index.to_string());
                    text.push(']');
                }
                PathSegment::Key(key) => {
                    text.push('[');
                    text.push_str(key);
                    text.push(']');
                }
            }
        }
        text
    }

    /// The decoding error, when the bytes themselves are malformed (Godot would refuse them, or
    /// a Godot 3 string is not Unicode where Rust text is needed): its kind, offset and
    /// [`godot_error`](crate::Error::godot_error).
    pub fn decode_error(&self) -> Option<crate::Error> {
        self.inner.decode
    }

    /// Sets the offset if none is set yet: the innermost value that knows its offset wins.
    pub(crate) fn or_offset(mut self, offset: Option<usize>) -> Self {
        if self.inner.offset.is_none() {
            self.inner.offset = offset;
        }
        self
    }

    /// Adds the step into the value the error came from.
    pub(crate) fn within(mut self, segment: PathSegment) -> Self {
        self.inner.path.push(segment);
        self
    }
}

impl From<crate::Error> for DeError {
    /// A malformed input: the error's kind as the message, its offset.
    fn from(error: crate::Error) -> Self {
        let mut out = DeError::new(error.kind().to_string());
        out.inner.offset = Some(error.offset());
        out.inner.decode = Some(error);
        out
    }
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.inner.message)?;
        if !self.inner.path.is_empty() {
            write!(f, " at {}", self.path())?;
        }
        if let Some(offset) = self.inner.offset {
            write!(f, " (byte offset {offset})")?;
        }
        Ok(())
    }
}

impl fmt::Debug for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DeError")
            .field("message", &self.inner.message)
            .field("path", &self.path())
            .field("offset", &self.inner.offset)
            .field("decode_error", &self.inner.decode)
            .finish()
    }
}

impl core::error::Error for DeError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        self.inner.decode.as_ref().map(|error| error as &(dyn core::error::Error + 'static))
    }
}

impl ::serde::de::Error for DeError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        DeError::new(message.to_string())
    }
}
