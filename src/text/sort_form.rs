//! The sort form of dictionary keys: what Godot's `<` looks at in each key, read once into a
//! flat sequence of tokens, so that ordering two keys is one forward pass over two slices.
//!
//! A key becomes one token per value in depth-first order; an array is an opening token (with
//! its length and where its elements end), its elements, and a closing token. Values of types
//! without `<` are a token without payload, tied with any value of their type.
//!
//! * Godot 4 ([`SortForms::less`]): `StringLikeVariantOrder` at the top (two `String` or
//!   `StringName` keys compare by text), else `Variant::operator<`: type id first, then the
//!   type's `<`, arrays element by element and then by length. Comparing two forms token by
//!   token, the first pair that is not tied decides (a closing token comes before any element):
//!   the same answer as Godot's `<`, evaluated once per pair as a three-way comparison instead
//!   of as `<` in both directions at every level. NaN ties with every float.
//! * Godot 3 ([`godot3_less`]): `Variant::operator<` with Godot 3's own `<` for containers, which
//!   is not lexicographic: an array is less than another when it is not longer and some element
//!   is *not* less than the other's element at its place (so `[2] < [1]`, `[1] < [1]`, and
//!   `[1] < [2]` is false); a pool array is less than another when they differ
//!   ([`pool_order`](super::pool_order)).
//!
//! Godot 4 compares two `StringName`s inside arrays by the address of their interned text,
//! which the bytes cannot tell; they are compared by text here.
//!
//! The forms are built in one pass over the keys ([`visit_keys`]): a token per value, arrays
//! entered (a part is read for the forms of one dictionary at most: the nearest one whose key
//! holds it through arrays alone), so over one printing O(n). Comparing two forms is O(the
//! tokens of the first form up to the place that decides, plus the bytes of the compared
//! strings and pool arrays); every comparison reports its cost, which the sort is budgeted in.

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::key_events::{KeyVisitor, Visit, visit_keys};
use super::order::{int_components, lexicographic_less, real_components, type_id};
use super::pool_order;
use crate::VariantRef;
use crate::view::tape::Part as TapePart;
use crate::wire::error::Result;
use crate::wire::options::Version;
use crate::wire::work;

/// The sort forms of a dictionary's keys, by key index.
pub(super) struct SortForms<'a> {
    tokens: Vec<Token<'a>>,
    /// Where each key's tokens start; they end where the next key's start.
    starts: Vec<usize>,
    /// Arrays opened and not closed yet, while the forms are built.
    open: Vec<usize>,
    /// The work units of the forms: a token, or 64 bytes of text or pool array, each one.
    size: usize,
    version: Version,
    /// Arrays whose elements are being compared (Godot 3), kept between comparisons.
    stack: Vec<Pending>,
    /// Texts spelled with overlong forms, in the shortest form of each code point (Godot 3).
    normalized: Vec<u8>,
}

/// A string's text as Godot's `<` compares it: its bytes when they are the shortest form of
/// each code point (so that bytes compare as code points do), else those shortest forms, made
/// once when the key is read (so that no comparison decodes).
#[derive(Clone, Copy)]
enum Text<'a> {
    /// The bytes on the wire.
    Wire(&'a [u8]),
    /// A range of [`SortForms::normalized`].
    Normalized { start: usize, len: usize },
}

impl<'a> Text<'a> {
    /// The text of `game`, adding its shortest form to `normalized` when the wire's is not.
    fn of(game: crate::view::string::GameText<'a>, normalized: &mut Vec<u8>) -> Self {
        match game.shortest_bytes() {
            alloc::borrow::Cow::Borrowed(bytes) => Text::Wire(bytes),
            alloc::borrow::Cow::Owned(bytes) => {
                let start = normalized.len();
                normalized.extend_from_slice(&bytes);
                Text::Normalized { start, len: bytes.len() }
            }
        }
    }

    /// Its bytes.
    fn bytes<'s>(&self, normalized: &'s [u8]) -> &'s [u8]
    where
        'a: 's,
    {
        match *self {
            Text::Wire(bytes) => bytes,
            Text::Normalized { start, len } => {
                normalized.get(start..start.saturating_add(len)).unwrap_or(&[])
            }
        }
    }

    /// Its length in bytes.
    fn len(&self) -> usize {
        match *self {
            Text::Wire(bytes) => bytes.len(),
            Text::Normalized { len, .. } => len,
        }
    }
}

impl<'a> KeyVisitor<'a> for SortForms<'a> {
    fn key(&mut self) {
        self.starts.push(self.tokens.len());
    }

    fn value(&mut self, value: VariantRef<'a>, _depth: usize) -> Result<Visit> {
        let ty = type_id(&value, self.version);
        self.size = self.size.saturating_add(1);
        Ok(match value {
            VariantRef::Array(array) => {
                self.open.push(self.tokens.len());
                let len = u32::try_from(array.len()).unwrap_or(u32::MAX);
                self.tokens.push(Token::Value(ty, Part::Open { len, end: 0 }));
                Visit::Enter
            }
            _ => {
                let part = part(&value, self.version, &mut self.normalized)?;
                self.size = self.size.saturating_add(part_size(&part));
                self.tokens.push(Token::Value(ty, part));
                Visit::Pass
            }
        })
    }

    fn close(&mut self) {
        self.tokens.push(Token::End);
        let end = self.tokens.len();
        if let Some(Some(Token::Value(_, Part::Open { end: slot, .. }))) =
            self.open.pop().map(|at| self.tokens.get_mut(at))
        {
            *slot = end;
        }
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
    /// Nothing: the type has no `<`.
    Tied,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// A `String` or `StringName`, compared by code point.
    Text(Text<'a>),
    Rid(Option<u64>),
    /// `Vector2`, `Vector3`, `Vector4`: components narrowed to f32.
    Reals([f32; 4], u8),
    /// `Vector2i`, `Vector3i`, `Vector4i`.
    Ints([i32; 4], u8),
    /// A Godot 3 pool array.
    Pool(VariantRef<'a>),
    /// A Godot 3 object, which `<` orders by address: whether it is null (a null one comes
    /// first; two others are tied here, as the bytes cannot tell their addresses).
    Object(bool),
    /// An array of `len` elements, whose tokens follow up to its [`Token::End`]; `end` is the
    /// index after that token.
    Open {
        len: u32,
        end: usize,
    },
}

/// An array whose elements are being compared with another's (Godot 3's `<`).
#[derive(Clone, Copy)]
struct Pending {
    /// The current element of each array.
    a: usize,
    b: usize,
    /// Elements of the first array not compared yet, the current one included.
    left: u32,
}

impl<'a> SortForms<'a> {
    /// The forms of the keys of `dictionary`, read as `version` orders them.
    pub(super) fn new(keys: &[TapePart<'_, 'a>], version: Version) -> Result<Self> {
        // Most keys are one token each (strings, numbers): room for those up front.
        let mut forms = SortForms {
            tokens: Vec::with_capacity(keys.len()),
            starts: Vec::with_capacity(keys.len()),
            open: Vec::new(),
            size: 0,
            version,
            stack: Vec::new(),
            normalized: Vec::new(),
        };
        visit_keys(keys, &mut forms)?;
        work::add(forms.tokens.len());
        Ok(forms)
    }

    /// The work units of all the forms (at least one per token).
    pub(super) fn size(&self) -> usize {
        self.size
    }

    /// Where the tokens of key `index` start.
    fn start(&self, index: usize) -> usize {
        self.starts.get(index).copied().unwrap_or(self.tokens.len())
    }

    /// The tokens of key `index`.
    fn form(&self, index: usize) -> &[Token<'a>] {
        let end = self.start(index.saturating_add(1));
        self.tokens.get(self.start(index)..end).unwrap_or(&[])
    }

    /// Whether key `a` is less than key `b` in Godot's key order, and the work units it took.
    pub(super) fn less(&mut self, a: usize, b: usize) -> (bool, usize) {
        match self.version {
            Version::Godot4 => {
                let (order, cost) = self.godot4_cmp(a, b);
                (order == Ordering::Less, cost)
            }
            Version::Godot3 => {
                let (a, b) = (self.start(a), self.start(b));
                godot3_less(&self.tokens, a, b, &mut self.stack, &self.normalized)
            }
        }
    }

    /// Godot 4's order of keys `a` and `b`: `Less` when `a < b`, `Greater` when `b < a`, `Equal`
    /// when neither (a tie, not necessarily equal keys).
    fn godot4_cmp(&self, a: usize, b: usize) -> (Ordering, usize) {
        let (a, b) = (self.form(a), self.form(b));
        if let (Some(Token::Value(_, Part::Text(x))), Some(Token::Value(_, Part::Text(y)))) =
            (a.first(), b.first())
        {
            // Two strings (only strings have text), whatever their types.
            let (x, y) = (x.bytes(&self.normalized), y.bytes(&self.normalized));
            return (x.cmp(y), text_cost(x, y));
        }
        let mut cost = 0usize;
        for (x, y) in a.iter().zip(b) {
            let (order, steps) = token_cmp(x, y, &self.normalized);
            cost = cost.saturating_add(steps);
            if order.is_ne() {
                return (order, cost);
            }
        }
        (Ordering::Equal, cost)
    }
}

/// The work units of comparing two texts.
fn text_cost(x: &[u8], y: &[u8]) -> usize {
    (x.len().min(y.len()) / 64).saturating_add(1)
}

/// Work units of a part beyond its token: its text or pool bytes.
fn part_size(part: &Part<'_>) -> usize {
    match part {
        Part::Text(text) => text.len() / 64,
        Part::Pool(pool) => pool_order::size(pool),
        _ => 0,
    }
}

/// What `<` compares in a value that is not an array.
///
/// # Errors
/// A string Godot refuses.
fn part<'a>(
    value: &VariantRef<'a>,
    version: Version,
    normalized: &mut Vec<u8>,
) -> Result<Part<'a>> {
    use VariantRef as V;
    Ok(match value {
        V::Bool(b) => Part::Bool(*b),
        V::Int(i) => Part::Int(*i),
        V::Float(f) => Part::Float(*f),
        V::String(s) | V::StringName(s) => Part::Text(Text::of(s.game_text()?, normalized)),
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
        V::Object(object) if version == Version::Godot3 => {
            Part::Object(matches!(object, crate::view::ObjectRef::Null))
        }
        _ if version == Version::Godot3 && pool_order::is_pool(value) => Part::Pool(*value),
        _ => Part::Tied,
    })
}

/// Two tokens at the same place of two forms (Godot 4), and the work units it took.
fn token_cmp(a: &Token<'_>, b: &Token<'_>, normalized: &[u8]) -> (Ordering, usize) {
    match (a, b) {
        (Token::End, Token::End) => (Ordering::Equal, 1),
        // The array that ends first is the shorter one.
        (Token::End, Token::Value(..)) => (Ordering::Less, 1),
        (Token::Value(..), Token::End) => (Ordering::Greater, 1),
        (Token::Value(ta, x), Token::Value(tb, y)) if ta == tb => part_cmp(x, y, normalized),
        (Token::Value(ta, _), Token::Value(tb, _)) => (ta.cmp(tb), 1),
    }
}

/// Two values of one type, by that type's `<` in both directions (Godot 4).
fn part_cmp(a: &Part<'_>, b: &Part<'_>, normalized: &[u8]) -> (Ordering, usize) {
    let order = match (a, b) {
        (Part::Text(x), Part::Text(y)) => {
            let (x, y) = (x.bytes(normalized), y.bytes(normalized));
            return (x.cmp(y), text_cost(x, y));
        }
        (Part::Bool(x), Part::Bool(y)) => x.cmp(y),
        (Part::Int(x), Part::Int(y)) => x.cmp(y),
        (Part::Float(x), Part::Float(y)) => x.partial_cmp(y).unwrap_or(Ordering::Equal),
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
    };
    (order, 1)
}

/// Godot 3's `a < b` for the forms starting at tokens `a` and `b`, and the work units it took.
/// Iterative: `stack` holds the arrays whose elements are being compared.
fn godot3_less(
    tokens: &[Token<'_>],
    mut a: usize,
    mut b: usize,
    stack: &mut Vec<Pending>,
    normalized: &[u8],
) -> (bool, usize) {
    stack.clear();
    let mut cost = 0usize;
    loop {
        cost = cost.saturating_add(1);
        let (x, y) = (tokens.get(a), tokens.get(b));
        let mut less = match (x, y) {
            (Some(Token::Value(ta, x)), Some(Token::Value(tb, y))) if ta == tb => match (x, y) {
                (Part::Open { len: la, .. }, Part::Open { len: lb, .. }) => {
                    if lb < la || *la == 0 {
                        false
                    } else {
                        // `a < b` when some element of `a` is not less than `b`'s.
                        stack.push(Pending {
                            a: a.saturating_add(1),
                            b: b.saturating_add(1),
                            left: *la,
                        });
                        a = a.saturating_add(1);
                        b = b.saturating_add(1);
                        continue;
                    }
                }
                (Part::Pool(x), Part::Pool(y)) => {
                    let (differ, steps) = pool_order::differ(x, y);
                    cost = cost.saturating_add(steps);
                    differ
                }
                (Part::Text(x), Part::Text(y)) => {
                    let (x, y) = (x.bytes(normalized), y.bytes(normalized));
                    cost = cost.saturating_add(text_cost(x, y));
                    x < y
                }
                (Part::Bool(x), Part::Bool(y)) => !x & y,
                (Part::Int(x), Part::Int(y)) => x < y,
                (Part::Float(x), Part::Float(y)) => x < y,
                (Part::Reals(x, n), Part::Reals(y, m)) => {
                    godot3_vector_less(prefix(x, *n), prefix(y, *m))
                }
                (Part::Rid(x), Part::Rid(y)) => x < y,
                (Part::Object(x), Part::Object(y)) => *x && !y,
                _ => false,
            },
            (Some(Token::Value(ta, _)), Some(Token::Value(tb, _))) => ta < tb,
            _ => false,
        };
        // Hand the answer up to the arrays being compared.
        loop {
            let Some(pending) = stack.last_mut() else { return (less, cost) };
            if !less {
                // An element that is not less: the array is less.
                stack.pop();
                less = true;
                continue;
            }
            pending.left = pending.left.saturating_sub(1);
            if pending.left == 0 {
                // Every element less: the array is not.
                stack.pop();
                less = false;
                continue;
            }
            pending.a = after(tokens, pending.a);
            pending.b = after(tokens, pending.b);
            a = pending.a;
            b = pending.b;
            break;
        }
    }
}

/// Godot 3's `<` on two `Vector2`s or two `Vector3`s: a component decides when it is not
/// approximately equal to the other's (`Math::is_equal_approx`), and the last one decides
/// otherwise, so nearly equal components fall through to the next.
fn godot3_vector_less(a: &[f32], b: &[f32]) -> bool {
    let Some(((last_a, head_a), (last_b, head_b))) = a.split_last().zip(b.split_last()) else {
        return false;
    };
    for (x, y) in head_a.iter().zip(head_b) {
        if !godot3_equal_approx(*x, *y) {
            return x < y;
        }
    }
    last_a < last_b
}

/// Godot 3.2's `Math::is_equal_approx(a, b)` on `real_t` (`f32`): equal, or closer than a
/// tolerance of `1e-5` times `|a|` (the left one), and at least `1e-5`. The tolerance is made in
/// double precision and stored as `f32`; the difference is taken in `f32`.
fn godot3_equal_approx(a: f32, b: f32) -> bool {
    const CMP_EPSILON: f64 = 0.00001;
    if a == b {
        return true;
    }
    let mut tolerance = (CMP_EPSILON * f64::from(a.abs())) as f32;
    if f64::from(tolerance) < CMP_EPSILON {
        tolerance = CMP_EPSILON as f32;
    }
    (a - b).abs() < tolerance
}

/// The index of the token after the value at `at` (past an array's elements and end).
fn after(tokens: &[Token<'_>], at: usize) -> usize {
    match tokens.get(at) {
        Some(Token::Value(_, Part::Open { end, .. })) => *end,
        _ => at.saturating_add(1),
    }
}

fn prefix<T>(values: &[T; 4], len: u8) -> &[T] {
    values.get(..usize::from(len)).unwrap_or(&[])
}

/// The three-way answer of `a < b` and `b < a` (never both: Godot 4's `<` is asymmetric).
fn both_ways(less: bool, greater: bool) -> Ordering {
    match (less, greater) {
        (true, _) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => Ordering::Equal,
    }
}
