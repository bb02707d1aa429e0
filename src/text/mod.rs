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
//!   layout. A Godot 3 `RID` prints as nothing at all, as Godot 3 prints it
//!   (`corpus/text/display`); [`to_display_text_as`] prints it `RID()` instead.
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
//!
//! Files: this one holds the entry points, [`TextError`] and the writer's walk (`TextWriter`:
//! one tape pass, a stack of open containers); `value.rs` the text of values that are not
//! containers, `container.rs` arrays, dictionaries, typed containers' types and full objects,
//! `tokens.rs` the small pieces (brackets, separators, reals, escaped strings, integers), `sink.rs`
//! the buffer the text is gathered in (one per printing run); the key
//! order and merging are in `key_classes/`, `key_events.rs`, `order.rs`, `pool_order.rs`,
//! `sort*.rs`, and Godot's float text in `float.rs`.

mod container;
mod float;
mod key_classes;
mod key_events;
mod order;
mod pool_order;
mod sink;
mod sort;
mod sort_array;
mod sort_form;
mod tokens;
mod value;

use core::fmt::{self, Write};

use alloc::vec::Vec;

use crate::view::tape::{Children, Part, Tape};
use crate::{
    Error, Options, VariantRef, VariantType, Version, view::ContainerType, view::GdStr,
    view::ObjectRef,
};

use key_classes::KeyClasses;
use order::{PackedRealsIter, Reals16};
use sort::sorted;

use tokens::*;

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
/// the [module docs](self). For Godot 3's text, use [`write_text_as`]. The text is gathered in
/// a buffer of up to 8 KiB (one per call) and written to `out` in pieces of about that size.
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
    print(value, version, false, out)
}

/// One printing run into `out`, through a [`sink::Sink`] (what was printed before an error is
/// handed on too).
fn print<W: Write + ?Sized>(
    value: VariantRef<'_>,
    version: Version,
    display: bool,
    out: &mut W,
) -> Result<(), TextError> {
    let mut sink = sink::Sink::new(out);
    let printed =
        TextWriter { out: &mut sink, version, numbers: KeyClasses::new(0, version), display }
            .run(value);
    let finished = sink.finish();
    printed?;
    Ok(finished?)
}

/// Writes the text `version` prints for `value` ([`write_text_as`]), except that no value prints
/// as nothing: a Godot 3 `RID`, which `var2str` prints as nothing at all (its bytes hold no id,
/// so it is always an empty RID), prints `RID()` (the text Godot 4 prints for an empty RID, and
/// the Godot 3 expression that makes one), alone and inside containers. Every other value prints
/// as with [`write_text_as`]. For logs and listings, where a value printed as nothing would look
/// absent (`call(RID)` printed as `call()`).
///
/// # Errors
/// As [`write_text`].
pub fn write_display_text_as<W: Write + ?Sized>(
    value: VariantRef<'_>,
    version: Version,
    out: &mut W,
) -> Result<(), TextError> {
    print(value, version, true, out)
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

/// The text of [`write_display_text_as`], as a `String`.
///
/// # Errors
/// The first malformed part reached, with its byte offset.
pub fn to_display_text_as(
    value: VariantRef<'_>,
    version: Version,
) -> Result<alloc::string::String, Error> {
    let mut text = alloc::string::String::new();
    match write_display_text_as(value, version, &mut text) {
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
        /// The entries in print order, each key with its value when it was read already; a
        /// value Godot does not find when it looks the key up is `None` (printed `null`).
        entries: alloc::vec::IntoIter<(Part<'t, 'a>, Option<VariantRef<'a>>, Option<Part<'t, 'a>>)>,
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
    /// [`write_display_text_as`]: a Godot 3 RID prints `RID()` instead of nothing.
    display: bool,
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
                Some((part, known, count)) => {
                    let value = known.unwrap_or_else(|| part.value());
                    if let Some(frame) = self.value(value, Some(part), count)? {
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
    ) -> Result<Option<(Part<'t, 'a>, Option<VariantRef<'a>>, u16)>, TextError> {
        match frame {
            Frame::Array { items, first, close, count } => match items.next() {
                Some(part) => {
                    if !core::mem::replace(first, false) {
                        self.out.write_str(", ")?;
                    }
                    Ok(Some((part, None, *count)))
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
                        Some(value) => return Ok(Some((value, None, *count))),
                        None => self.out.write_str("null")?,
                    }
                }
                match entries.next() {
                    Some((key, known, value)) => {
                        if !core::mem::replace(first, false) {
                            self.out.write_str(",\n")?;
                        }
                        *pending = Some(value);
                        Ok(Some((key, known, *count)))
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
                    _ => return Ok(Some((value, None, *count))),
                }
            },
        }
    }
}
