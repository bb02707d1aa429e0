//! Column paths: the same textual syntax as `gdvariant::view::parse_path` (`players/3/pos`, a key in
//! double quotes taken verbatim), followed through dictionaries, arrays and full objects, and
//! on into the named components of a math value (`pos/x`, `rect/size/y`), so that a flattened
//! column's name (a CSV header) is a path that selects that column again.
//!
//! Following a path is O(bytes of the value x steps), as `VariantRef::lookup`.

use gdvariant::json::{self, FieldKind};
use gdvariant::{Key, VariantRef, math::Precision, view::PathSyntaxError};

use crate::column;

/// One step of a column's path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// A `String` or `StringName` key, a property of a full object, or a math component.
    Key(String),
    /// An array index, or an `int` dictionary key.
    Index(i64),
}

impl Step {
    /// The key the view's lookup follows.
    pub fn key(&self) -> Key<'_> {
        match self {
            Step::Key(name) => Key::String(name),
            Step::Index(index) => Key::Int(*index),
        }
    }
}

/// Parses a path in `gdvariant::view::parse_path`'s syntax.
///
/// # Errors
/// That function's: an empty segment, an unclosed quote, an integer out of range.
pub fn parse(text: &str) -> Result<Vec<Step>, PathSyntaxError> {
    Ok(gdvariant::view::parse_path(text)?
        .into_iter()
        .map(|key| match key {
            Key::Int(index) => Step::Index(index),
            Key::String(name) => Step::Key(name.to_owned()),
            // `parse_path` gives only these two.
            _ => Step::Key(String::new()),
        })
        .collect())
}

/// The text of a path: its steps joined with `/`, a key in double quotes when it would
/// otherwise read differently (empty, an integer, holding `/` or `,`, starting with `"`).
/// [`parse`] reads it back, except for a key holding `"/` (which the syntax cannot quote).
pub fn text(steps: &[Step]) -> String {
    let mut out = String::new();
    for (i, step) in steps.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        match step {
            Step::Key(name) => out.push_str(&segment(name)),
            Step::Index(index) => out.push_str(&index.to_string()),
        }
    }
    out
}

/// A key as one segment of a path's text (see [`text`]).
pub fn segment(key: &str) -> String {
    let digits = key.strip_prefix('-').unwrap_or(key);
    let integer = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    if key.is_empty() || integer || key.contains(['/', ',']) || key.starts_with('"') {
        format!("\"{key}\"")
    } else {
        key.to_owned()
    }
}

/// What a path finds in a row.
#[derive(Clone, Copy, Debug)]
pub enum Found<'a> {
    /// A value.
    Value(VariantRef<'a>),
    /// A single-precision real component of a math value.
    Real32(f32),
    /// A double-precision real component.
    Real(f64),
    /// An integer component (`Vector2i`, `Rect2i`, ...).
    Int(i32),
}

/// Follows `keys` from `value`: through containers as `VariantRef::lookup` does, then, when a
/// math value is reached with keys left, through its named components. `None` when nothing is
/// there (a missing key, a step into a scalar, a malformed value on the way).
pub fn resolve<'a>(value: VariantRef<'a>, keys: &[Key<'_>]) -> Option<Found<'a>> {
    let mut current = value;
    for (i, key) in keys.iter().enumerate() {
        if let Some(spec) = json::math_fields(current.variant_type()) {
            return component(current, spec, keys.get(i..).unwrap_or(&[]));
        }
        current = current.lookup(core::slice::from_ref(key)).ok().flatten()?;
    }
    Some(Found::Value(current))
}

/// The component of a math value that `keys` name (all of them), if any.
fn component<'a>(
    value: VariantRef<'a>,
    mut spec: &'static [json::Field],
    keys: &[Key<'_>],
) -> Option<Found<'a>> {
    let (last, groups) = keys.split_last()?;
    for key in groups {
        let Key::String(name) = key else { return None };
        match spec.iter().find(|field| field.name == *name)?.kind {
            FieldKind::Group(inner) => spec = inner,
            FieldKind::Component(_) => return None,
        }
    }
    let Key::String(name) = last else { return None };
    let FieldKind::Component(index) = spec.iter().find(|field| field.name == *name)?.kind else {
        return None;
    };
    match column::components(value)? {
        column::Components::Ints(ints) => ints.get(index).copied().map(Found::Int),
        column::Components::Reals(reals) => {
            let real = reals.get(index).copied()?;
            match crate::Shape::of(value, 0) {
                crate::Shape::Math(_, Precision::Double) => Some(Found::Real(real)),
                #[allow(clippy::cast_possible_truncation)] // single precision: exact
                _ => Some(Found::Real32(real as f32)),
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn texts_read_back() {
        for steps in [
            vec![Step::Key("pos".into()), Step::Key("x".into())],
            vec![Step::Key("a/b".into()), Step::Index(3), Step::Key("3".into())],
            vec![Step::Key("a,b".into()), Step::Key(String::new()), Step::Key("\"q".into())],
            vec![Step::Key("-".into()), Step::Index(-1), Step::Key("-1".into())],
        ] {
            assert_eq!(parse(&text(&steps)).unwrap(), steps, "{}", text(&steps));
        }
        assert_eq!(text(&[Step::Key("a,b".into()), Step::Index(0)]), "\"a,b\"/0");
    }
}
