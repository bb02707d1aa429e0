//! `--where`: which frames a command looks at, by a value inside them.
//!
//! `PATH=VALUE` (the value at `PATH` equals `VALUE`), `PATH!=VALUE` (it does not, or there is
//! no value there), `PATH` (there is a value there). `VALUE` is written as for the proxy's
//! `--drop-if`: `null`, `true`, `false`, an integer, a float, or a string (quoted or not);
//! numbers compare by value, as GDScript's `==` does (`1` equals `1.0`), strings by the game's
//! text. Several `--where` must all hold. Cost: O(bytes of the value x steps of the path) per
//! condition and frame.

use gdvariant::{Key, VariantRef};

use crate::failure::Failure;

/// One `--where` condition.
#[derive(Debug, Clone)]
pub struct Condition {
    path: Vec<Key<'static>>,
    test: Test,
}

/// What a [`Condition`] asks of the value at its path.
#[derive(Debug, Clone)]
enum Test {
    Exists,
    Equals(Key<'static>),
    Differs(Key<'static>),
}

impl Condition {
    /// Parses `PATH=VALUE`, `PATH!=VALUE` or `PATH` (the first `=` splits them).
    pub fn parse(text: &str) -> Result<Self, Failure> {
        let usage = |what: &str| Failure::Usage(format!("--where {text}: {what}"));
        // The condition lives as long as the process.
        let text: &'static str = String::from(text).leak();
        let (path, test) = match text.split_once('=') {
            None => (text, Test::Exists),
            Some((path, value)) => match path.strip_suffix('!') {
                Some(path) => (path, Test::Differs(parse_value(value))),
                None => (path, Test::Equals(parse_value(value))),
            },
        };
        let path = gdvariant::parse_path(path).map_err(|e| usage(&e.to_string()))?;
        Ok(Condition { path, test })
    }

    /// Whether `value` meets the condition; a path that cannot be followed finds nothing.
    pub fn holds(&self, value: VariantRef<'_>) -> bool {
        let found = value.lookup(&self.path).ok().flatten();
        match (&self.test, found) {
            (Test::Exists, found) => found.is_some(),
            (Test::Equals(key), Some(found)) => equal(key, found),
            (Test::Equals(_), None) => false,
            (Test::Differs(key), Some(found)) => !equal(key, found),
            (Test::Differs(_), None) => true,
        }
    }
}

/// Whether every condition holds.
pub fn all_hold(conditions: &[Condition], value: VariantRef<'_>) -> bool {
    conditions.iter().all(|c| c.holds(value))
}

/// Parses every `--where`.
pub fn parse_all(texts: &[String]) -> Result<Vec<Condition>, Failure> {
    texts.iter().map(|t| Condition::parse(t)).collect()
}

/// Godot's key equality, numbers compared by value.
fn equal(key: &Key<'_>, found: VariantRef<'_>) -> bool {
    #[allow(clippy::cast_precision_loss)] // as GDScript compares an int with a float
    match (key, found) {
        (Key::Int(i), VariantRef::Float(f)) => *i as f64 == f,
        (Key::Float(f), VariantRef::Int(i)) => i as f64 == *f,
        _ => key.matches(&found),
    }
}

/// `null`, `true`, `false`, an integer, a float, a quoted string, or any other text as a string.
fn parse_value(text: &'static str) -> Key<'static> {
    match text {
        "null" => return Key::Nil,
        "true" => return Key::Bool(true),
        "false" => return Key::Bool(false),
        _ => {}
    }
    if let Ok(int) = text.parse::<i64>() {
        return Key::Int(int);
    }
    let numeric =
        text.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == '.');
    if let (true, Ok(float)) = (numeric, text.parse::<f64>()) {
        return Key::Float(float);
    }
    match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        Some(quoted) => Key::String(quoted),
        None => Key::String(text),
    }
}
