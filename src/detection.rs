//! Which Godot wrote some bytes: structural version detection (the format has no version
//! marker).
//!
//! ```
//! use gdvariant::{Version, detection::Verdict};
//!
//! // Godot 4.6: var_to_bytes({"z": 1, "a": 2, "m": 3})
//! let detection = gdvariant::detect(include_bytes!("../corpus/godot4/dict_order.bin"));
//! assert_eq!(detection.verdict(), Verdict::Godot4Only);
//! assert_eq!(detection.version(), Some(Version::Godot4));
//! assert_eq!(
//!     detection.to_string(),
//!     "Godot 4: type id 27 (Dictionary) does not exist in Godot 3"
//! );
//!
//! // An int means the same in both versions.
//! let detection = gdvariant::detect(&[2, 0, 0, 0, 7, 0, 0, 0]);
//! assert_eq!(detection.verdict(), Verdict::Both);
//! assert!(detection.same_meaning());
//! ```
//!
//! # How
//!
//! The bytes are checked with [`validate`](crate::validate) under both versions, with full
//! objects allowed (an object is a legitimate value of either version, and the classes each
//! engine can instantiate tell them apart: Godot 3's `Reference` is Godot 4's `RefCounted`).
//! Validation covers the structural hints of the format: type ids 27 to 38 exist only in Godot 4,
//! typed-container flags only mean something there, and the same id has a different payload in
//! each version from id 6 on, so most values of one version are truncated or malformed in the
//! other.
//!
//! * One version accepts: that version ([`Verdict::Godot3Only`], [`Verdict::Godot4Only`]).
//! * Both accept a value of type id 0 to 5 (nil, bool, int, float, String, Vector2): the bytes
//!   mean the same in both ([`Verdict::Both`], [`Detection::same_meaning`]);
//!   [`Detection::version`] answers Godot 4, and either is right.
//! * Both accept a value of a higher id: each version reads a different value, so the one that
//!   reads exactly all the bytes wins (the input is taken to be one whole value, as a datagram or
//!   a frame is). When both read it all, a reading no engine would write loses: a math value
//!   with a NaN, infinite or subnormal component (what counts and lengths look like as floats:
//!   Godot 3's `{"a": 1, "b": "two"}` is 48 bytes, the size of a Godot 4 `Transform3D`), or a
//!   full object with an empty class name. When that does not decide either (Godot 3's
//!   `AABB(1, 2, 3, 4, 5, 6)` is a fine Godot 4 `Transform2D`; Godot 3's empty `PoolIntArray` is
//!   Godot 4's empty `StringName`, byte for byte), it is [`Verdict::Both`] and
//!   [`Detection::version`] prefers Godot 4, as the format's notes advise.
//! * Neither accepts: [`Verdict::Neither`], with both errors.
//!
//! Cost: two validations (O(n) each, no allocation); when both accept, also two structural walks
//! ([`parse_prefix`](crate::parse_prefix)) to compare lengths; when neither does, [`foreign`]
//! (O(1), plus a look at the first [`TEXT_WINDOW`] bytes).
//!
//! # Bytes that are something else
//!
//! When neither version accepts the bytes, [`Detection::foreign`] tells what they look like
//! instead, where that is cheap to tell ([`foreign`]: the empty input, magic bytes of common
//! files and of Godot's own files, text):
//!
//! ```
//! use gdvariant::detection::{Foreign, Verdict};
//!
//! let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
//! let detection = gdvariant::detect(png);
//! assert_eq!(detection.verdict(), Verdict::Neither);
//! assert_eq!(detection.foreign(), Some(Foreign::Png));
//! assert_eq!(detection.to_string(), "neither: not Godot Variant data: this looks like a PNG image");
//! ```

use core::fmt;

use crate::{Error, Options, VariantType, Version};

/// Which versions accept the bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Only Godot 3 reads them (or Godot 4 reads them as a shorter value, or as one no engine
    /// writes).
    Godot3Only,
    /// Only Godot 4 reads them (or Godot 3 reads them as a shorter value, or as one no engine
    /// writes).
    Godot4Only,
    /// Both versions read them whole: the same value (type ids 0 to 5) or two different values
    /// of the same size.
    Both,
    /// Neither version accepts them.
    Neither,
}

/// The outcome of [`detect`]: the verdict, and why (its `Display` is one line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Detection {
    verdict: Verdict,
    id: Option<u8>,
    godot3: Reading,
    godot4: Reading,
    total: usize,
    foreign: Option<Foreign>,
}

/// How one version reads the bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reading {
    /// Refused.
    Refused(Error),
    /// Accepted; the bytes the value takes, when measured.
    Accepted { len: Option<usize> },
}

impl Reading {
    fn error(&self) -> Option<Error> {
        match *self {
            Reading::Refused(error) => Some(error),
            Reading::Accepted { .. } => None,
        }
    }

    fn len(&self) -> Option<usize> {
        match *self {
            Reading::Accepted { len, .. } => len,
            Reading::Refused(_) => None,
        }
    }
}

impl Detection {
    /// The version to read the bytes with: the only one that accepts them, or Godot 4 when both
    /// do (the same value for type ids 0 to 5; otherwise the format's advice); `None` when
    /// neither does.
    pub fn version(&self) -> Option<Version> {
        match self.verdict {
            Verdict::Godot3Only => Some(Version::Godot3),
            Verdict::Godot4Only | Verdict::Both => Some(Version::Godot4),
            Verdict::Neither => None,
        }
    }

    /// Which versions accept the bytes.
    pub fn verdict(&self) -> Verdict {
        self.verdict
    }

    /// Whether both versions accept the bytes as the same value (type ids 0 to 5).
    pub fn same_meaning(&self) -> bool {
        self.verdict == Verdict::Both && self.id.is_some_and(|id| id <= 5)
    }

    /// The type id in the header's low byte, if there is a header.
    pub fn type_id(&self) -> Option<u8> {
        self.id
    }

    /// Why Godot 3 refuses the bytes, if it does.
    pub fn godot3_error(&self) -> Option<Error> {
        self.godot3.error()
    }

    /// Why Godot 4 refuses the bytes, if it does.
    pub fn godot4_error(&self) -> Option<Error> {
        self.godot4.error()
    }

    /// When neither version accepts the bytes: each version's reason, the more relevant first.
    /// That is the version whose reading got further (the larger error offset); at the same
    /// offset, the version that has the header's type id when only one does, else Godot 4 (the
    /// preferred version). `None` unless the verdict is [`Verdict::Neither`].
    pub fn refusals(&self) -> Option<[(Version, Error); 2]> {
        let (godot3, godot4) = (self.godot3.error()?, self.godot4.error()?);
        let known =
            |version| self.id.and_then(|id| VariantType::from_id(version, u32::from(id))).is_some();
        let godot3_first = godot3.offset() > godot4.offset()
            || (godot3.offset() == godot4.offset()
                && known(Version::Godot3)
                && !known(Version::Godot4));
        Some(if godot3_first {
            [(Version::Godot3, godot3), (Version::Godot4, godot4)]
        } else {
            [(Version::Godot4, godot4), (Version::Godot3, godot3)]
        })
    }

    /// When neither version accepts the bytes, what they look like instead ([`foreign`]);
    /// `None` when either version accepts them (a value Godot reads stays a value, whatever
    /// its first bytes look like) or when they look like nothing [`foreign`] knows.
    pub fn foreign(&self) -> Option<Foreign> {
        self.foreign
    }
}

/// Detects which Godot version wrote `bytes` (one whole value); see the [module docs](self).
/// Never fails: bytes neither version accepts are [`Verdict::Neither`].
pub fn detect(bytes: &[u8]) -> Detection {
    let options = |version| Options::new(version).with_allow_objects(true);
    let id = bytes.first().copied().filter(|_| bytes.len() >= 4);
    let read = |version: Version| match crate::validate(bytes, options(version)) {
        Err(error) => Reading::Refused(error),
        Ok(()) => Reading::Accepted { len: None },
    };
    let (mut godot3, mut godot4) = (read(Version::Godot3), read(Version::Godot4));
    let verdict = match (godot3, godot4) {
        (Reading::Refused(_), Reading::Refused(_)) => Verdict::Neither,
        (Reading::Accepted { .. }, Reading::Refused(_)) => Verdict::Godot3Only,
        (Reading::Refused(_), Reading::Accepted { .. }) => Verdict::Godot4Only,
        (Reading::Accepted { .. }, Reading::Accepted { .. }) if id.is_some_and(|id| id <= 5) => {
            Verdict::Both
        }
        (Reading::Accepted { .. }, Reading::Accepted { .. }) => {
            let len = |version| crate::parse_prefix(bytes, options(version)).ok().map(|e| e.len());
            let (len3, len4) = (len(Version::Godot3), len(Version::Godot4));
            godot3 = Reading::Accepted { len: len3 };
            godot4 = Reading::Accepted { len: len4 };
            match (len3 == Some(bytes.len()), len4 == Some(bytes.len())) {
                (true, false) => Verdict::Godot3Only,
                (false, true) => Verdict::Godot4Only,
                _ => {
                    match (implausible(bytes, Version::Godot3), implausible(bytes, Version::Godot4))
                    {
                        (false, true) => Verdict::Godot3Only,
                        (true, false) => Verdict::Godot4Only,
                        _ => Verdict::Both,
                    }
                }
            }
        }
    };
    let foreign = if verdict == Verdict::Neither { foreign(bytes) } else { None };
    Detection { verdict, id, godot3, godot4, total: bytes.len(), foreign }
}

/// The other version, when `options` refuse `bytes` (one whole value) and the same options for
/// the other version accept them: what to suggest to someone who named a version and got a
/// refusal (`dump --godot 3` given Godot 4 bytes). `None` when `options` accept the bytes, or
/// neither version does. Cost: two validations at most (O(n) each, no allocation).
///
/// ```
/// use gdvariant::{Options, Version, detection};
///
/// // Godot 4.6: var_to_bytes({"z": 1, "a": 2, "m": 3}); type id 27 is not Godot 3's.
/// let bytes = include_bytes!("../corpus/godot4/dict_order.bin");
/// assert!(gdvariant::validate(bytes, Options::godot3()).is_err());
/// assert_eq!(detection::other_version(bytes, Options::godot3()), Some(Version::Godot4));
/// assert_eq!(detection::other_version(bytes, Options::godot4()), None);
/// ```
pub fn other_version(bytes: &[u8], options: Options) -> Option<Version> {
    if crate::validate(bytes, options).is_ok() {
        return None;
    }
    let other = match options.version() {
        Version::Godot3 => Version::Godot4,
        Version::Godot4 => Version::Godot3,
    };
    crate::validate(bytes, options.with_version(other)).is_ok().then_some(other)
}

/// Bytes of the input [`foreign`] looks at to tell text: 4 KiB.
pub const TEXT_WINDOW: usize = 4096;

/// What some bytes look like, when they are not Godot Variant data: see [`foreign`].
///
/// `Display` gives the sentence a program can show (`not Godot Variant data: this looks like a
/// PNG image`, with a hint for Godot's own files); [`what`](Self::what) the noun alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Foreign {
    /// No bytes at all.
    Empty,
    /// A PNG image (`89 50 4E 47 0D 0A 1A 0A`).
    Png,
    /// A JPEG image (`FF D8 FF`).
    Jpeg,
    /// A GIF image (`GIF87a`, `GIF89a`).
    Gif,
    /// A PDF document (`%PDF-`).
    Pdf,
    /// An ELF executable or library (`7F 45 4C 46`).
    Elf,
    /// A Windows executable or library (`MZ`).
    Pe,
    /// gzip-compressed data (`1F 8B 08`).
    Gzip,
    /// Zstandard-compressed data (`28 B5 2F FD`).
    Zstd,
    /// A zip archive (`PK 03 04`, or `PK 05 06` when empty).
    Zip,
    /// A Godot PCK archive (`GDPC`).
    GodotPack,
    /// A Godot binary resource, `.res` or `.scn` (`RSRC`).
    GodotResource,
    /// A file Godot compressed (`RSCC`, `FileAccess.open_compressed`).
    GodotCompressed,
    /// A file Godot encrypted (`GDEC`, `FileAccess.open_encrypted`).
    GodotEncrypted,
    /// A compiled GDScript, `.gdc` (`GDSC`).
    GodotScript,
    /// A Godot imported texture: `.ctex` (`GST2`, Godot 4) or `.stex` (`GDST`, Godot 3).
    GodotTexture,
    /// A Godot text scene, `.tscn` (`[gd_scene`).
    GodotTextScene,
    /// A Godot text resource, `.tres` (`[gd_resource`).
    GodotTextResource,
    /// Godot's `var_to_str` text: a constructor such as `Vector2(` or a `&"StringName"` or
    /// `^"NodePath"` stands outside strings.
    GodotText,
    /// Text that begins like JSON (an object, an array, a string, a number, `true`, `false`,
    /// `null`); `var_to_str` writes plain values the same way.
    Json,
    /// Other UTF-8 text.
    Text,
}

impl Foreign {
    /// What the bytes look like, as a noun: `a PNG image`, `empty input`.
    pub fn what(self) -> &'static str {
        match self {
            Foreign::Empty => "empty input",
            Foreign::Png => "a PNG image",
            Foreign::Jpeg => "a JPEG image",
            Foreign::Gif => "a GIF image",
            Foreign::Pdf => "a PDF document",
            Foreign::Elf => "an ELF executable",
            Foreign::Pe => "a Windows (PE/MZ) executable",
            Foreign::Gzip => "gzip-compressed data",
            Foreign::Zstd => "Zstandard-compressed data",
            Foreign::Zip => "a zip archive",
            Foreign::GodotPack => "a Godot PCK archive",
            Foreign::GodotResource => "a Godot binary resource (.res, .scn)",
            Foreign::GodotCompressed => "a Godot compressed file (FileAccess.open_compressed)",
            Foreign::GodotEncrypted => "a Godot encrypted file (FileAccess.open_encrypted)",
            Foreign::GodotScript => "a compiled GDScript (.gdc)",
            Foreign::GodotTexture => "a Godot imported texture (.ctex, .stex)",
            Foreign::GodotTextScene => "a Godot text scene (.tscn)",
            Foreign::GodotTextResource => "a Godot text resource (.tres)",
            Foreign::GodotText => "Godot's var_to_str text",
            Foreign::Json => "JSON text (or Godot's var_to_str text of a plain value)",
            Foreign::Text => "text",
        }
    }

    /// What reads such bytes instead, for Godot's own files and for text.
    pub fn hint(self) -> Option<&'static str> {
        match self {
            Foreign::GodotText | Foreign::Json => Some(
                "str_to_var (Godot 3: str2var) reads text; var_to_bytes (var2bytes) writes the \
                 binary form this reads",
            ),
            Foreign::GodotTextScene
            | Foreign::GodotTextResource
            | Foreign::GodotResource
            | Foreign::GodotTexture => Some("ResourceLoader reads it, not bytes_to_var"),
            Foreign::GodotCompressed => {
                Some("FileAccess.open_compressed reads it; what it holds may be a store_var dump")
            }
            Foreign::GodotEncrypted => {
                Some("FileAccess.open_encrypted reads it; what it holds may be a store_var dump")
            }
            Foreign::GodotPack => {
                Some("it holds files; ProjectSettings.load_resource_pack mounts it")
            }
            _ => None,
        }
    }
}

impl fmt::Display for Foreign {
    /// `empty input: no Godot value`, or `not Godot Variant data: this looks like WHAT`, with
    /// the [`hint`](Self::hint) in parentheses.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Foreign::Empty {
            return f.write_str("empty input: no Godot value");
        }
        write!(f, "not Godot Variant data: this looks like {}", self.what())?;
        match self.hint() {
            Some(hint) => write!(f, " ({hint})"),
            None => Ok(()),
        }
    }
}

/// What `bytes` look like if they are not Godot Variant data: empty, a file format known by
/// its magic bytes, or text. `None` when they look like none of these.
///
/// This looks at the bytes only, not at whether Godot reads them: a valid value can begin with
/// magic-looking bytes (Godot 4 reads `1F 8B 08 00 00 00 00 00`, gzip's magic, as an empty
/// `PackedInt64Array`, since it ignores header bits 8 to 15). Ask it about bytes that were
/// refused; [`detect`] does, and [`Detection::foreign`] answers only when neither version
/// accepts them.
///
/// Cost: O(1) for the magic bytes; text is told from the first [`TEXT_WINDOW`] bytes (UTF-8
/// without control characters but tab, line breaks and form feed), O(min(n, 4 KiB)). No
/// allocation.
pub fn foreign(bytes: &[u8]) -> Option<Foreign> {
    const MAGIC: &[(&[u8], Foreign)] = &[
        (b"\x89PNG\r\n\x1a\n", Foreign::Png),
        (b"\xff\xd8\xff", Foreign::Jpeg),
        (b"GIF87a", Foreign::Gif),
        (b"GIF89a", Foreign::Gif),
        (b"%PDF-", Foreign::Pdf),
        (b"\x7fELF", Foreign::Elf),
        (b"MZ", Foreign::Pe),
        (b"\x1f\x8b\x08", Foreign::Gzip),
        (b"\x28\xb5\x2f\xfd", Foreign::Zstd),
        (b"PK\x03\x04", Foreign::Zip),
        (b"PK\x05\x06", Foreign::Zip),
        (b"GDPC", Foreign::GodotPack),
        (b"RSRC", Foreign::GodotResource),
        (b"RSCC", Foreign::GodotCompressed),
        (b"GDEC", Foreign::GodotEncrypted),
        (b"GDSC", Foreign::GodotScript),
        (b"GST2", Foreign::GodotTexture),
        (b"GDST", Foreign::GodotTexture),
    ];
    if bytes.is_empty() {
        return Some(Foreign::Empty);
    }
    if let Some((_, kind)) = MAGIC.iter().find(|(magic, _)| bytes.starts_with(magic)) {
        return Some(*kind);
    }
    text(bytes)
}

/// The kind of text `bytes` begin with (see [`foreign`]), or `None` when they are not text.
fn text(bytes: &[u8]) -> Option<Foreign> {
    let window = bytes.get(..TEXT_WINDOW).unwrap_or(bytes);
    let text = match core::str::from_utf8(window) {
        Ok(text) => text,
        // A character cut by the window's end.
        Err(error) if error.error_len().is_none() && window.len() < bytes.len() => {
            core::str::from_utf8(window.get(..error.valid_up_to())?).ok()?
        }
        Err(_) => return None,
    };
    if text.chars().any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c')) {
        return None;
    }
    let body = text.trim_start_matches('\u{feff}').trim_start();
    if body.starts_with("[gd_scene") {
        return Some(Foreign::GodotTextScene);
    }
    if body.starts_with("[gd_resource") {
        return Some(Foreign::GodotTextResource);
    }
    let json_start = body.starts_with(['{', '[', '"', '-'])
        || body.starts_with(|c: char| c.is_ascii_digit())
        || ["true", "false", "null"].iter().any(|word| body.starts_with(word));
    if godot_text(body) {
        Some(Foreign::GodotText)
    } else if json_start {
        Some(Foreign::Json)
    } else {
        Some(Foreign::Text)
    }
}

/// Whether `text` holds, outside double-quoted strings, what only Godot's `var_to_str` writes:
/// a constructor (an identifier that begins with a capital letter, then `(`), or `&"` / `^"`
/// (a `StringName`, a `NodePath`). O(n).
fn godot_text(text: &str) -> bool {
    let (mut in_string, mut escaped) = (false, false);
    let mut identifier = false; // inside an identifier that began with a capital letter
    let mut previous = ' ';
    for c in text.chars() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            previous = c;
            continue;
        }
        match c {
            '"' if matches!(previous, '&' | '^') => return true,
            '"' => {
                in_string = true;
                identifier = false;
            }
            '(' if identifier => return true,
            c if c.is_ascii_alphanumeric() || c == '_' => {
                let starts = !(previous.is_ascii_alphanumeric() || previous == '_');
                if starts {
                    identifier = c.is_ascii_uppercase();
                }
            }
            _ => identifier = false,
        }
        previous = c;
    }
    false
}

/// Whether `version`'s reading of `bytes` is something no engine writes: a real-valued math
/// value with a NaN, infinite or subnormal component (the reading of counts, lengths and ids as
/// floats), or a full object with an empty class name (both engines write a null object as
/// `Nil`). O(1).
fn implausible(bytes: &[u8], version: Version) -> bool {
    use crate::{VariantRef as V, math::Precision, view::ObjectRef};
    let odd32 = |c: f32| !c.is_finite() || c.is_subnormal();
    let odd64 = |c: f64| !c.is_finite() || c.is_subnormal();
    let reals = |raw: &[u8], precision: Precision| match precision {
        Precision::Single => {
            raw.chunks_exact(4).any(|c| odd32(f32::from_le_bytes(c.try_into().unwrap_or([0; 4]))))
        }
        Precision::Double => {
            raw.chunks_exact(8).any(|c| odd64(f64::from_le_bytes(c.try_into().unwrap_or([0; 8]))))
        }
    };
    let options = Options::new(version).with_allow_objects(true);
    let full_object = bytes.get(2).is_some_and(|flags| flags & 1 == 0);
    match crate::parse(bytes, options) {
        Ok(V::Vector2(r)) => reals(r.raw_bytes(), r.precision()),
        Ok(V::Rect2(r)) => reals(r.raw_bytes(), r.precision()),
        Ok(V::Vector3(r)) => reals(r.raw_bytes(), r.precision()),
        Ok(V::Transform2D(r)) => reals(r.raw_bytes(), r.precision()),
        Ok(V::Vector4(r)) => reals(r.raw_bytes(), r.precision()),
        Ok(V::Plane(r)) => reals(r.raw_bytes(), r.precision()),
        Ok(V::Quaternion(r)) => reals(r.raw_bytes(), r.precision()),
        Ok(V::Aabb(r)) => reals(r.raw_bytes(), r.precision()),
        Ok(V::Basis(r)) => reals(r.raw_bytes(), r.precision()),
        Ok(V::Transform3D(r)) => reals(r.raw_bytes(), r.precision()),
        Ok(V::Projection(r)) => reals(r.raw_bytes(), r.precision()),
        Ok(V::Color(c)) => {
            let mut odd = false;
            c.for_each_component(|c| odd |= odd32(c));
            odd
        }
        Ok(V::Object(ObjectRef::Null)) => full_object,
        _ => false,
    }
}

/// A type's name in a version, or `value` for an id the version lacks.
struct TypeName(Option<VariantType>, Version);

impl fmt::Display for TypeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(ty) => f.write_str(ty.name(self.1)),
            None => f.write_str("value"),
        }
    }
}

impl Detection {
    /// Why `chosen` wins when `other` accepts the bytes too (as `reading`).
    fn partial(
        &self,
        f: &mut fmt::Formatter<'_>,
        (chosen, other): (Version, Version),
        reading: Reading,
    ) -> fmt::Result {
        let id = u32::from(self.id.unwrap_or(0));
        let number = |version| match version {
            Version::Godot3 => 3,
            Version::Godot4 => 4,
        };
        let (chosen_name, other_name) = (
            TypeName(VariantType::from_id(chosen, id), chosen),
            TypeName(VariantType::from_id(other, id), other),
        );
        let (c, o) = (number(chosen), number(other));
        match reading.len() {
            Some(len) if len != self.total => write!(
                f,
                "Godot {c}: valid as Godot {c} {chosen_name} ({} bytes); Godot {o} reads a \
                 {other_name} of {len} bytes and leaves the rest",
                self.total
            ),
            _ => write!(
                f,
                "Godot {c}: valid as Godot {c} {chosen_name}; Godot {o} reads a {other_name} no \
                 engine writes (a NaN, infinite or subnormal real, or an object without a class)"
            ),
        }
    }
}

impl fmt::Display for Detection {
    /// One line: the verdict, then why.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Version::{Godot3 as G3, Godot4 as G4};
        let id = self.id.unwrap_or(0);
        let name = |version| TypeName(VariantType::from_id(version, u32::from(id)), version);
        match (self.verdict, self.godot3, self.godot4) {
            (Verdict::Neither, _, _) => {
                write!(f, "neither: ")?;
                if let Some(foreign) = self.foreign {
                    return write!(f, "{foreign}");
                }
                match self.refusals() {
                    Some([(_, first), (_, second)]) if first == second => {
                        write!(f, "both versions refuse it: {first}")
                    }
                    Some([(first, first_error), (second, second_error)]) => write!(
                        f,
                        "{first} refuses it: {first_error}; {second} refuses it: {second_error}"
                    ),
                    None => Ok(()),
                }
            }
            (Verdict::Both, _, _) if self.same_meaning() => write!(
                f,
                "both: the bytes are valid in both versions and mean the same (type id {id}, {})",
                name(G4)
            ),
            (Verdict::Both, _, _) => write!(
                f,
                "both: valid in both versions as different values (Godot 3 {}, Godot 4 {}); \
                 read as Godot 4, the preferred version",
                name(G3),
                name(G4)
            ),
            (Verdict::Godot4Only, Reading::Refused(_), _)
                if VariantType::from_id(G3, u32::from(id)).is_none() =>
            {
                write!(f, "Godot 4: type id {id} ({}) does not exist in Godot 3", name(G4))
            }
            (Verdict::Godot4Only, Reading::Refused(error), _) => {
                write!(f, "Godot 4: valid as Godot 4 {}, Godot 3 refuses it: {error}", name(G4))
            }
            (Verdict::Godot3Only, _, Reading::Refused(error)) => {
                write!(f, "Godot 3: valid as Godot 3 {}, Godot 4 refuses it: {error}", name(G3))
            }
            (Verdict::Godot3Only, _, other) => self.partial(f, (G3, G4), other),
            (Verdict::Godot4Only, other, _) => self.partial(f, (G4, G3), other),
        }
    }
}
