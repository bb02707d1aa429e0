//! `Debug` for owned containers without recursion, in the format the derived implementations
//! (and `Formatter::debug_*`) write, `{:#?}` included.
//!
//! A container is printed from a heap-allocated stack of small actions (a few per level of
//! nesting), so printing the deepest values Godot accepts needs no deep call stack. Values that
//! hold no values are printed by their own `Debug` (with the formatter's flags; in `{:#?}`
//! output, with its precision only). O(size of the value).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Debug, Formatter, Write};
use core::slice::Iter;

use super::{Array, Dictionary, Object, Variant};

/// Writes `Array { element_type: .., elements: [..] }`.
pub(super) fn array(array: &Array, f: &mut Formatter<'_>) -> fmt::Result {
    print(Action::Array(array), f)
}

/// Writes `Dictionary[K, V] ` (typed dictionaries only), then the entries as a map.
pub(super) fn dictionary(dictionary: &Dictionary, f: &mut Formatter<'_>) -> fmt::Result {
    print(Action::Dictionary(dictionary), f)
}

/// Writes `FullObject { class: .., properties: [..] }`.
pub(super) fn full_object(
    class: &String,
    properties: &[(String, Variant)],
    f: &mut Formatter<'_>,
) -> fmt::Result {
    print(Action::Full(class, properties), f)
}

/// One step of the output.
enum Action<'a> {
    /// Text as it is.
    Text(&'static str),
    /// A value that holds no values, printed by its own `Debug`.
    Leaf(&'a dyn Debug),
    /// A `Variant`, as the derived `Debug` prints it.
    Value(&'a Variant),
    Array(&'a Array),
    Dictionary(&'a Dictionary),
    Full(&'a String, &'a [(String, Variant)]),
    /// `Full(FullObject { .. })`, as `Object::Full` derives it.
    FullTuple(&'a String, &'a [(String, Variant)]),
    /// The elements of a list; `first`: none printed yet.
    Elements {
        rest: Iter<'a, Variant>,
        first: bool,
    },
    Entries {
        rest: Iter<'a, (Variant, Variant)>,
        first: bool,
    },
    Properties {
        rest: Iter<'a, (String, Variant)>,
        first: bool,
    },
    /// Before a field of a tuple (`Name(` .. `)`).
    TupleField {
        first: bool,
    },
    /// Before a field of a struct (`Name {` .. `}`).
    StructField {
        first: bool,
        name: &'static str,
    },
    /// After a field of a tuple or a struct.
    FieldEnd,
    /// The end of a struct that has fields.
    StructEnd,
    /// Before an entry of a list, or the key of an entry of a map.
    Entry {
        first: bool,
    },
    /// After an entry of a list or a map.
    EntryEnd,
}

/// The output: `{:#?}` indents each line by four spaces per open field or entry, as the
/// standard library's builders do.
struct Out<'a, 'f> {
    f: &'a mut Formatter<'f>,
    pretty: bool,
    level: usize,
    line_start: bool,
}

impl Write for Out<'_, '_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        for line in text.split_inclusive('\n') {
            if self.line_start {
                for _ in 0..self.level {
                    self.f.write_str("    ")?;
                }
            }
            self.line_start = line.ends_with('\n');
            self.f.write_str(line)?;
        }
        Ok(())
    }
}

impl Out<'_, '_> {
    fn text(&mut self, text: &str) -> fmt::Result {
        self.write_str(text)
    }

    fn leaf(&mut self, leaf: &dyn Debug) -> fmt::Result {
        if !self.pretty {
            return leaf.fmt(self.f);
        }
        match self.f.precision() {
            Some(precision) => write!(self, "{leaf:#.precision$?}"),
            None => write!(self, "{leaf:#?}"),
        }
    }

    /// Opens a field or an entry: `{:#?}` output indents what is inside one level more.
    fn open(&mut self) {
        self.level = self.level.saturating_add(1);
    }

    /// Closes a field or an entry.
    fn close(&mut self) -> fmt::Result {
        if self.pretty {
            self.text(",\n")?;
            self.level = self.level.saturating_sub(1);
        }
        Ok(())
    }
}

/// Prints `root` and everything it holds.
fn print(root: Action<'_>, f: &mut Formatter<'_>) -> fmt::Result {
    let pretty = f.alternate();
    let mut out = Out { f, pretty, level: 0, line_start: false };
    let mut actions = Vec::from([root]);
    while let Some(action) = actions.pop() {
        match action {
            Action::Text(text) => out.text(text)?,
            Action::Leaf(leaf) => out.leaf(leaf)?,
            Action::Value(value) => {
                let (name, inner) = match value {
                    Variant::Array(array) => ("Array", Action::Array(array)),
                    Variant::Dictionary(dictionary) => {
                        ("Dictionary", Action::Dictionary(dictionary))
                    }
                    Variant::Object(Object::Full(full)) => {
                        ("Object", Action::FullTuple(&full.class, &full.properties))
                    }
                    // Holds no values: the derived `Debug` does not recurse.
                    other => {
                        out.leaf(other)?;
                        continue;
                    }
                };
                // `Name(inner)`, in reverse: the stack pops the last pushed first.
                out.text(name)?;
                actions.extend([
                    Action::Text(")"),
                    Action::FieldEnd,
                    inner,
                    Action::TupleField { first: true },
                ]);
            }
            Action::Array(array) => {
                out.text("Array")?;
                actions.extend([
                    Action::StructEnd,
                    Action::FieldEnd,
                    Action::Text("]"),
                    Action::Elements { rest: array.iter(), first: true },
                    Action::Text("["),
                    Action::StructField { first: false, name: "elements" },
                    Action::FieldEnd,
                    Action::Leaf(&array.element_type),
                    Action::StructField { first: true, name: "element_type" },
                ]);
            }
            Action::Dictionary(dictionary) => {
                if !dictionary.key_type.is_untyped() || !dictionary.value_type.is_untyped() {
                    write!(
                        out,
                        "Dictionary[{:?}, {:?}] ",
                        dictionary.key_type, dictionary.value_type
                    )?;
                }
                out.text("{")?;
                actions.extend([
                    Action::Text("}"),
                    Action::Entries { rest: dictionary.entries.iter(), first: true },
                ]);
            }
            Action::FullTuple(class, properties) => {
                out.text("Full")?;
                actions.extend([
                    Action::Text(")"),
                    Action::FieldEnd,
                    Action::Full(class, properties),
                    Action::TupleField { first: true },
                ]);
            }
            Action::Full(class, properties) => {
                out.text("FullObject")?;
                actions.extend([
                    Action::StructEnd,
                    Action::FieldEnd,
                    Action::Text("]"),
                    Action::Properties { rest: properties.iter(), first: true },
                    Action::Text("["),
                    Action::StructField { first: false, name: "properties" },
                    Action::FieldEnd,
                    Action::Leaf(class),
                    Action::StructField { first: true, name: "class" },
                ]);
            }
            Action::Elements { mut rest, first } => {
                if let Some(element) = rest.next() {
                    actions.extend([
                        Action::Elements { rest, first: false },
                        Action::EntryEnd,
                        Action::Value(element),
                        Action::Entry { first },
                    ]);
                }
            }
            Action::Entries { mut rest, first } => {
                if let Some((key, value)) = rest.next() {
                    actions.extend([
                        Action::Entries { rest, first: false },
                        Action::EntryEnd,
                        Action::Value(value),
                        Action::Text(": "),
                        Action::Value(key),
                        Action::Entry { first },
                    ]);
                }
            }
            Action::Properties { mut rest, first } => {
                if let Some((name, value)) = rest.next() {
                    // `(name, value)`: a tuple with an empty name.
                    actions.extend([
                        Action::Properties { rest, first: false },
                        Action::EntryEnd,
                        Action::Text(")"),
                        Action::FieldEnd,
                        Action::Value(value),
                        Action::TupleField { first: false },
                        Action::FieldEnd,
                        Action::Leaf(name),
                        Action::TupleField { first: true },
                        Action::Entry { first },
                    ]);
                }
            }
            Action::TupleField { first } => {
                if out.pretty {
                    if first {
                        out.text("(\n")?;
                    }
                    out.open();
                } else {
                    out.text(if first { "(" } else { ", " })?;
                }
            }
            Action::StructField { first, name } => {
                if out.pretty {
                    if first {
                        out.text(" {\n")?;
                    }
                    out.open();
                } else {
                    out.text(if first { " { " } else { ", " })?;
                }
                out.text(name)?;
                out.text(": ")?;
            }
            Action::FieldEnd | Action::EntryEnd => out.close()?,
            Action::StructEnd => out.text(if out.pretty { "}" } else { " }" })?,
            Action::Entry { first } => {
                if out.pretty {
                    if first {
                        out.text("\n")?;
                    }
                    out.open();
                } else if !first {
                    out.text(", ")?;
                }
            }
        }
    }
    Ok(())
}
