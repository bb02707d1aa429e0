//! The dialect and the limits a read runs under.

/// Which Godot wrote the bytes. The two dialects share the framing rules but number their types
/// differently (only ids 0 to 5 mean the same thing in both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Version {
    /// Godot 3.x (`var2bytes`, type ids 0..=26). Math types are always single precision.
    /// Verdicts and values are checked against Godot 3.2.3 (the corpus and probes); other 3.x
    /// releases are read by the same rules, taken from Godot's source, without an engine check.
    Godot3,
    /// Godot 4.x (`var_to_bytes`, type ids 0..=38). Verdicts and values are checked against
    /// Godot 4.6 (the corpus and probes); 4.0 to 4.5 and 4.7 are read by the same rules, taken
    /// from Godot's source, without an engine check. Typed arrays (4.3+), typed dictionaries
    /// (4.4+) and `PackedVector4Array` (4.3+) only appear in data from versions that have them,
    /// so one dialect reads them all.
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

impl core::str::FromStr for Version {
    type Err = UnknownVersion;

    /// `3`, `4`, `godot3` or `godot4` (any case), as a command line names a version.
    fn from_str(text: &str) -> Result<Self, UnknownVersion> {
        match text {
            "3" => Ok(Version::Godot3),
            "4" => Ok(Version::Godot4),
            _ if text.eq_ignore_ascii_case("godot3") => Ok(Version::Godot3),
            _ if text.eq_ignore_ascii_case("godot4") => Ok(Version::Godot4),
            _ => Err(UnknownVersion),
        }
    }
}

/// A text that names no Godot version ([`Version`]'s `FromStr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownVersion;

impl core::fmt::Display for UnknownVersion {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("not a Godot version (3 or 4)")
    }
}

impl core::error::Error for UnknownVersion {}

/// The deepest nesting Godot accepts (`Variant::MAX_RECURSION_DEPTH`), and the largest limit
/// [`Options::with_max_depth`] takes.
pub const MAX_DEPTH: u16 = 1024;

/// How a read behaves: the dialect, whether full objects are allowed, the depth limit, and
/// whether whole-value readers show typed containers as the game holds them.
///
/// The defaults are Godot's: objects refused (as `bytes_to_var` without `_with_objects`), depth
/// limit 1024; typed containers read as they are on the wire. `Options` is `Copy` and four bytes
/// large; every lazy view carries one.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Options {
    version: Version,
    /// [`ALLOW_OBJECTS`] and [`GAME_VIEW`].
    flags: u8,
    max_depth: u16,
}

/// [`Options::flags`]: full objects are accepted.
const ALLOW_OBJECTS: u8 = 1;
/// [`Options::flags`]: whole-value readers show typed containers as the game holds them.
const GAME_VIEW: u8 = 2;

impl core::fmt::Debug for Options {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Options")
            .field("version", &self.version)
            .field("allow_objects", &self.allow_objects())
            .field("max_depth", &self.max_depth)
            .field("game_view", &self.game_view())
            .finish()
    }
}

impl Options {
    /// Godot's defaults for `version`.
    pub const fn new(version: Version) -> Self {
        Options { version, flags: 0, max_depth: MAX_DEPTH }
    }

    /// Godot 3 with Godot's defaults.
    pub const fn godot3() -> Self {
        Self::new(Version::Godot3)
    }

    /// Godot 4 with Godot's defaults.
    pub const fn godot4() -> Self {
        Self::new(Version::Godot4)
    }

    /// The same options for `version` (objects, depth limit and game view kept).
    pub const fn with_version(mut self, version: Version) -> Self {
        self.version = version;
        self
    }

    /// Accept full objects (class name plus properties), as `bytes_to_var_with_objects` or
    /// `bytes2var(bytes, true)` do. Object instance ids are always accepted.
    pub const fn with_allow_objects(self, allow: bool) -> Self {
        self.with_flag(ALLOW_OBJECTS, allow)
    }

    /// Set the depth limit. The top-level value is at depth 0, and a value deeper than `depth` is
    /// an error. Values above [`MAX_DEPTH`] are clamped to it: Godot never accepts more.
    pub const fn with_max_depth(mut self, depth: u16) -> Self {
        self.max_depth = if depth > MAX_DEPTH { MAX_DEPTH } else { depth };
        self
    }

    /// Read typed containers (Godot 4.3+) as the game holds them, in every whole-value reader:
    /// [`decode`](crate::decode), [`Variant::from_ref`](crate::Variant::from_ref), and
    /// `serde::from_bytes` / `from_variant_ref` (feature `serde`) into `Variant` or
    /// your own types. An element (or a typed dictionary's key) that does not match the declared
    /// type is converted with Godot's constructor or left out, exactly as Godot 4.6's decoder
    /// does; a dictionary whose keys collide after conversion keeps the first position and the
    /// last value. Off by default: readers show the elements as they are on the wire.
    ///
    /// The lazy view ([`parse`](crate::parse), the container iterators) always shows the wire,
    /// and [`validate`](crate::validate)'s verdict does not change: Godot accepts the same bytes
    /// either way. [`ArrayRef::game_elements`](crate::view::ArrayRef::game_elements) and
    /// [`DictionaryRef::game_entries`](crate::view::DictionaryRef::game_entries) give the game's view
    /// lazily. Godot 3 has no typed containers, so the option changes nothing there. See
    /// [`game`](crate::game) for every rule and what cannot be known outside the game.
    pub const fn with_game_view(self, game_view: bool) -> Self {
        self.with_flag(GAME_VIEW, game_view)
    }

    /// The same options with `flag` set or cleared.
    const fn with_flag(mut self, flag: u8, on: bool) -> Self {
        self.flags = if on { self.flags | flag } else { self.flags & !flag };
        self
    }

    /// Whether whole-value readers show typed containers as the game holds them
    /// ([`with_game_view`](Self::with_game_view)).
    pub const fn game_view(&self) -> bool {
        self.flags & GAME_VIEW != 0
    }

    /// The dialect.
    pub const fn version(&self) -> Version {
        self.version
    }

    /// Whether full objects are accepted.
    pub const fn allow_objects(&self) -> bool {
        self.flags & ALLOW_OBJECTS != 0
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
