//! Conditions on a value inside a frame: `--where` (which frames a command looks at) and the
//! proxy's `--drop-if` (which frames it drops), parsed and compared one way for both.
//!
//! `PATH=VALUE` (the value at `PATH` equals `VALUE`), `PATH!=VALUE` (it does not, or there is
//! no value there), and for `--where` `PATH` alone (there is a value there). `PATH` is a path
//! of `gdvariant get` (`player/hp`, keys separated by `/`). `VALUE` is `null`, `true`, `false`,
//! an integer, a float, or a string (quoted or not). Equality is GDScript's `==`: numbers by
//! value (`1` equals `1.0`), strings by the text the game reads (a Godot 3 spelling with
//! overlong forms, a leading BOM, text after a NUL; a Godot 4 `String` and `StringName` alike),
//! other values by type and value; the last of repeated keys is the one looked at, as in Godot.
//!
//! A value the path cannot be followed in (a step into a value that is not a container, or a
//! malformed value) has no value there for `--where`; for a drop rule it is dropped when the
//! game might read something there (a packed array, a string, a math value, an object, a
//! malformed value: what the game reads there is unknown), and has no value there when the game
//! finds nothing either (`null`, a bool, a number, an array by a key that is not an index)
//! ([`Condition::holds_or_unreadable`]). Cost: O(bytes of the
//! value x steps of the path) per condition and frame.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use gdvariant::{Key, VariantRef};

use crate::failure::{self, Failure};

/// One condition, `--where` or a drop rule.
#[derive(Debug)]
pub struct Condition {
    /// The condition as given, for messages.
    text: String,
    /// The path as given, for messages.
    path_text: &'static str,
    path: Vec<Key<'static>>,
    test: Test,
    /// Set once the path found a value in some frame.
    found: AtomicBool,
    /// The frames a list of conditions was tried on, and those that met all of them: kept by
    /// the list's first condition ([`count`]).
    tally: Tally,
}

/// Frames tried and frames that met every condition.
#[derive(Debug, Default)]
struct Tally {
    frames: AtomicU64,
    matched: AtomicU64,
}

/// What a [`Condition`] asks of the value at its path.
#[derive(Debug, Clone)]
enum Test {
    Exists,
    Equals(Key<'static>),
    Differs(Key<'static>),
}

impl Condition {
    /// Parses `PATH=VALUE`, `PATH!=VALUE` or `PATH` (the first `=` splits them), for `--where`.
    pub fn parse(text: &str) -> Result<Self, Failure> {
        Self::parse_as(text, "--where", true)
    }

    /// Parses a drop rule given to `option`: `PATH=VALUE` or `PATH!=VALUE` (a rule without a
    /// value is refused, so that a mistyped rule cannot quietly match nothing).
    pub fn parse_rule(text: &str, option: &str) -> Result<Self, Failure> {
        Self::parse_as(text, option, false)
    }

    fn parse_as(text: &str, option: &str, exists: bool) -> Result<Self, Failure> {
        let usage = |what: &str| Failure::Usage(format!("{option} {text}: {what}"));
        // The condition lives as long as the process.
        let leaked: &'static str = String::from(text).leak();
        let (path_text, test) = match leaked.split_once('=') {
            None if exists => (leaked, Test::Exists),
            None => return Err(usage("expected PATH=VALUE or PATH!=VALUE")),
            Some((path, value)) => match path.strip_suffix('!') {
                Some(path) => (path, Test::Differs(parse_value(value))),
                None => (path, Test::Equals(parse_value(value))),
            },
        };
        let path = gdvariant::view::parse_path(path_text).map_err(|e| usage(&e.to_string()))?;
        Ok(Condition {
            text: text.to_owned(),
            path_text,
            path,
            test,
            found: AtomicBool::new(false),
            tally: Tally::default(),
        })
    }

    /// The value at the path, noting that the path found one.
    fn lookup<'a>(
        &self,
        value: VariantRef<'a>,
    ) -> Result<Option<VariantRef<'a>>, gdvariant::Error> {
        let found = value.lookup(&self.path);
        if matches!(found, Ok(Some(_))) && !self.found.load(Ordering::Relaxed) {
            self.found.store(true, Ordering::Relaxed);
        }
        found
    }

    /// Whether `found` (the value at the path, if any) meets the test.
    fn meets(&self, found: Option<VariantRef<'_>>) -> bool {
        match (&self.test, found) {
            (Test::Exists, found) => found.is_some(),
            (Test::Equals(key), Some(found)) => equal(key, found),
            (Test::Equals(_), None) => false,
            (Test::Differs(key), Some(found)) => !equal(key, found),
            (Test::Differs(_), None) => true,
        }
    }

    /// Whether `value` meets the condition (`--where`); a path that cannot be followed finds
    /// nothing.
    pub fn holds(&self, value: VariantRef<'_>) -> bool {
        self.meets(self.lookup(value).ok().flatten())
    }

    /// Whether `value` meets the condition; `Err` when the path cannot be followed in it and the
    /// game might still read something there (a step into a packed array, a string, a math
    /// value or an object the lookup does not index; a malformed value), where a drop rule
    /// cannot tell what the game reads and must drop. A step into `null`, a bool, a number, or
    /// into an array by a key that is not an index, finds nothing (the game finds nothing there
    /// either).
    pub fn holds_or_unreadable(&self, value: VariantRef<'_>) -> Result<bool, gdvariant::Error> {
        let found = match self.lookup(value) {
            Err(error) if holds_nothing(error) => None,
            found => found?,
        };
        Ok(self.meets(found))
    }
}

/// Whether a lookup failed by stepping into a value in which the game finds nothing by that key:
/// `null`, a bool, a number, or an array by a key that is not an index (the lookup takes an
/// array step only for an integer key).
fn holds_nothing(error: gdvariant::Error) -> bool {
    use gdvariant::VariantType as T;
    matches!(
        error.kind(),
        gdvariant::ErrorKind::WrongType {
            found: T::Nil | T::Bool | T::Int | T::Float | T::Array,
            ..
        }
    )
}

/// Whether every condition holds (`--where`). A condition after one that fails is still tried
/// while its path has found no value in any frame, so that [`report`] can tell a path that is
/// nowhere from one that is only never reached.
pub fn all_hold(conditions: &[Condition], value: VariantRef<'_>) -> bool {
    let mut all = true;
    for condition in conditions {
        if all {
            all = condition.holds(value);
        } else if !condition.found.load(Ordering::Relaxed) {
            let _ = condition.lookup(value);
        }
    }
    all
}

/// Counts one frame tried against `conditions`, and whether it met them all (the walk of a
/// command calls it once per good frame; [`report`] gives the totals).
pub fn count(conditions: &[Condition], matched: bool) {
    if let Some(first) = conditions.first() {
        first.tally.frames.fetch_add(1, Ordering::Relaxed);
        if matched {
            first.tally.matched.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Forgets the frames counted so far (a command that walks the frames twice, as `export`
/// infers its schema before it writes, reports its second walk).
#[cfg_attr(not(feature = "export"), allow(dead_code))]
pub fn restart_count(conditions: &[Condition]) {
    if let Some(first) = conditions.first() {
        first.tally.frames.store(0, Ordering::Relaxed);
        first.tally.matched.store(0, Ordering::Relaxed);
    }
}

/// After a command walked frames with `--where`: prints on standard error how many frames met
/// the conditions, and fails when a condition's path found a value in no frame (a misspelled
/// path matches nothing; `.` for `/` gets a hint). Nothing without conditions.
///
/// # Errors
/// The first condition whose path found nothing, when any frame was read.
pub fn report(conditions: &[Condition]) -> Result<(), Failure> {
    let Some(first) = conditions.first() else { return Ok(()) };
    let frames = first.tally.frames.load(Ordering::Relaxed);
    let matched = first.tally.matched.load(Ordering::Relaxed);
    failure::warn(format_args!("gdvariant: --where matched {matched} of {frames} frames"));
    if frames == 0 {
        return Ok(());
    }
    match conditions.iter().find(|c| !c.found.load(Ordering::Relaxed)) {
        Some(condition) => {
            let path = condition.path_text;
            let hint = if path.contains('.') && !path.contains('/') {
                format!(" (paths use `/` between keys: {})", path.replace('.', "/"))
            } else {
                String::new()
            };
            Err(Failure::Input(format!(
                "--where {}: the path {path} matched no field in any of the {frames} frames{hint}",
                condition.text
            )))
        }
        None => Ok(()),
    }
}

/// Parses every `--where`.
pub fn parse_all(texts: &[String]) -> Result<Vec<Condition>, Failure> {
    texts.iter().map(|t| Condition::parse(t)).collect()
}

/// GDScript's `==` between a condition's value and a value found: numbers by value, strings by
/// the game's text, anything else by Godot's key equality.
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use gdvariant::Options;

    #[test]
    fn numbers_compare_by_value_and_strings_by_the_games_text() {
        // Godot 3: {"n": 1.0, "s": "E0 81 B4 ype"}.
        let mut bytes = vec![18, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, b'n', 0, 0, 0];
        bytes.extend([3, 0, 0, 0, 0, 0, 0x80, 0x3F]);
        bytes.extend([4, 0, 0, 0, 1, 0, 0, 0, b's', 0, 0, 0]);
        bytes.extend([4, 0, 0, 0, 6, 0, 0, 0, 0xE0, 0x81, 0xB4, b'y', b'p', b'e', 0, 0]);
        let value = gdvariant::parse(&bytes, Options::godot3()).unwrap();
        for (text, holds) in
            [("n=1", true), ("n=1.0", true), ("n=2", false), ("s=type", true), ("s!=type", false)]
        {
            assert_eq!(Condition::parse(text).unwrap().holds(value), holds, "{text}");
            let rule = Condition::parse_rule(text, "--drop-if").unwrap();
            assert_eq!(rule.holds_or_unreadable(value), Ok(holds), "{text}");
        }
        // A step into a float finds nothing; into a string, it cannot be followed: nothing for
        // --where, unreadable for a rule.
        assert!(!Condition::parse("n/x=1").unwrap().holds(value));
        let rule = Condition::parse_rule("n/x=1", "--drop-if").unwrap();
        assert_eq!(rule.holds_or_unreadable(value), Ok(false));
        assert!(!Condition::parse("s/0=t").unwrap().holds(value));
        let rule = Condition::parse_rule("s/0=t", "--drop-if").unwrap();
        assert!(rule.holds_or_unreadable(value).is_err());
        assert!(Condition::parse_rule("n", "--drop-if").is_err());
    }

    #[test]
    fn report_names_a_path_that_found_nothing() {
        let bytes = [18, 0, 0, 0, 0, 0, 0, 0];
        let value = gdvariant::parse(&bytes, Options::godot3()).unwrap();
        let conditions = parse_all(&["meta.zone=z3".to_owned()]).unwrap();
        let matched = all_hold(&conditions, value);
        count(&conditions, matched);
        match report(&conditions) {
            Err(Failure::Input(message)) => {
                assert!(message.contains("meta.zone") && message.contains("meta/zone"), "{message}")
            }
            other => panic!("{other:?}"),
        }
        assert!(report(&parse_all(&["a=1".to_owned()]).unwrap()).is_ok(), "no frames");
    }
}
