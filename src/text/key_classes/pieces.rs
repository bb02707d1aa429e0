//! The pieces of a canonical form ([`Piece`]) and how forms hash and compare: words, text by
//! code point, packed arrays element by element where they lie (floats canonical: every NaN
//! one value, `-0.0` as `0.0`; real vectors narrowed as Godot stores them), raw bytes.
//!
//! What it validates: nothing (the pieces come from values already read). Costs: hashing and
//! comparing a form are O(its pieces' bytes), each step counted in the work budget.

use core::cmp::Ordering;
use core::hash::Hasher;

use crate::VariantRef;
use crate::text::order::{PackedRealsIter, Reals16, color_components};
use crate::view::string::GameText;
use crate::wire::work;

/// One piece of a canonical form.
#[derive(Clone, Copy)]
pub(super) enum Piece<'a> {
    /// A type, a count, a number, a child's number or a canonical float's bits.
    Word(u64),
    /// A string's text, compared as Godot compares it (by code point).
    Text(GameText<'a>),
    /// A packed array of numbers, compared element by element where it lies.
    Packed(VariantRef<'a>),
    /// Bytes compared as they are (a Godot 3 pool of reals, which Godot hashes by its bytes).
    Bytes(&'a [u8]),
}

/// Feeds a piece to a hasher: the same for pieces that compare equal.
pub(super) fn hash_piece(piece: &Piece<'_>, state: &mut impl Hasher) {
    match piece {
        Piece::Word(word) => {
            state.write_u8(0);
            state.write_u64(*word);
            work::add(1);
        }
        Piece::Text(text) => {
            state.write_u8(1);
            text.hash(state);
            work::add((text.len() / 64).saturating_add(1));
        }
        Piece::Packed(value) => {
            state.write_u8(2);
            hash_packed(value, state);
        }
        Piece::Bytes(bytes) => {
            state.write_u8(3);
            state.write_usize(bytes.len());
            state.write(bytes);
            work::add((bytes.len() / 64).saturating_add(1));
        }
    }
}

/// Feeds a packed array's elements to a hasher, canonical as [`packed_cmp`] compares them.
fn hash_packed(value: &VariantRef<'_>, state: &mut impl Hasher) {
    use VariantRef as V;
    let mut bytes = |raw: &[u8]| {
        state.write_usize(raw.len());
        state.write(raw);
        work::add((raw.len() / 64).saturating_add(1));
    };
    match value {
        V::PackedByteArray(x) => return bytes(x),
        V::PackedInt32Array(x) => return bytes(x.raw_bytes()),
        V::PackedInt64Array(x) => return bytes(x.raw_bytes()),
        _ => {}
    }
    let mut words = 0usize;
    let mut word = |w: u64| {
        state.write_u64(w);
        words = words.saturating_add(1);
    };
    match value {
        V::PackedFloat32Array(x) => x.iter().for_each(|f| word(canonical(f64::from(f)))),
        V::PackedFloat64Array(x) => x.iter().for_each(|f| word(canonical(f))),
        V::PackedColorArray(x) => {
            x.iter().for_each(|c| owned_words(color_components(c)).for_each(&mut word))
        }
        _ => {
            let mut elements = PackedRealsIter::new(value);
            let mut element = Reals16::empty();
            while elements.next_into(&mut element) {
                word(u64::MAX);
                self::words(&element).for_each(&mut word);
            }
        }
    }
    work::add(words);
}

/// The bits of a float, with every NaN one value and `-0.0` as `0.0`: equal exactly when the
/// floats are equal by `==` or both NaN.
pub(super) fn canonical(value: f64) -> u64 {
    if value.is_nan() {
        f64::NAN.to_bits()
    } else if value == 0.0 {
        0
    } else {
        value.to_bits()
    }
}

/// A total order on canonical forms, `Equal` exactly for equal forms.
pub(super) fn form_cmp(a: &[Piece<'_>], b: &[Piece<'_>]) -> Ordering {
    let mut steps = 0usize;
    let mut order = Ordering::Equal;
    for (x, y) in a.iter().zip(b) {
        steps = steps.saturating_add(1);
        order = piece_cmp(x, y);
        if order.is_ne() {
            break;
        }
    }
    work::add(steps);
    order.then(a.len().cmp(&b.len()))
}

fn piece_cmp(a: &Piece<'_>, b: &Piece<'_>) -> Ordering {
    match (a, b) {
        (Piece::Word(x), Piece::Word(y)) => x.cmp(y),
        (Piece::Text(x), Piece::Text(y)) => {
            work::add(x.len().min(y.len()) / 64);
            x.cmp(y)
        }
        (Piece::Packed(x), Piece::Packed(y)) => packed_cmp(x, y),
        (Piece::Bytes(x), Piece::Bytes(y)) => {
            work::add(x.len().min(y.len()) / 64);
            x.cmp(y)
        }
        _ => rank(a).cmp(&rank(b)),
    }
}

fn rank(piece: &Piece<'_>) -> u8 {
    match piece {
        Piece::Word(_) => 0,
        Piece::Text(_) => 1,
        Piece::Packed(_) => 2,
        Piece::Bytes(_) => 3,
    }
}

/// Two packed arrays of one type: by length, then element by element (canonical floats).
fn packed_cmp(a: &VariantRef<'_>, b: &VariantRef<'_>) -> Ordering {
    use VariantRef as V;
    let bytes = |x: &[u8], y: &[u8]| {
        work::add((x.len().min(y.len()) / 64).saturating_add(1));
        x.len().cmp(&y.len()).then_with(|| x.cmp(y))
    };
    match (a, b) {
        (V::PackedByteArray(x), V::PackedByteArray(y)) => bytes(x, y),
        (V::PackedInt32Array(x), V::PackedInt32Array(y)) => bytes(x.raw_bytes(), y.raw_bytes()),
        (V::PackedInt64Array(x), V::PackedInt64Array(y)) => bytes(x.raw_bytes(), y.raw_bytes()),
        (V::PackedFloat32Array(x), V::PackedFloat32Array(y)) => {
            x.len().cmp(&y.len()).then_with(|| {
                words_cmp(
                    x.iter().map(|f| canonical(f64::from(f))),
                    y.iter().map(|f| canonical(f64::from(f))),
                )
            })
        }
        (V::PackedFloat64Array(x), V::PackedFloat64Array(y)) => x
            .len()
            .cmp(&y.len())
            .then_with(|| words_cmp(x.iter().map(canonical), y.iter().map(canonical))),
        (V::PackedColorArray(x), V::PackedColorArray(y)) => x.len().cmp(&y.len()).then_with(|| {
            let each = |c| owned_words(color_components(c));
            words_cmp(x.iter().flat_map(each), y.iter().flat_map(each))
        }),
        _ => packed_vectors_cmp(a, b),
    }
}

/// The canonical words of real components.
fn owned_words(reals: Reals16) -> impl Iterator<Item = u64> {
    let mut words = [0u64; 16];
    for (slot, c) in words.iter_mut().zip(reals.as_slice()) {
        *slot = canonical(*c);
    }
    words.into_iter().take(reals.as_slice().len())
}

/// Two sequences of words, element by element, then by length.
fn words_cmp(a: impl Iterator<Item = u64>, b: impl Iterator<Item = u64>) -> Ordering {
    let mut steps = 0usize;
    let mut a = a;
    let mut b = b;
    let order = loop {
        steps = steps.saturating_add(1);
        match (a.next(), b.next()) {
            (Some(x), Some(y)) => {
                if x != y {
                    break x.cmp(&y);
                }
            }
            (x, y) => break x.is_some().cmp(&y.is_some()),
        }
    };
    work::add(steps);
    order
}

/// Two packed real vector arrays, element by element, components narrowed as Godot stores them.
fn packed_vectors_cmp(a: &VariantRef<'_>, b: &VariantRef<'_>) -> Ordering {
    let (mut i, mut j) = (PackedRealsIter::new(a), PackedRealsIter::new(b));
    let (mut x, mut y) = (Reals16::empty(), Reals16::empty());
    let mut steps = 0usize;
    let order = loop {
        steps = steps.saturating_add(1);
        match (i.next_into(&mut x), j.next_into(&mut y)) {
            (true, true) => {
                let order = words_cmp(words(&x), words(&y));
                if order.is_ne() {
                    break order;
                }
            }
            (p, q) => break p.cmp(&q),
        }
    };
    work::add(steps);
    order
}

/// The canonical words of real components.
fn words(reals: &Reals16) -> impl Iterator<Item = u64> + '_ {
    reals.as_slice().iter().map(|c| canonical(*c))
}
