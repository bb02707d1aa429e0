//! The sort form of dictionary keys: what Godot's `<` looks at in each key, read once into a
//! flat sequence of tokens, so that ordering two keys is one pass over two slices.
//!
//! A key becomes one token per value in depth-first order, an array below [`COMPARE_DEPTH`]
//! levels as an opening token, its elements and a closing token. Comparing two forms token by
//! token, the first pair that is not tied decides: this is `Variant::operator<` (type id first,
//! then the type's `<`, arrays element by element and then by length, with a closing token
//! before any element), evaluated once per pair as a three-way comparison instead of as `<` in
//! both directions at every level. Values of types without `<` (and arrays past the cut-off)
//! are a token without payload, tied with any value of their type; NaN ties with every float.
//! Godot 4 compares two `String` or `StringName` keys by their text alone (at the top level
//! only, as its `StringLikeVariantOrder` does).
//!
//! The forms are built in one pass over the keys ([`visit_keys`]): a token per value down to the
//! cut-off, arrays only entered (a part is read for the forms of one dictionary at most: the
//! nearest one whose key holds it through arrays alone), so over one printing O(n). Comparing two forms is O(tokens up to the first one that
//! decides), at most the shorter form plus the bytes of the compared strings.

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::key_events::{KeyVisitor, Visit, visit_keys};
use super::order::{COMPARE_DEPTH, int_components, lexicographic_less, real_components, type_id};
use crate::VariantRef;
use crate::view::string::GameText;
use crate::view::tape::Part as TapePart;
use crate::wire::error::Result;
use crate::wire::options::Version;
use crate::wire::work;

/// The sort forms of a dictionary's keys, by key index.
pub(super) struct SortForms<'a> {
    tokens: Vec<Token<'a>>,
    /// Where each key's tokens start; they end where the next key's start.
    starts: Vec<usize>,
    version: Version,
}

impl<'a> KeyVisitor<'a> for SortForms<'a> {
    fn key(&mut self) {
        self.starts.push(self.tokens.len());
    }

    fn value(&mut self, value: VariantRef<'a>, depth: usize) -> Result<Visit> {
        let ty = type_id(&value, self.version);
        Ok(match value {
            VariantRef::Array(_) if depth < usize::from(COMPARE_DEPTH) => {
                self.tokens.push(Token::Value(ty, Part::Open));
                Visit::Enter
            }
            _ => {
                self.tokens.push(Token::Value(ty, part(&value)?));
                Visit::Pass
            }
        })
    }

    fn close(&mut self) {
        self.tokens.push(Token::End);
    }
}

/// One value of a key, or the end of an array.
#[derive(Clone, Copy)]
enum Token<'a> {
    /// A value: its type id in the key's version, and what its type's `<` compares.
    Value(u8, Part<'a>),
    /// The end of an array opened by [`Part::Open`].
    End,
}

/// What `<` compares within a type.
#[derive(Clone, Copy)]
enum Part<'a> {
    /// Nothing: the type has no `<` (or the array is past the cut-off).
    Tied,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// A `String` or `StringName`, compared by code point.
    Text(GameText<'a>),
    Rid(Option<u64>),
    /// `Vector2`, `Vector3`, `Vector4`: components narrowed to f32.
    Reals([f32; 4], u8),
    /// `Vector2i`, `Vector3i`, `Vector4i`.
    Ints([i32; 4], u8),
    /// An array whose elements follow, then [`Token::End`].
    Open,
}

impl<'a> SortForms<'a> {
    /// The forms of the keys of `dictionary`, read as `version` orders them.
    pub(super) fn new(keys: &[TapePart<'_, 'a>], version: Version) -> Result<Self> {
        let mut forms = SortForms { tokens: Vec::new(), starts: Vec::new(), version };
        visit_keys(keys, &mut forms)?;
        work::add(forms.tokens.len());
        Ok(forms)
    }

    /// The tokens of key `index`.
    fn form(&self, index: usize) -> &[Token<'a>] {
        let start = self.starts.get(index).copied().unwrap_or(self.tokens.len());
        let end = self.starts.get(index.saturating_add(1)).copied().unwrap_or(self.tokens.len());
        self.tokens.get(start..end).unwrap_or(&[])
    }

    /// Godot's order of keys `a` and `b`: `Less` when `a < b`, `Greater` when `b < a`, `Equal`
    /// when neither (a tie, not necessarily equal keys).
    pub(super) fn cmp(&self, a: usize, b: usize) -> Ordering {
        let (a, b) = (self.form(a), self.form(b));
        if self.version == Version::Godot4 {
            if let (Some(Token::Value(_, Part::Text(x))), Some(Token::Value(_, Part::Text(y)))) =
                (a.first(), b.first())
            {
                // Two strings (only strings have text), whatever their types.
                work::add((x.len().min(y.len()) / 64).saturating_add(1));
                return x.cmp(y);
            }
        }
        let mut steps = 0usize;
        let mut order = Ordering::Equal;
        for (x, y) in a.iter().zip(b) {
            steps = steps.saturating_add(1);
            order = token_cmp(x, y);
            if order.is_ne() {
                break;
            }
        }
        work::add(steps);
        order
    }
}

/// What `<` compares in a value that is not opened as an array.
///
/// # Errors
/// A string Godot refuses.
fn part<'a>(value: &VariantRef<'a>) -> Result<Part<'a>> {
    use VariantRef as V;
    Ok(match value {
        V::Bool(b) => Part::Bool(*b),
        V::Int(i) => Part::Int(*i),
        V::Float(f) => Part::Float(*f),
        V::String(s) | V::StringName(s) => Part::Text(s.game_text()?),
        V::Rid(id) => Part::Rid(*id),
        V::Vector2(_) | V::Vector3(_) | V::Vector4(_) => match real_components(value) {
            Some(reals) => {
                let mut out = [0f32; 4];
                let mut len = 0u8;
                for (slot, c) in out.iter_mut().zip(reals.as_slice()) {
                    // Already narrowed to f32: exact.
                    *slot = *c as f32;
                    len = len.saturating_add(1);
                }
                Part::Reals(out, len)
            }
            None => Part::Tied,
        },
        V::Vector2i(_) | V::Vector3i(_) | V::Vector4i(_) => match int_components(value) {
            Some((ints, len)) => Part::Ints(ints, u8::try_from(len).unwrap_or(0)),
            None => Part::Tied,
        },
        _ => Part::Tied,
    })
}

/// Two tokens at the same place of two forms.
fn token_cmp(a: &Token<'_>, b: &Token<'_>) -> Ordering {
    match (a, b) {
        (Token::End, Token::End) => Ordering::Equal,
        // The array that ends first is the shorter one.
        (Token::End, Token::Value(..)) => Ordering::Less,
        (Token::Value(..), Token::End) => Ordering::Greater,
        (Token::Value(ta, x), Token::Value(tb, y)) if ta == tb => part_cmp(x, y),
        (Token::Value(ta, _), Token::Value(tb, _)) => ta.cmp(tb),
    }
}

/// Two values of one type, by that type's `<` in both directions.
fn part_cmp(a: &Part<'_>, b: &Part<'_>) -> Ordering {
    match (a, b) {
        (Part::Bool(x), Part::Bool(y)) => x.cmp(y),
        (Part::Int(x), Part::Int(y)) => x.cmp(y),
        (Part::Float(x), Part::Float(y)) => x.partial_cmp(y).unwrap_or(Ordering::Equal),
        (Part::Text(x), Part::Text(y)) => {
            work::add(x.len().min(y.len()) / 64);
            x.cmp(y)
        }
        (Part::Rid(x), Part::Rid(y)) => x.cmp(y),
        (Part::Reals(x, n), Part::Reals(y, m)) => {
            let (x, y) = (prefix(x, *n), prefix(y, *m));
            both_ways(lexicographic_less(x, y), lexicographic_less(y, x))
        }
        (Part::Ints(x, n), Part::Ints(y, m)) => {
            let (x, y) = (prefix(x, *n), prefix(y, *m));
            both_ways(lexicographic_less(x, y), lexicographic_less(y, x))
        }
        _ => Ordering::Equal,
    }
}

fn prefix<T>(values: &[T; 4], len: u8) -> &[T] {
    values.get(..usize::from(len)).unwrap_or(&[])
}

/// The three-way answer of `a < b` and `b < a` (never both: Godot's `<` is asymmetric).
fn both_ways(less: bool, greater: bool) -> Ordering {
    match (less, greater) {
        (true, _) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => Ordering::Equal,
    }
}
