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
//! The output matches the engines' text for every value case of both corpora except the ones
//! listed below and in `tests/text.rs`. What is reproduced:
//!
//! * numbers exactly as the engines print them (Godot 4: the Grisu2 digits, in single precision
//!   for values that are exact 32-bit floats, `inf`, `inf_neg`, `nan`, `1e+20`; Godot 3: the value
//!   narrowed to a 32-bit float with six significant digits, `-inf.0`);
//! * strings escaped as Godot does (`String` with only `\` and `"` escaped, the rest of `StringName`,
//!   `NodePath` and `PackedStringArray` text in C style);
//! * dictionaries with their keys sorted as Godot sorts them and repeated keys merged as Godot's
//!   decoder merges them (first position, last value), Godot's line layout, typed containers
//!   (`Array[int]([1, 2])`, `Dictionary[String, Variant]({...})`), Godot 4's nesting cut-off (a
//!   container more than 100 levels down prints as `[]` or `{}`, an object as `null`).
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
//! * **Typed containers of a class**: without full objects Godot writes the class name
//!   `EncodedObjectAsID`, which is printed as found (`Array[EncodedObjectAsID]([])` where the
//!   original was an `Array[Node]`). A script type prints as `Resource("res://...")` without the
//!   `uid://` that Godot adds when the project has one.
//! * **Values a single-precision engine narrows**: math values and packed vectors sent in double
//!   precision (header bit 16) are printed narrowed to 32-bit floats, as the official (single
//!   precision) builds print them.
//! * **Key order where Godot's `<` does not order**: keys of types without `<` (dictionaries,
//!   objects, colors, transforms, packed arrays, ...) and NaN keys keep their wire order; with
//!   more than 16 keys Godot's sort is not stable and may order such ties differently. Without
//!   the `alloc` feature, keys are ordered without memory by a total order close to Godot's (type
//!   first, so a `String` and a `StringName` key never interleave by text).
//! * **Godot 3 strings that are not Unicode** (surrogates, code points above U+10FFFF, which
//!   Godot 3 accepts) print their invalid bytes as U+FFFD. Types Godot 3 lacks, printed with
//!   [`Version::Godot3`], use their Godot 4 name in Godot 3's layout. A Godot 3 `RID` prints as
//!   nothing at all, as Godot 3 prints it.
//!
//! # What is checked, and costs
//!
//! Printing reads the whole value: every container is walked (headers, counts, lengths, the depth
//! limit, `allow_objects`) and every string's text is checked with its version's rules, so a
//! malformed value fails with the [`Error`] (and byte offset) of the first problem the printing
//! reaches. The text written before the error is incomplete. Nothing is printed for a value
//! [`parse`](crate::parse) refused: it never becomes a [`VariantRef`].
//!
//! Printing is O(n) for values without dictionaries, plus the re-walk of nested containers
//! (each container's elements are found by walking them, once per level above). Dictionaries
//! are sorted. With `alloc`, each key is read once into the form Godot's `<` compares and the
//! form its key equality compares (one pass over the dictionary for each); repeated keys are
//! found by sorting the equality forms, and the entries are sorted with O(k log k) comparisons
//! of the order forms, each at most the shorter key: O((K + k) log k) work and O(k + K) memory
//! for k entries whose keys take K bytes. Without `alloc`, keys are selected
//! one at a time with no memory: O(k²) comparisons and equality checks, each up to 16 times the
//! bytes of the two keys. Nesting is handled with an explicit stack, never recursion: a heap `Vec`
//! with `alloc`, otherwise a fixed array of 1025 entries on the stack (about 100 KiB). Key
//! comparisons follow nested arrays 16 levels deep at most.

mod float;
#[cfg(feature = "alloc")]
mod key_classes;
#[cfg(feature = "alloc")]
mod key_events;
mod order;
#[cfg(feature = "alloc")]
mod sort;
#[cfg(feature = "alloc")]
mod sort_form;

use core::fmt::{self, Write};

use crate::view::array::Elements;
use crate::view::dictionary::DictionaryRef;
use crate::view::element::Element;
use crate::view::object::Properties;
use crate::{ContainerType, Error, GdStr, ObjectRef, VariantRef, Version};

use order::{PackedRealsIter, Reals16};
#[cfg(feature = "alloc")]
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
    TextWriter { out, version, sort_in_memory: cfg!(feature = "alloc") }.run(value)
}

/// Godot 4's text of `value` (`var_to_str`), as a `String`.
///
/// # Errors
/// The first malformed part reached, with its byte offset.
#[cfg(feature = "alloc")]
pub fn to_text(value: VariantRef<'_>) -> Result<alloc::string::String, Error> {
    to_text_as(value, Version::Godot4)
}

/// The text `version` prints for `value`, as a `String`.
///
/// # Errors
/// The first malformed part reached, with its byte offset.
#[cfg(feature = "alloc")]
pub fn to_text_as(value: VariantRef<'_>, version: Version) -> Result<alloc::string::String, Error> {
    let mut text = alloc::string::String::new();
    match write_text_as(value, version, &mut text) {
        Ok(()) => Ok(text),
        Err(TextError::Malformed(error)) => Err(error),
        // Writing to a String does not fail.
        Err(TextError::Write(_)) => Ok(text),
    }
}

/// A container being printed.
enum Frame<'a> {
    Array {
        items: Elements<'a>,
        first: bool,
        close: &'static str,
        count: u16,
    },
    Dictionary {
        order: KeyOrder<'a>,
        pending: Option<Element<'a>>,
        first: bool,
        close: &'static str,
        count: u16,
    },
    Object {
        properties: Properties<'a>,
        first: bool,
        count: u16,
    },
}

/// The order in which a dictionary's entries are printed.
enum KeyOrder<'a> {
    /// Found one at a time, without memory: the least key after the last one printed.
    Select { dictionary: DictionaryRef<'a>, last: Option<u32> },
    /// Sorted up front.
    #[cfg(feature = "alloc")]
    Sorted { entries: alloc::vec::Vec<(Element<'a>, Element<'a>)>, next: usize },
}

/// The explicit stack of open containers.
#[cfg(feature = "alloc")]
struct Stack<'a> {
    frames: alloc::vec::Vec<Frame<'a>>,
}

#[cfg(feature = "alloc")]
impl<'a> Stack<'a> {
    fn new() -> Self {
        Stack { frames: alloc::vec::Vec::new() }
    }

    fn push(&mut self, frame: Frame<'a>) {
        self.frames.push(frame);
    }

    fn last_mut(&mut self) -> Option<&mut Frame<'a>> {
        self.frames.last_mut()
    }

    fn pop(&mut self) {
        self.frames.pop();
    }
}

/// Room for every container the depth limit allows (the top level and 1024 below it).
#[cfg(not(feature = "alloc"))]
const STACK_LEN: usize = crate::MAX_DEPTH as usize + 1;

/// The explicit stack of open containers, in a fixed array.
#[cfg(not(feature = "alloc"))]
struct Stack<'a> {
    frames: [Option<Frame<'a>>; STACK_LEN],
    len: usize,
}

#[cfg(not(feature = "alloc"))]
impl<'a> Stack<'a> {
    fn new() -> Self {
        Stack { frames: [const { None }; STACK_LEN], len: 0 }
    }

    fn push(&mut self, frame: Frame<'a>) {
        // The depth limit keeps `len` below STACK_LEN; a frame past it would be dropped.
        if let Some(slot) = self.frames.get_mut(self.len) {
            *slot = Some(frame);
            self.len = self.len.saturating_add(1);
        }
    }

    fn last_mut(&mut self) -> Option<&mut Frame<'a>> {
        let index = self.len.checked_sub(1)?;
        self.frames.get_mut(index)?.as_mut()
    }

    fn pop(&mut self) {
        if let Some(index) = self.len.checked_sub(1) {
            if let Some(slot) = self.frames.get_mut(index) {
                *slot = None;
            }
            self.len = index;
        }
    }
}

/// One printing run.
struct TextWriter<'w, W: ?Sized> {
    out: &'w mut W,
    version: Version,
    /// Sort dictionaries in memory (Godot's exact algorithm for up to 16 keys) rather than
    /// selecting keys one at a time.
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    sort_in_memory: bool,
}

/// How a string is escaped.
#[derive(Clone, Copy)]
enum Escape {
    /// `String::c_escape_multiline`: `\` and `"` only.
    Multiline,
    /// `String::c_escape`: also `\a \b \f \n \r \t \v`, `'` and `?`.
    C,
}

impl<'w, W: Write + ?Sized> TextWriter<'w, W> {
    fn run(&mut self, value: VariantRef<'_>) -> Result<(), TextError> {
        let mut stack = Stack::new();
        if let Some(frame) = self.value(value, 0)? {
            stack.push(frame);
        }
        while let Some(frame) = stack.last_mut() {
            match self.step(frame)? {
                Some((value, count)) => {
                    if let Some(frame) = self.value(value, count)? {
                        stack.push(frame);
                    }
                }
                None => stack.pop(),
            }
        }
        Ok(())
    }

    fn godot3(&self) -> bool {
        self.version == Version::Godot3
    }

    /// Writes what comes before the next child of `frame` and returns that child with its
    /// recursion count, or closes the container and returns `None`.
    fn step<'a>(
        &mut self,
        frame: &mut Frame<'a>,
    ) -> Result<Option<(VariantRef<'a>, u16)>, TextError> {
        match frame {
            Frame::Array { items, first, close, count } => match items.next().transpose()? {
                Some(element) => {
                    if !core::mem::replace(first, false) {
                        self.out.write_str(", ")?;
                    }
                    Ok(Some((element.value(), *count)))
                }
                None => {
                    self.out.write_str(close)?;
                    Ok(None)
                }
            },
            Frame::Dictionary { order, pending, first, close, count } => {
                if let Some(value) = pending.take() {
                    self.out.write_str(": ")?;
                    return Ok(Some((value.value(), *count)));
                }
                match next_entry(order, self.version)? {
                    Some((key, value)) => {
                        if !core::mem::replace(first, false) {
                            self.out.write_str(",\n")?;
                        }
                        *pending = Some(value);
                        Ok(Some((key.value(), *count)))
                    }
                    None => {
                        self.out.write_str(close)?;
                        Ok(None)
                    }
                }
            }
            Frame::Object { properties, first, count } => match properties.next().transpose()? {
                Some((name, value)) => {
                    if !core::mem::replace(first, false) {
                        self.out.write_char(',')?;
                    }
                    self.out.write_char('"')?;
                    self.raw_text(name)?;
                    self.out.write_str("\":")?;
                    Ok(Some((value.value(), *count)))
                }
                None => {
                    self.out.write_str(")\n")?;
                    Ok(None)
                }
            },
        }
    }

    /// Writes `value` whole, or the opening of a container and returns its frame. `count` is
    /// Godot 4's recursion count of the value (the containers above it).
    fn value<'a>(
        &mut self,
        value: VariantRef<'a>,
        count: u16,
    ) -> Result<Option<Frame<'a>>, TextError> {
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
                if path.is_absolute() {
                    self.out.write_char('/')?;
                }
                for (i, part) in path.names().enumerate() {
                    if i > 0 {
                        self.out.write_char('/')?;
                    }
                    self.escaped(part?, Escape::C)?;
                }
                for part in path.subnames() {
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
            V::Object(_) | V::Dictionary(_) | V::Array(_) => return self.container(value, count),
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
    fn container<'a>(
        &mut self,
        value: VariantRef<'a>,
        count: u16,
    ) -> Result<Option<Frame<'a>>, TextError> {
        let cut = self.version == Version::Godot4 && count > MAX_RECURSION;
        let child = count.saturating_add(1);
        match value {
            VariantRef::Array(array) => {
                let element_type = array.element_type()?;
                let typed = element_type != ContainerType::Untyped;
                if typed {
                    self.out.write_str("Array[")?;
                    self.container_type(element_type)?;
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
                Ok(Some(Frame::Array { items: array.elements(), first: true, close, count: child }))
            }
            VariantRef::Dictionary(dictionary) => {
                let (keys, values) = (dictionary.key_type()?, dictionary.value_type()?);
                let typed = keys != ContainerType::Untyped || values != ContainerType::Untyped;
                if typed {
                    self.out.write_str("Dictionary[")?;
                    self.container_type(keys)?;
                    self.out.write_str(", ")?;
                    self.container_type(values)?;
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
                let order = self.key_order(dictionary)?;
                Ok(Some(Frame::Dictionary {
                    order,
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
                Ok(Some(Frame::Object {
                    properties: object.properties(),
                    first: true,
                    count: child,
                }))
            }
            _ => {
                self.out.write_str("null")?;
                Ok(None)
            }
        }
    }

    /// How the entries of a non-empty dictionary are put in order.
    fn key_order<'a>(&self, dictionary: DictionaryRef<'a>) -> Result<KeyOrder<'a>, Error> {
        #[cfg(feature = "alloc")]
        if self.sort_in_memory {
            return sorted(dictionary, self.version);
        }
        Ok(KeyOrder::Select { dictionary, last: None })
    }

    /// The element, key or value type of a typed container.
    fn container_type(&mut self, ty: ContainerType<'_>) -> Result<(), TextError> {
        match ty {
            ContainerType::Untyped => self.out.write_str("Variant")?,
            ContainerType::Builtin(ty) => self.out.write_str(ty.name(self.version))?,
            ContainerType::ClassName(name) => self.raw_text(name)?,
            ContainerType::Script(path) => {
                self.out.write_str("Resource(\"")?;
                self.escaped(path, Escape::Multiline)?;
                self.out.write_str("\")")?;
            }
        }
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

    /// A string's text, checked, without escaping (class and property names).
    fn raw_text(&mut self, s: GdStr<'_>) -> Result<(), TextError> {
        s.check()?;
        for chunk in s.text_bytes().utf8_chunks() {
            self.out.write_str(chunk.valid())?;
            if !chunk.invalid().is_empty() {
                self.out.write_char(char::REPLACEMENT_CHARACTER)?;
            }
        }
        Ok(())
    }

    /// A string's text, checked and escaped.
    fn escaped(&mut self, s: GdStr<'_>, escape: Escape) -> Result<(), TextError> {
        s.check()?;
        for chunk in s.text_bytes().utf8_chunks() {
            let mut plain = 0usize;
            let valid = chunk.valid();
            for (i, c) in valid.char_indices() {
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
                    ('?', Escape::C) => "\\?",
                    _ => continue,
                };
                self.out.write_str(valid.get(plain..i).unwrap_or(""))?;
                self.out.write_str(replacement)?;
                plain = i.saturating_add(c.len_utf8());
            }
            self.out.write_str(valid.get(plain..).unwrap_or(""))?;
            if !chunk.invalid().is_empty() {
                self.out.write_char(char::REPLACEMENT_CHARACTER)?;
            }
        }
        Ok(())
    }
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

/// The next entry of a dictionary in print order.
fn next_entry<'a>(
    order: &mut KeyOrder<'a>,
    version: Version,
) -> Result<Option<(Element<'a>, Element<'a>)>, Error> {
    match order {
        KeyOrder::Select { dictionary, last } => {
            let found = select_next(*dictionary, *last, version)?;
            Ok(found.map(|(index, key, value)| {
                *last = Some(index);
                (key, value)
            }))
        }
        #[cfg(feature = "alloc")]
        KeyOrder::Sorted { entries, next } => {
            let entry = entries.get(*next).copied();
            *next = next.saturating_add(1);
            Ok(entry)
        }
    }
}

/// The least key after the entry at wire index `last` (by the total order, then by wire index),
/// skipping repeats of a key already printed; its value is that of the key's last repeat.
fn select_next<'a>(
    dictionary: DictionaryRef<'a>,
    last: Option<u32>,
    version: Version,
) -> Result<Option<(u32, Element<'a>, Element<'a>)>, Error> {
    use core::cmp::Ordering;
    let mut after = match last {
        Some(index) => dictionary
            .entries()
            .nth(index as usize)
            .transpose()?
            .map(|(key, _)| (index, key.value())),
        None => None,
    };
    loop {
        let mut best: Option<(u32, Element<'a>)> = None;
        for (index, entry) in (0u32..).zip(dictionary.entries()) {
            let (key, _) = entry?;
            let value = key.value();
            if let Some((after_index, after_key)) = &after {
                let o = order::total_cmp(&value, after_key, version, 0)?;
                if o == Ordering::Less || (o == Ordering::Equal && index <= *after_index) {
                    continue;
                }
            }
            let better = match &best {
                None => true,
                Some((_, current)) => {
                    order::total_cmp(&value, &current.value(), version, 0)? == Ordering::Less
                }
            };
            if better {
                best = Some((index, key));
            }
        }
        let Some((best_index, best_key)) = best else {
            return Ok(None);
        };
        let best_value = best_key.value();
        let mut repeat = false;
        let mut value = None;
        for (index, entry) in (0u32..).zip(dictionary.entries()) {
            let (key, v) = entry?;
            if index == best_index || order::key_eq(&key.value(), &best_value, version, 0)? {
                if index < best_index {
                    repeat = true;
                    break;
                }
                value = Some(v);
            }
        }
        match value {
            Some(value) if !repeat => return Ok(Some((best_index, best_key, value))),
            _ => after = Some((best_index, best_value)),
        }
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use crate::Options;

    /// The memory-free key order gives the same text as sorting in memory when keys are ordered
    /// consistently (here: every corpus dictionary).
    #[test]
    fn selecting_keys_matches_sorting() {
        for (dir, version) in [("godot3", Version::Godot3), ("godot4", Version::Godot4)] {
            for name in [
                "dict_simple",
                "dict_order",
                "dict_mixed_keys",
                "dict_nested",
                "dict_nested_depth100",
            ] {
                let path = alloc::format!("{}/corpus/{dir}/{name}.bin", env!("CARGO_MANIFEST_DIR"));
                let bytes = std::fs::read(path).unwrap();
                let value = crate::parse(&bytes, Options::new(version)).unwrap();
                let mut sorted = alloc::string::String::new();
                TextWriter { out: &mut sorted, version, sort_in_memory: true }.run(value).unwrap();
                let mut selected = alloc::string::String::new();
                TextWriter { out: &mut selected, version, sort_in_memory: false }
                    .run(value)
                    .unwrap();
                assert_eq!(sorted, selected, "{dir}/{name}");
            }
        }
    }
}
