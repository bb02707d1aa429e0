//! The dialect and the limits a read runs under.

/// Which Godot wrote the bytes. The two dialects share the framing rules but number their types
/// differently (only ids 0 to 5 mean the same thing in both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Version {
    /// Godot 3.x (`var2bytes`, type ids 0..=26). Math types are always single precision.
    Godot3,
    /// Godot 4.0 to 4.7 (`var_to_bytes`, type ids 0..=38). Typed arrays (4.3+), typed
    /// dictionaries (4.4+) and `PackedVector4Array` (4.3+) only appear in data from versions that
    /// have them, so one dialect reads them all.
    Godot4,
}

impl core::fmt::Display for Version {
    /// `Godot 3` or `Godot 4`, as every message of the crate and the command-line tool spells
    /// them.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Version::Godot3 => "Godot 3",
            Version::Godot4 => "Godot 4",
        })
    }
}

/// The deepest nesting Godot accepts (`Variant::MAX_RECURSION_DEPTH`), and the largest limit
/// [`Options::with_max_depth`] takes.
pub const MAX_DEPTH: u16 = 1024;

/// How a read behaves: the dialect, whether full objects are allowed, and the depth limit.
///
/// The defaults are Godot's: objects refused (as `bytes_to_var` without `_with_objects`), depth
/// limit 1024. `Options` is `Copy` and four bytes large; every lazy view carries one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    version: Version,
    allow_objects: bool,
    max_depth: u16,
}

impl Options {
    /// Godot's defaults for `version`.
    pub const fn new(version: Version) -> Self {
        Options { version, allow_objects: false, max_depth: MAX_DEPTH }
    }

    /// Godot 3 with Godot's defaults.
    pub const fn godot3() -> Self {
        Self::new(Version::Godot3)
    }

    /// Godot 4 with Godot's defaults.
    pub const fn godot4() -> Self {
        Self::new(Version::Godot4)
    }

    /// Accept full objects (class name plus properties), as `bytes_to_var_with_objects` or
    /// `bytes2var(bytes, true)` do. Object instance ids are always accepted.
    pub const fn with_allow_objects(mut self, allow: bool) -> Self {
        self.allow_objects = allow;
        self
    }

    /// Set the depth limit. The top-level value is at depth 0, and a value deeper than `depth` is
    /// an error. Values above [`MAX_DEPTH`] are clamped to it: Godot never accepts more.
    pub const fn with_max_depth(mut self, depth: u16) -> Self {
        self.max_depth = if depth > MAX_DEPTH { MAX_DEPTH } else { depth };
        self
    }

    /// The dialect.
    pub const fn version(&self) -> Version {
        self.version
    }

    /// Whether full objects are accepted.
    pub const fn allow_objects(&self) -> bool {
        self.allow_objects
    }

    /// The depth limit.
    pub const fn max_depth(&self) -> u16 {
        self.max_depth
    }
}

impl Default for Options {
    /// Godot 4 with Godot's defaults.
    fn default() -> Self {
        Self::godot4()
    }
}
