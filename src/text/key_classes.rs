//! Which keys of a dictionary are one key in Godot: every key gets a class number, the same for
//! keys Godot's key equality holds equal, found with O(k log k) comparisons instead
//! of comparing every pair.
//!
//! Each key is read once into a canonical form: its type (`String` and `StringName` as one type
//! in Godot 4, at every level), then what equality compares, with floats canonical (every NaN
//! one value, `-0.0` as `0.0`), math values narrowed to f32 as Godot stores them, and containers
//! as their length and then their values in wire order (dictionaries in Godot 4 only, key then
//! value). Two keys are equal exactly when their forms are; a key that holds something never
//! equal to anything (an object other than null, a Godot 3 dictionary, a container
//! [`COMPARE_DEPTH`] levels down) gets class 0, equal to nothing. The forms are sorted with a
//! stable merge sort and equal neighbours share a class.
//!
//! The forms are built in one pass over the dictionary ([`visit_keys`]): O(bytes); packed arrays
//! other than strings are compared where they lie, not copied. Comparing two forms costs at
//! most the shorter one, so sorting costs O((bytes of the keys + k) × log k).

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::key_events::{KeyVisitor, Visit, visit_keys};
use super::order::{
    COMPARE_DEPTH, PackedRealsIter, Reals16, color_components, id_of, int_components,
    real_components, type_id,
};
use super::sort::merge_sort;
use crate::view::element::Element;
use crate::wire::error::Result;
use crate::wire::options::Version;
use crate::wire::types::VariantType;
use crate::wire::work;
use crate::{ObjectRef, VariantRef};

/// One piece of a canonical form.
#[derive(Clone, Copy)]
enum Piece<'a> {
    /// A type, a count, a number or a canonical float's bits.
    Word(u64),
    /// A string's text.
    Text(&'a [u8]),
    /// A packed array of numbers, compared element by element where it lies.
    Packed(VariantRef<'a>),
}

/// The canonical forms of a dictionary's keys.
struct Forms<'a> {
    pieces: Vec<Piece<'a>>,
    /// Where each key's pieces start (they end where the next key's start), and whether the key
    /// can equal another one.
    keys: Vec<(usize, bool)>,
    version: Version,
}

impl<'a> Forms<'a> {
    /// The pieces of key `index`; `None` for a key equal to no other.
    fn form(&self, index: usize) -> Option<&[Piece<'a>]> {
        let &(start, comparable) = self.keys.get(index)?;
        let end = self.keys.get(index.saturating_add(1)).map_or(self.pieces.len(), |k| k.0);
        comparable.then(|| self.pieces.get(start..end).unwrap_or(&[]))
    }
}

impl<'a> KeyVisitor<'a> for Forms<'a> {
    fn key(&mut self) {
        self.keys.push((self.pieces.len(), true));
    }

    fn value(&mut self, value: VariantRef<'a>, depth: usize, _: bool) -> Result<Visit> {
        use VariantRef as V;
        let pieces = &mut self.pieces;
        let deep = depth >= usize::from(COMPARE_DEPTH);
        let godot4 = self.version == Version::Godot4;
        let ty = match value {
            // One type for both strings in Godot 4.
            V::StringName(_) if godot4 => id_of(VariantType::String, self.version),
            _ => type_id(&value, self.version),
        };
        pieces.push(Piece::Word(u64::from(ty)));
        if let Some(reals) = real_components(&value) {
            pieces.extend(reals.as_slice().iter().map(|c| Piece::Word(canonical(*c))));
            return Ok(Visit::Pass);
        }
        if let Some((ints, len)) = int_components(&value) {
            pieces.extend(ints.iter().take(len).map(|c| Piece::Word(u64::from(*c as u32))));
            return Ok(Visit::Pass);
        }
        match value {
            V::Nil | V::Callable | V::Object(ObjectRef::Null) => {}
            V::Bool(b) => pieces.push(Piece::Word(u64::from(b))),
            V::Int(i) => pieces.push(Piece::Word(i as u64)),
            V::Float(f) => pieces.push(Piece::Word(canonical(f))),
            V::String(s) | V::StringName(s) => pieces.push(Piece::Text(s.text_bytes())),
            V::Rid(id) => {
                pieces.push(Piece::Word(u64::from(id.is_some())));
                pieces.push(Piece::Word(id.unwrap_or(0)));
            }
            V::Signal(signal) => {
                pieces.push(Piece::Word(signal.object_id()));
                pieces.push(Piece::Text(signal.name().text_bytes()));
            }
            V::NodePath(path) => {
                pieces.push(Piece::Word(u64::from(path.is_absolute())));
                pieces.push(Piece::Word(path.name_count() as u64));
                pieces.push(Piece::Word(path.subname_count() as u64));
                for part in path.names().chain(path.subnames()) {
                    pieces.push(Piece::Text(part?.text_bytes()));
                }
            }
            V::PackedStringArray(strings) => {
                pieces.push(Piece::Word(strings.len() as u64));
                for s in strings.iter() {
                    pieces.push(Piece::Text(s?.text_bytes()));
                }
            }
            V::PackedByteArray(_)
            | V::PackedInt32Array(_)
            | V::PackedInt64Array(_)
            | V::PackedFloat32Array(_)
            | V::PackedFloat64Array(_)
            | V::PackedColorArray(_)
            | V::PackedVector2Array(_)
            | V::PackedVector3Array(_)
            | V::PackedVector4Array(_) => pieces.push(Piece::Packed(value)),
            V::Array(array) if !deep => {
                pieces.push(Piece::Word(array.len() as u64));
                return Ok(Visit::Enter);
            }
            V::Dictionary(dictionary) if godot4 && !deep => {
                pieces.push(Piece::Word(dictionary.len() as u64));
                return Ok(Visit::Enter);
            }
            // Objects, Godot 3 dictionaries, containers past the cut-off: equal to nothing.
            _ => {
                if let Some((start, comparable)) = self.keys.last_mut() {
                    *comparable = false;
                    pieces.truncate(*start);
                }
                return Ok(Visit::PassKey);
            }
        }
        Ok(Visit::Pass)
    }

    fn close(&mut self) {}
}

/// The class of each key of `dictionary`, by key index: equal numbers from 1 up for keys Godot
/// holds as one key, 0 for keys equal to no key.
pub(super) fn classes(keys: &[Element<'_>], version: Version) -> Result<Vec<u32>> {
    let mut forms = Forms { pieces: Vec::new(), keys: Vec::new(), version };
    visit_keys(keys, &mut forms)?;
    work::add(forms.pieces.len());
    let count = forms.keys.len();
    let form = |index: &usize| forms.form(*index).unwrap_or(&[]);
    let mut order: Vec<usize> = (0..count).filter(|i| forms.form(*i).is_some()).collect();
    merge_sort(&mut order, &mut |a, b| form_cmp(form(a), form(b)) == Ordering::Less);

    let mut classes: Vec<u32> = alloc::vec![0; count];
    let mut next = 0u32;
    let mut previous: Option<usize> = None;
    for index in order {
        let same = previous.is_some_and(|p| form_cmp(form(&p), form(&index)).is_eq());
        if !same {
            next = next.saturating_add(1);
        }
        if let Some(class) = classes.get_mut(index) {
            *class = next;
        }
        previous = Some(index);
    }
    Ok(classes)
}

/// The bits of a float, with every NaN one value and `-0.0` as `0.0`: equal exactly when the
/// floats are equal by `==` or both NaN.
fn canonical(value: f64) -> u64 {
    if value.is_nan() {
        f64::NAN.to_bits()
    } else if value == 0.0 {
        0
    } else {
        value.to_bits()
    }
}

/// A total order on canonical forms, `Equal` exactly for equal forms.
fn form_cmp(a: &[Piece<'_>], b: &[Piece<'_>]) -> Ordering {
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
        _ => rank(a).cmp(&rank(b)),
    }
}

fn rank(piece: &Piece<'_>) -> u8 {
    match piece {
        Piece::Word(_) => 0,
        Piece::Text(_) => 1,
        Piece::Packed(_) => 2,
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
