//! [`EncodeOptions`]: the dialect and the choices an encoder makes.

use crate::{MAX_DEPTH, Version, math::Precision};

/// How values are written: the Godot version, whether full objects are written, and the
/// precision of real-valued math types.
///
/// The defaults are Godot's: `var_to_bytes` / `var2bytes` without full objects, single
/// precision (every official build), depth limit 1024.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EncodeOptions {
    version: Version,
    full_objects: bool,
    precision: Precision,
    max_depth: u16,
}

impl EncodeOptions {
    /// Godot's defaults for `version`.
    pub const fn new(version: Version) -> Self {
        EncodeOptions {
            version,
            full_objects: false,
            precision: Precision::Single,
            max_depth: MAX_DEPTH,
        }
    }

    /// Godot 3 with Godot's defaults.
    pub const fn godot3() -> Self {
        Self::new(Version::Godot3)
    }

    /// Godot 4 with Godot's defaults.
    pub const fn godot4() -> Self {
        Self::new(Version::Godot4)
    }

    /// Write full objects (class and properties), as `var_to_bytes_with_objects` and
    /// `var2bytes(value, true)` do. Without it a full object cannot be written
    /// ([`EncodeError::FullObjectsNeeded`](crate::encoder::EncodeError::FullObjectsNeeded)), and class-
    /// or script-typed containers declare the class `"EncodedObjectAsID"`.
    pub const fn with_full_objects(mut self, full_objects: bool) -> Self {
        self.full_objects = full_objects;
        self
    }

    /// Write real-valued math types (vectors, transforms, packed vector arrays, ...) in this
    /// precision. [`Precision::Double`] is what Godot 4 `precision=double` builds write (header
    /// bit 16 and `f64` components). Godot 3 has no double form and always writes `f32`. `Color`
    /// is always `f32`, and `float` follows its own rule.
    pub const fn with_precision(mut self, precision: Precision) -> Self {
        self.precision = precision;
        self
    }

    /// Set the depth limit (the top-level value is at depth 0). Values above
    /// [`MAX_DEPTH`] are clamped to it, as Godot never writes deeper values.
    pub const fn with_max_depth(mut self, depth: u16) -> Self {
        self.max_depth = if depth > MAX_DEPTH { MAX_DEPTH } else { depth };
        self
    }

    /// The dialect.
    pub const fn version(&self) -> Version {
        self.version
    }

    /// Whether full objects are written.
    pub const fn full_objects(&self) -> bool {
        self.full_objects
    }

    /// The precision real-valued math types are written in (always single for Godot 3).
    pub const fn precision(&self) -> Precision {
        match self.version {
            Version::Godot3 => Precision::Single,
            Version::Godot4 => self.precision,
        }
    }

    /// The depth limit.
    pub const fn max_depth(&self) -> u16 {
        self.max_depth
    }
}

impl Default for EncodeOptions {
    /// Godot 4 with Godot's defaults.
    fn default() -> Self {
        Self::godot4()
    }
}
