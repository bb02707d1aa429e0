//! [`EncodeError`]: why a value could not be written.

use core::fmt;

use crate::{VariantType, Version};

/// Why a value could not be written. After an error the output holds a partial value: discard
/// it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EncodeError {
    /// A fixed output buffer is full. `needed` is the total the output would need to hold at
    /// least (what it holds, plus the write that did not fit).
    OutputFull {
        /// Bytes the output would need to hold.
        needed: usize,
        /// Bytes the output can hold.
        capacity: usize,
    },
    /// The type does not exist in the target version (`Vector2i` in Godot 3, say).
    NotInVersion {
        /// The type.
        ty: VariantType,
        /// The target version.
        version: Version,
    },
    /// A typed container was written for Godot 3, which has none.
    TypedContainerNotInVersion,
    /// A value is nested deeper than the depth limit.
    DepthLimit,
    /// A full object was written without
    /// [`EncodeOptions::with_full_objects`](crate::EncodeOptions::with_full_objects).
    FullObjectsNeeded,
    /// A string, packed array or container is larger than Godot's 32-bit signed sizes allow.
    TooLarge {
        /// The length that does not fit (bytes or elements).
        len: usize,
    },
    /// A [`Writer`](crate::Writer) was given a value where a property name was due, or a property
    /// name where a value was due.
    PropertyOrder,
    /// A [`Writer`](crate::Writer) was given more values than the enclosing container declared.
    TooManyValues,
    /// [`Writer::finish`](crate::Writer::finish) found a container still missing `missing`
    /// values (keys and values count separately in a dictionary), or no value at all.
    Unfinished {
        /// Values the innermost open container still expects.
        missing: u32,
    },
    /// [`Writer::splice`](crate::Writer::splice) was given an element read as another Godot
    /// version.
    VersionMismatch,
    /// A [`GdString`](crate::owned::GdString) holds code points only Godot 3 reads (surrogates, values
    /// above U+10FFFF) and was written for Godot 4, which refuses them.
    NotUnicode,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            EncodeError::OutputFull { needed, capacity } => {
                write!(f, "output full: {needed} bytes needed, {capacity} available")
            }
            EncodeError::NotInVersion { ty, version } => {
                write!(f, "{} does not exist in {version}", ty.name(Version::Godot4))
            }
            EncodeError::TypedContainerNotInVersion => {
                f.write_str("typed containers do not exist in Godot 3")
            }
            EncodeError::DepthLimit => f.write_str("value is nested too deeply"),
            EncodeError::FullObjectsNeeded => {
                f.write_str("a full object can only be written with full objects enabled")
            }
            EncodeError::TooLarge { len } => {
                write!(f, "length {len} does not fit Godot's 32-bit sizes")
            }
            EncodeError::PropertyOrder => {
                f.write_str("object properties must alternate a name and a value")
            }
            EncodeError::TooManyValues => {
                f.write_str("more values than the enclosing container declared")
            }
            EncodeError::Unfinished { missing } => {
                write!(f, "unfinished value: {missing} more values expected")
            }
            EncodeError::VersionMismatch => {
                f.write_str("spliced element was read as another Godot version")
            }
            EncodeError::NotUnicode => {
                f.write_str("a string holds code points that only Godot 3 reads")
            }
        }
    }
}

impl core::error::Error for EncodeError {}
