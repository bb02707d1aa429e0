//! Godot's own text form of a value: what `var_to_str` (Godot 4) and `var2str` (Godot 3) print.
//!
//! ```
//! use gdvariant::{Options, Version};
//!
//! // Godot 4.6: var_to_bytes({"z": 1, "a": 2, "m": 3})
//! let bytes = include_bytes!("../../corpus/godot4/dict_order.bin");
//! let value = gdvariant::parse(bytes, Options::godot4())?;
//! let text = gdvariant::text::to_text(value)?;
//! assert_eq!(text, "{\n\"a\": 2,\n\"m\": 3,\n\"z\": 1\n}"); // Godot sorts the keys
//!
//! // Godot 3.2.3: var2bytes(1.0 / 3.0) prints with six significant digits.
//! let bytes = include_bytes!("../../corpus/godot3/float_1_3.bin");
//! let value = gdvariant::parse(bytes, Options::godot3())?;
//! assert_eq!(gdvariant::text::to_text_as(value, Version::Godot3)?, "0.333333");
//! # Ok::<(), gdvariant::Error>(())
//! ```
//!
//! [`write_text`] and [`to_text`] print Godot 4's form; [`write_text_as`] and [`to_text_as`] take
//! the version (a [`VariantRef`] does not carry it for numbers and math values, whose text differs:
//! `0.3333333333333333` and `Vector2(1, 2)` in Godot 4, `0.333333` and `Vector2( 1, 2 )` in
//! Godot 3). Pass the version the bytes were parsed with.
//!
//! The output matches the engines' text for every value case of both corpora and for every case
//! of `corpus/text` (seeded random values of every type, decoded and printed by each engine)
//! except the ones listed below, in `tests/text.rs` and in `tests/text_generated.rs`. What is
//! reproduced:
//!
//! * numbers exactly as the engines print them (Godot 4: the Grisu2 digits, in single precision
//!   for values that are exact 32-bit floats, `inf`, `inf_neg`, `nan` whatever its sign,
//!   `1e+20`; Godot 3: the value narrowed to a 32-bit float with six significant digits,
//!   `-inf.0`, and `-nan` for a NaN with its sign bit set, `-nan.0` as a float);
//! * strings escaped as Godot does (`String` with only `\` and `"` escaped, the rest of
//!   `StringName`, `NodePath` and `PackedStringArray` text in C style, `?` escaped by Godot 3
//!   only), node paths as Godot rebuilds them (Godot 3 prints an absolute path without names or
//!   subnames as `NodePath("")`, Godot 4 leaves out a lone empty subname);
//! * dictionaries: repeated keys merged as Godot's decoder merges them (first position, last
//!   value, with each version's key equality, quirks included), then the keys sorted as the
//!   engine sorts them: its `SortArray` step for step (insertion sort up to 16 keys, introsort
//!   above), with its `<` (Godot 4: `StringLikeVariantOrder`; Godot 3: `Variant::operator<`,
//!   whose `<` on arrays and pool arrays is not lexicographic), so keys Godot's `<` does not
//!   order (NaN, types without `<`, inconsistent orders) come out where the engine puts them.
//!   Keys Godot 3 does not find when it looks their value up (a pool of reals holding a NaN, and
//!   what holds one) print with `null`, as Godot 3 prints them. Godot's line layout, typed
//!   containers (`Array[int]([1, 2])`, `Dictionary[String, Variant]({...})`, object types as
//!   `EncodedObjectAsID` without full objects), Godot 4's nesting cut-off (a container more than
//!   100 levels down prints as `[]` or `{}`, an object as `null`), a Godot 4 full object's
//!   script as `Resource("res://...")`.
//!
//! What cannot be reproduced from the bytes, and what is printed instead:
//!
//! * **Objects sent by id** (`EncodedObjectAsID`): Godot prints the live object it still has;
//!   the bytes hold only the id, so this prints what Godot prints for the decoded value:
//!   `Object(EncodedObjectAsID,"object_id":ID,"script":null)` (and a newline, as Godot ends every
//!   object).
//! * **Full objects**: Godot prints every stored property of the instance it builds, defaults
//!   included, in its class's order; this prints the class and the properties on the wire, in
//!   wire order (`Object(Class,"name":value,...)`). For objects Godot itself encoded, the
//!   properties on the wire are the stored ones, so the text usually matches.
//! * **Typed containers of a class**: Godot writes the class name `EncodedObjectAsID` without
//!   full objects, which is printed as found (`Array[EncodedObjectAsID]([])` where the original
//!   was an `Array[Node]`). A script type prints as `Resource("res://...")` without the `uid://`
//!   that Godot adds when the project has one; in a typed dictionary Godot 4 prints the script's
//!   native base class instead, which only loading the script tells.
//! * **Values a single-precision engine narrows**: math values and packed vectors sent in double
//!   precision (header bit 16) are printed narrowed to 32-bit floats, as the official (single
//!   precision) builds print them.
//! * **Key order by address**: Godot 3 orders two objects (other than null) by their address,
//!   Godot 4 two `StringName`s inside arrays by the address of their interned text; these are
//!   tied here (objects) or compared by text (string names). Godot 3 compares pool arrays of
//!   different lengths by reading past the shorter one (and crashes when it is empty); they are
//!   taken as different.
//! * **Large inconsistent orders**: where Godot's `<` is inconsistent (Godot 3 arrays and pool
//!   arrays, each less than the other), its sort takes O(k^2) comparisons; past a budget of
//!   O((K + k) log k) work the keys are merge sorted instead, by the same `<` but maybe not in the
//!   engine's order (Godot 3 dictionaries of more than about a hundred such keys).
//! * **Godot 3 strings that are not Unicode** (surrogates, code points above U+10FFFF, which
//!   Godot 3 accepts): Godot 3 prints such a code point as its own bytes (`ED A0 80` for U+D800,
//!   `corpus/probes/strings`), which no Rust text holds; each prints here as U+FFFD. Overlong
//!   forms print as the characters they spell, and dictionary keys sort and merge by code
//!   point, as in Godot 3 (an overlong `"type"` and `"type"` are one key).
//! * Types Godot 3 lacks, printed with [`Version::Godot3`], use their Godot 4 name in Godot 3's
//!   layout. A Godot 3 `RID` prints as nothing at all, as Godot 3 prints it.
//!
//! # What is checked, and costs
//!
//! Printing reads the whole value: every container is walked (headers, counts, lengths, the depth
//! limit, `allow_objects`) and every string's text is checked with its version's rules, so a
//! malformed value fails with the [`Error`] (and byte offset) of the first problem the printing
//! reaches. The text written before the error is incomplete. Nothing is printed for a value
//! [`parse`](crate::parse) refused: it never becomes a [`VariantRef`].
//!
//! Printing reads the value once into a [`Tape`] (24 bytes per part) and prints from it, each part
//! once: O(n) for values without dictionaries, however they nest. Dictionaries are sorted: each
//! key is read once into the form Godot's `<` compares, and everything inside keys gets an
//! equality number once for the whole printing (hash-consing, so keys nested inside keys are not
//! read again per level); repeated keys are found by their numbers, and the entries are sorted
//! within a budget of O((K + k) log k) work for k keys of K bytes. In all, O(n log n) work and
//! O(n) memory, however keys nest. Nesting is handled with explicit stacks on the heap, never
//! recursion.

mod float;
mod key_classes;
mod key_events;
mod order;
mod pool_order;
mod sort;
mod sort_array;
mod sort_form;

use core::fmt::{self, Write};

use alloc::vec::Vec;

use crate::view::tape::{Children, Part, Tape};
use crate::{ContainerType, Error, GdStr, ObjectRef, Options, VariantRef, VariantType, Version};

use key_classes::KeyClasses;
use order::{PackedRealsIter, Reals16};
use sort::sorted;

/// Godot 4's writer prints a container more than this many levels down as empty (`MAX_RECURSION`).
const MAX_RECURSION: u16 = 100;

/// Why printing stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TextError {
    /// The value is malformed; the error has the byte offset of the problem.
    Malformed(Error),
    /// The output refused the text (`core::fmt::Write` failed).
    Write(fmt::Error),
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextError::Malformed(error) => error.fmt(f),
            TextError::Write(_) => f.write_str("the text output failed"),
        }
    }
}

impl core::error::Error for TextError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            TextError::Malformed(error) => Some(error),
            TextError::Write(error) => Some(error),
        }
    }
}

impl From<Error> for TextError {
    fn from(error: Error) -> Self {
        TextError::Malformed(error)
    }
}

impl From<fmt::Error> for TextError {
    fn from(error: fmt::Error) -> Self {
        TextError::Write(error)
    }
}

/// Writes Godot 4's text of `value` (`var_to_str`) to `out`. O(n) plus dictionary sorting; see
/// the [module docs](self). For Godot 3's text, use [`write_text_as`].
///
/// # Errors
/// [`TextError::Malformed`] at the first malformed part reached (the text written so far is
/// incomplete), [`TextError::Write`] when `out` fails.
pub fn write_text<W: Write + ?Sized>(value: VariantRef<'_>, out: &mut W) -> Result<(), TextError> {
    write_text_as(value, Version::Godot4, out)
}

/// Writes the text `version` prints for `value` (`var2str` in Godot 3, `var_to_str` in Godot 4).
///
/// # Errors
/// As [`write_text`].
pub fn write_text_as<W: Write + ?Sized>(
    value: VariantRef<'_>,
    version: Version,
    out: &mut W,
) -> Result<(), TextError> {
    TextWriter { out, version, numbers: KeyClasses::new(0, version) }.run(value)
}

/// Godot 4's text of `value` (`var_to_str`), as a `String`.
///
/// # Errors
/// The first malformed part reached, with its byte offset.
pub fn to_text(value: VariantRef<'_>) -> Result<alloc::string::String, Error> {
    to_text_as(value, Version::Godot4)
}

/// The text `version` prints for `value`, as a `String`.
///
/// # Errors
/// The first malformed part reached, with its byte offset.
pub fn to_text_as(value: VariantRef<'_>, version: Version) -> Result<alloc::string::String, Error> {
    let mut text = alloc::string::String::new();
    match write_text_as(value, version, &mut text) {
        Ok(()) => Ok(text),
        Err(TextError::Malformed(error)) => Err(error),
        // Writing to a String does not fail.
        Err(TextError::Write(_)) => Ok(text),
    }
}

/// A container being printed; its children come from the value's [`Tape`], each part visited
/// once.
enum Frame<'t, 'a> {
    Array {
        items: Children<'t, 'a>,
        first: bool,
        close: &'static str,
        count: u16,
    },
    Dictionary {
        /// The entries in print order; a value Godot does not find when it looks the key up is
        /// `None` (printed `null`).
        entries: alloc::vec::IntoIter<(Part<'t, 'a>, Option<Part<'t, 'a>>)>,
        /// The value to print after the key just printed.
        pending: Option<Option<Part<'t, 'a>>>,
        first: bool,
        close: &'static str,
        count: u16,
    },
    Object {
        /// Names and values, alternating.
        properties: Children<'t, 'a>,
        first: bool,
        count: u16,
    },
}

/// One printing run of a value whose bytes live for `'a`.
struct TextWriter<'w, 'a, W: ?Sized> {
    out: &'w mut W,
    version: Version,
    /// Equality numbers of everything inside dictionary keys, kept for the whole run.
    numbers: KeyClasses<'a>,
}

/// How a string is escaped.
#[derive(Clone, Copy)]
enum Escape {
    /// `String::c_escape_multiline`: `\` and `"` only.
    Multiline,
    /// `String::c_escape`: also `\a \b \f \n \r \t \v`, `'`, and `?` in Godot 3 (Godot 4.6
    /// leaves `?` as it is).
    C,
}

impl<'w, 'a, W: Write + ?Sized> TextWriter<'w, 'a, W> {
    fn run(&mut self, value: VariantRef<'a>) -> Result<(), TextError> {
        let Some(tape) = Tape::of_container(value) else {
            self.value(value, None, 0)?;
            return Ok(());
        };
        let tape = tape?;
        self.numbers = KeyClasses::new(tape.len(), self.version);
        let mut stack: Vec<Frame<'_, '_>> = Vec::new();
        let root = tape.root();
        if let Some(frame) = self.value(root.value(), Some(root), 0)? {
            stack.push(frame);
        }
        while let Some(frame) = stack.last_mut() {
            match self.step(frame)? {
                Some((part, count)) => {
                    if let Some(frame) = self.value(part.value(), Some(part), count)? {
                        stack.push(frame);
                    }
                }
                None => {
                    stack.pop();
                }
            }
        }
        Ok(())
    }

    fn godot3(&self) -> bool {
        self.version == Version::Godot3
    }

    /// Writes what comes before the next child of `frame` and returns that child with its
    /// recursion count, or closes the container and returns `None`.
    fn step<'t>(
        &mut self,
        frame: &mut Frame<'t, 'a>,
    ) -> Result<Option<(Part<'t, 'a>, u16)>, TextError> {
        match frame {
            Frame::Array { items, first, close, count } => match items.next() {
                Some(part) => {
                    if !core::mem::replace(first, false) {
                        self.out.write_str(", ")?;
                    }
                    Ok(Some((part, *count)))
                }
                None => {
                    self.out.write_str(close)?;
                    Ok(None)
                }
            },
            Frame::Dictionary { entries, pending, first, close, count } => {
                if let Some(value) = pending.take() {
                    self.out.write_str(": ")?;
                    match value {
                        Some(value) => return Ok(Some((value, *count))),
                        None => self.out.write_str("null")?,
                    }
                }
                match entries.next() {
                    Some((key, value)) => {
                        if !core::mem::replace(first, false) {
                            self.out.write_str(",\n")?;
                        }
                        *pending = Some(value);
                        Ok(Some((key, *count)))
                    }
                    None => {
                        self.out.write_str(close)?;
                        Ok(None)
                    }
                }
            }
            Frame::Object { properties, first, count } => loop {
                let (Some(name), Some(value)) = (properties.next(), properties.next()) else {
                    self.out.write_str(")\n")?;
                    return Ok(None);
                };
                if !core::mem::replace(first, false) {
                    self.out.write_char(',')?;
                }
                self.out.write_char('"')?;
                let name = name.name();
                if let Some(name) = name {
                    self.raw_text(name)?;
                }
                self.out.write_str("\":")?;
                match (value.value(), name) {
                    // Godot 4 sends the script by its path and prints the script it loads.
                    (VariantRef::String(path), Some(name))
                        if !self.godot3() && name.text_bytes() == b"script" =>
                    {
                        self.resource(path)?;
                    }
                    _ => return Ok(Some((value, *count))),
                }
            },
        }
    }

    /// Writes `value` whole, or the opening of a container and returns its frame. `count` is
    /// Godot 4's recursion count of the value (the containers above it).
    fn value<'t>(
        &mut self,
        value: VariantRef<'a>,
        part: Option<Part<'t, 'a>>,
        count: u16,
    ) -> Result<Option<Frame<'t, 'a>>, TextError> {
        use VariantRef as V;
        let (open, close) = if self.godot3() { ("( ", " )") } else { ("(", ")") };
        let name = value.variant_type().name(self.version);
        match value {
            V::Nil | V::Object(ObjectRef::Null) => self.out.write_str("null")?,
            V::Bool(b) => self.out.write_str(if b { "true" } else { "false" })?,
            V::Int(i) => write!(self.out, "{i}")?,
            V::Float(f) => match self.version {
                Version::Godot3 => float::write_float_godot3(self.out, f)?,
                Version::Godot4 => float::write_float_godot4(self.out, f)?,
            },
            V::String(s) => {
                self.out.write_char('"')?;
                self.escaped(s, Escape::Multiline)?;
                self.out.write_char('"')?;
            }
            V::StringName(s) => {
                self.out.write_str("&\"")?;
                self.escaped(s, Escape::C)?;
                self.out.write_char('"')?;
            }
            V::Vector2(_)
            | V::Rect2(_)
            | V::Vector3(_)
            | V::Transform2D(_)
            | V::Vector4(_)
            | V::Plane(_)
            | V::Quaternion(_)
            | V::Aabb(_)
            | V::Basis(_)
            | V::Transform3D(_)
            | V::Projection(_)
            | V::Color(_) => {
                let components = order::real_components(&value).unwrap_or_else(Reals16::empty);
                self.out.write_str(name)?;
                self.out.write_str(open)?;
                self.reals(components.as_slice())?;
                self.out.write_str(close)?;
            }
            V::Vector2i(v) => write_ints(self.out, name, open, close, |f| v.for_each_component(f))?,
            V::Vector3i(v) => write_ints(self.out, name, open, close, |f| v.for_each_component(f))?,
            V::Vector4i(v) => write_ints(self.out, name, open, close, |f| v.for_each_component(f))?,
            V::Rect2i(v) => write_ints(self.out, name, open, close, |f| v.for_each_component(f))?,
            V::NodePath(path) => {
                self.out.write_str("NodePath(\"")?;
                if node_path_absolute(&path, self.version) {
                    self.out.write_char('/')?;
                }
                for (i, part) in path.names().enumerate() {
                    if i > 0 {
                        self.out.write_char('/')?;
                    }
                    self.escaped(part?, Escape::C)?;
                }
                // Godot 4 writes the subnames joined by `:` after a `:` when that is not empty.
                let lone_empty = self.version == Version::Godot4
                    && path.subname_count() == 1
                    && path.subnames().all(|part| part.is_ok_and(|p| p.text_bytes().is_empty()));
                for part in path.subnames().filter(|_| !lone_empty) {
                    self.out.write_char(':')?;
                    self.escaped(part?, Escape::C)?;
                }
                self.out.write_str("\")")?;
            }
            V::Rid(id) => match (self.version, id) {
                (Version::Godot3, _) => {}
                (Version::Godot4, None | Some(0)) => self.out.write_str("RID()")?,
                (Version::Godot4, Some(id)) => write!(self.out, "RID({})", id as i64)?,
            },
            V::Object(_) | V::Dictionary(_) | V::Array(_) => {
                return self.container(value, part, count);
            }
            V::Callable => self.out.write_str("Callable()")?,
            V::Signal(_) => self.out.write_str("Signal()")?,
            V::PackedByteArray(bytes) => {
                self.list_open(name)?;
                for (i, byte) in bytes.iter().enumerate() {
                    self.separator(i)?;
                    write!(self.out, "{byte}")?;
                }
                self.list_close()?;
            }
            V::PackedInt32Array(p) => {
                self.list_open(name)?;
                for (i, n) in p.iter().enumerate() {
                    self.separator(i)?;
                    write!(self.out, "{n}")?;
                }
                self.list_close()?;
            }
            V::PackedInt64Array(p) => {
                self.list_open(name)?;
                for (i, n) in p.iter().enumerate() {
                    self.separator(i)?;
                    write!(self.out, "{n}")?;
                }
                self.list_close()?;
            }
            V::PackedFloat32Array(p) => {
                self.list_open(name)?;
                for (i, n) in p.iter().enumerate() {
                    self.separator(i)?;
                    self.real(f64::from(n))?;
                }
                self.list_close()?;
            }
            V::PackedFloat64Array(p) => {
                self.list_open(name)?;
                for (i, n) in p.iter().enumerate() {
                    self.separator(i)?;
                    self.real(n)?;
                }
                self.list_close()?;
            }
            V::PackedStringArray(strings) => {
                self.list_open(name)?;
                for (i, s) in strings.iter().enumerate() {
                    self.separator(i)?;
                    self.out.write_char('"')?;
                    self.escaped(s?, Escape::C)?;
                    self.out.write_char('"')?;
                }
                self.list_close()?;
            }
            V::PackedColorArray(colors) => {
                self.list_open(name)?;
                for (i, color) in colors.iter().enumerate() {
                    self.separator(i)?;
                    self.reals(order::color_components(color).as_slice())?;
                }
                self.list_close()?;
            }
            V::PackedVector2Array(_) | V::PackedVector3Array(_) | V::PackedVector4Array(_) => {
                self.list_open(name)?;
                let mut elements = PackedRealsIter::new(&value);
                let mut components = Reals16::empty();
                let mut i = 0usize;
                while elements.next_into(&mut components) {
                    self.separator(i)?;
                    self.reals(components.as_slice())?;
                    i = i.saturating_add(1);
                }
                self.list_close()?;
            }
        }
        Ok(None)
    }

    /// An array, a dictionary or an object: writes its opening (or all of it when it is empty,
    /// null, or past Godot 4's nesting cut-off) and returns its frame.
    /// `part` is the container's place on the tape (every array, dictionary and full object
    /// has one).
    fn container<'t>(
        &mut self,
        value: VariantRef<'a>,
        part: Option<Part<'t, 'a>>,
        count: u16,
    ) -> Result<Option<Frame<'t, 'a>>, TextError> {
        let cut = self.version == Version::Godot4 && count > MAX_RECURSION;
        let child = count.saturating_add(1);
        match value {
            VariantRef::Array(array) => {
                let element_type = array.element_type()?;
                let typed = element_type != ContainerType::Untyped;
                if typed {
                    self.out.write_str("Array[")?;
                    self.container_type(element_type, array.origin().0.options)?;
                    self.out.write_str("](")?;
                }
                let close = match (self.godot3(), typed) {
                    (true, _) => " ]",
                    (false, false) => "]",
                    (false, true) => "])",
                };
                if cut {
                    self.out.write_str(if typed { "[])" } else { "[]" })?;
                    return Ok(None);
                }
                self.out.write_str(if self.godot3() { "[ " } else { "[" })?;
                let Some(part) = part else { return Ok(None) };
                Ok(Some(Frame::Array { items: part.children(), first: true, close, count: child }))
            }
            VariantRef::Dictionary(dictionary) => {
                let (keys, values) = (dictionary.key_type()?, dictionary.value_type()?);
                let typed = keys != ContainerType::Untyped || values != ContainerType::Untyped;
                if typed {
                    let options = dictionary.origin().0.options;
                    self.out.write_str("Dictionary[")?;
                    self.container_type(keys, options)?;
                    self.out.write_str(", ")?;
                    self.container_type(values, options)?;
                    self.out.write_str("](")?;
                }
                let end = if typed { ")" } else { "" };
                if cut || (dictionary.is_empty() && !self.godot3()) {
                    self.out.write_str("{}")?;
                    self.out.write_str(end)?;
                    return Ok(None);
                }
                if dictionary.is_empty() {
                    self.out.write_str("{\n\n}")?;
                    return Ok(None);
                }
                self.out.write_str("{\n")?;
                let Some(part) = part else { return Ok(None) };
                Ok(Some(Frame::Dictionary {
                    entries: self.print_order(part)?.into_iter(),
                    pending: None,
                    first: true,
                    close: if typed { "\n})" } else { "\n}" },
                    count: child,
                }))
            }
            VariantRef::Object(ObjectRef::Id(id)) => {
                if cut {
                    self.out.write_str("null")?;
                } else {
                    writeln!(
                        self.out,
                        "Object(EncodedObjectAsID,\"object_id\":{},\"script\":null)",
                        id as i64
                    )?;
                }
                Ok(None)
            }
            VariantRef::Object(ObjectRef::Full(object)) => {
                if cut {
                    self.out.write_str("null")?;
                    return Ok(None);
                }
                self.out.write_str("Object(")?;
                self.raw_text(object.class_name())?;
                self.out.write_char(',')?;
                let Some(part) = part else { return Ok(None) };
                Ok(Some(Frame::Object { properties: part.children(), first: true, count: child }))
            }
            _ => {
                self.out.write_str("null")?;
                Ok(None)
            }
        }
    }

    /// The entries of the dictionary at `part` in print order: repeated keys merged (first
    /// position, last value), sorted as Godot sorts them; `None` for a value Godot does not find.
    fn print_order<'t>(
        &mut self,
        part: Part<'t, 'a>,
    ) -> Result<Vec<(Part<'t, 'a>, Option<Part<'t, 'a>>)>, Error> {
        let mut children = part.children();
        let mut keys = Vec::new();
        let mut entries = Vec::new();
        while let (Some(key), Some(value)) = (children.next(), children.next()) {
            keys.push(key);
            entries.push((key, value));
        }
        sorted(&keys, entries, &mut self.numbers, self.version)
    }

    /// The element, key or value type of a typed container. Without full objects Godot's
    /// decoder makes every object type (`Object`, a class, a script) `EncodedObjectAsID`.
    fn container_type(&mut self, ty: ContainerType<'_>, options: Options) -> Result<(), TextError> {
        let object = matches!(
            ty,
            ContainerType::Builtin(VariantType::Object)
                | ContainerType::ClassName(_)
                | ContainerType::Script(_)
        );
        if object && !options.allow_objects() {
            self.out.write_str("EncodedObjectAsID")?;
            return Ok(());
        }
        match ty {
            ContainerType::Untyped => self.out.write_str("Variant")?,
            ContainerType::Builtin(ty) => self.out.write_str(ty.name(self.version))?,
            ContainerType::ClassName(name) => self.raw_text(name)?,
            ContainerType::Script(path) => self.resource(path)?,
        }
        Ok(())
    }

    /// A resource Godot loaded from `path`: `Resource("res://...")` (Godot adds the `uid://`
    /// when the project has one).
    fn resource(&mut self, path: GdStr<'_>) -> Result<(), TextError> {
        self.out.write_str("Resource(\"")?;
        self.escaped(path, Escape::Multiline)?;
        self.out.write_str("\")")?;
        Ok(())
    }

    /// `Name(` or `Name( ` for a packed array.
    fn list_open(&mut self, name: &str) -> fmt::Result {
        self.out.write_str(name)?;
        self.out.write_str(if self.godot3() { "( " } else { "(" })
    }

    fn list_close(&mut self) -> fmt::Result {
        self.out.write_str(if self.godot3() { " )" } else { ")" })
    }

    fn separator(&mut self, index: usize) -> fmt::Result {
        if index > 0 { self.out.write_str(", ") } else { Ok(()) }
    }

    /// A real component.
    fn real(&mut self, value: f64) -> fmt::Result {
        match self.version {
            Version::Godot3 => float::write_real_godot3(self.out, value),
            Version::Godot4 => float::write_real_godot4(self.out, value),
        }
    }

    /// Real components separated by `, `.
    fn reals(&mut self, values: &[f64]) -> fmt::Result {
        for (i, value) in values.iter().enumerate() {
            self.separator(i)?;
            self.real(*value)?;
        }
        Ok(())
    }

    /// A string's text as the game reads it, checked, without escaping (class and property
    /// names).
    fn raw_text(&mut self, s: GdStr<'_>) -> Result<(), TextError> {
        s.check()?;
        self.out.write_str(&s.to_string_lossy())?;
        Ok(())
    }

    /// A string's text as the game reads it (overlong forms as the characters they spell, code
    /// points `str` cannot hold as U+FFFD), checked and escaped.
    fn escaped(&mut self, s: GdStr<'_>, escape: Escape) -> Result<(), TextError> {
        s.check()?;
        let text = s.to_string_lossy();
        let mut plain = 0usize;
        for (i, c) in text.char_indices() {
            let replacement = match (c, escape) {
                ('\\', _) => "\\\\",
                ('"', _) => "\\\"",
                (_, Escape::Multiline) => continue,
                ('\u{7}', Escape::C) => "\\a",
                ('\u{8}', Escape::C) => "\\b",
                ('\u{c}', Escape::C) => "\\f",
                ('\n', Escape::C) => "\\n",
                ('\r', Escape::C) => "\\r",
                ('\t', Escape::C) => "\\t",
                ('\u{b}', Escape::C) => "\\v",
                ('\'', Escape::C) => "\\'",
                ('?', Escape::C) if self.godot3() => "\\?",
                _ => continue,
            };
            self.out.write_str(text.get(plain..i).unwrap_or(""))?;
            self.out.write_str(replacement)?;
            plain = i.saturating_add(c.len_utf8());
        }
        self.out.write_str(text.get(plain..).unwrap_or(""))?;
        Ok(())
    }
}

/// Whether Godot prints (and compares) `path` as absolute: Godot 3 keeps no data for a path
/// without names and subnames, so it forgets the flag there (`NodePath("")`).
fn node_path_absolute(path: &crate::NodePathRef<'_>, version: Version) -> bool {
    path.is_absolute()
        && (version == Version::Godot4 || path.name_count() > 0 || path.subname_count() > 0)
}

/// `Name(1, 2)` for an integer vector.
fn write_ints<W: Write + ?Sized>(
    out: &mut W,
    name: &str,
    open: &str,
    close: &str,
    each: impl FnOnce(&mut dyn FnMut(i32)),
) -> fmt::Result {
    out.write_str(name)?;
    out.write_str(open)?;
    let mut result = Ok(());
    let mut first = true;
    each(&mut |c| {
        if result.is_ok() {
            let separator = if core::mem::replace(&mut first, false) { "" } else { ", " };
            result = write!(out, "{separator}{c}");
        }
    });
    result?;
    out.write_str(close)
}
