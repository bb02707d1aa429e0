//! Which keys of a dictionary are one key in Godot: every value inside a key gets a number,
//! equal for values Godot's key equality holds equal, so that repeated keys are found by
//! comparing numbers.
//!
//! The numbers are given bottom-up over the value's [`Tape`](crate::view::Tape), each part once
//! (hash-consing): a value is read into a canonical form (its type; floats canonical, every NaN
//! one value and `-0.0` as `0.0`; math values narrowed to f32 as Godot stores them; strings by
//! their text; packed arrays by their elements, where they lie), a container's form holding its
//! length and its children's numbers, and looked up among the forms seen before by a randomly
//! seeded hash. A value that equals nothing else (an object other than null, a Godot 3
//! dictionary) gets a number of its own, and so does every container holding one.
//!
//! Godot 4 compares a value by where it sits (the rules of `wire/identity.rs`, which
//! `owned/key_semantics.rs` follows too; `tests/identity.rs` and the `identity` fuzz target
//! hold the two implementations to one relation): a `StringName`'s number
//! is its `String`'s with a bit set ([`STRING_NAME`]), which a key drops ([`key_number`]), so
//! that the two are one key and differ as array elements and dictionary values; an array
//! holding a float NaN, or a dictionary holding one as a value, gets a number of its own (Godot
//! compares those with `==`). A dictionary's form is its entries in order, keys by their key
//! numbers, with a repeated key merged as Godot's map merges it (first place, last value), so
//! that keys equal only once an inner repeated key is merged are one key.
//!
//! Godot 3 has keys it does not find at all, not even as themselves, which it never merges and
//! prints with the value `null` (its lookup fails): a pool of reals holding a NaN (Godot 3.2
//! tests each pair of elements with a macro whose negation, `!(a == b) || (isnan(a) &&
//! isnan(b))`, takes two NaNs as different), an array
//! holding a lost value, and a value holding a dictionary with a lost key: printing that
//! dictionary looks the key up, which adds an entry, which changes the hash of what holds it.
//! A pool of reals is hashed by its bytes (`-0.0` is not `0.0` there).
//!
//! Costs: numbering a part is O(its own bytes + its children), and a part already numbered (met
//! first inside an outer key, then as the key of its own dictionary) costs O(1). Over one
//! printing, everything inside all dictionaries' keys is numbered in O(n) expected time and
//! O(n) memory, however the keys nest. The walk keeps its pending parts on the heap.

use alloc::vec::Vec;
use core::cmp::Ordering;
use core::hash::{BuildHasher, Hasher};

use hashbrown::{DefaultHashBuilder, HashTable};

use super::order::{
    PackedRealsIter, Reals16, color_components, id_of, int_components, real_components, type_id,
};
use crate::view::string::GameText;
use crate::view::tape::Part;
use crate::wire::error::Result;
use crate::wire::identity::{Identity, Place};
use crate::wire::options::Version;
use crate::wire::types::VariantType;
use crate::wire::work;
use crate::{VariantRef, view::ObjectRef};

/// A part that has no number yet.
const UNKNOWN: u32 = u32::MAX;

/// The bit of a number given to a value Godot does not find when it looks it up as a key: equal
/// to nothing, not even itself (Godot 3).
const LOST: u32 = 1 << 31;

/// The bit of a number given to a value whose printing changes it (Godot 3 adds an entry to a
/// dictionary when it does not find one of its keys), so that it is lost as a key too.
const MUTATES: u32 = 1 << 30;

/// The bit of a number given to a Godot 4 `StringName`, over the number of the `String` with
/// its text: the two differ as array elements and dictionary values, and are one as keys
/// ([`key_number`]). (Numbers are counted up from 0, one per part at most: below this bit for
/// any input under 2 GiB.)
const STRING_NAME: u32 = 1 << 29;

/// The number of a value as a dictionary key, from its number as an element or a value: Godot
/// 4's `StringLikeVariantComparator` makes a `String` and a `StringName` with the same text one
/// key ([`Identity::strings_alike`]).
fn key_number(number: u32) -> u32 {
    number & !STRING_NAME
}

/// Whether `identity` tells a `StringName` from its `String` in one place and not in the other,
/// so that a `StringName` is numbered as its `String` with [`STRING_NAME`] set.
fn string_name_bit(identity: Identity) -> bool {
    identity.strings_alike(Place::Key) && !identity.strings_alike(Place::Value)
}

/// One piece of a canonical form.
#[derive(Clone, Copy)]
enum Piece<'a> {
    /// A type, a count, a number, a child's number or a canonical float's bits.
    Word(u64),
    /// A string's text, compared as Godot compares it (by code point).
    Text(GameText<'a>),
    /// A packed array of numbers, compared element by element where it lies.
    Packed(VariantRef<'a>),
    /// Bytes compared as they are (a Godot 3 pool of reals, which Godot hashes by its bytes).
    Bytes(&'a [u8]),
}

/// A distinct form: where its pieces are kept, its hash and its number.
#[derive(Clone, Copy)]
struct Interned {
    hash: u64,
    start: usize,
    len: usize,
    number: u32,
}

/// The numbers given so far during one printing.
pub(super) struct KeyClasses<'a> {
    version: Version,
    /// By part index; [`UNKNOWN`] until numbered. Sized on first use.
    numbers: Vec<u32>,
    /// Parts on the tape.
    parts: usize,
    /// The next fresh number.
    fresh: u32,
    hasher: DefaultHashBuilder,
    /// The distinct forms, by hash.
    table: HashTable<Interned>,
    /// The pieces of the distinct forms.
    arena: Vec<Piece<'a>>,
    /// The form being read.
    scratch: Vec<Piece<'a>>,
    /// Parts waiting to be numbered (tape index, children pending), kept between calls.
    pending: Vec<(u32, bool)>,
    /// The entries of a Godot 4 dictionary being formed, repeated keys merged: key number, value
    /// number, and whether the value is a float NaN; and where each key number is among them.
    merged: Vec<(u32, u32, bool)>,
    merged_at: hashbrown::HashMap<u32, usize, DefaultHashBuilder>,
}

impl<'a> KeyClasses<'a> {
    /// Numbers for a tape of `parts` parts read as `version` compares keys. Allocates nothing
    /// until used.
    pub(super) fn new(parts: usize, version: Version) -> Self {
        KeyClasses {
            version,
            numbers: Vec::new(),
            parts,
            fresh: 0,
            hasher: DefaultHashBuilder::default(),
            table: HashTable::new(),
            arena: Vec::new(),
            scratch: Vec::new(),
            pending: Vec::new(),
            merged: Vec::new(),
            merged_at: hashbrown::HashMap::default(),
        }
    }

    /// The class of each of `keys` (a dictionary's keys, in wire order): equal numbers from 1 up
    /// for keys Godot holds as one key, at most `keys.len()`, and 0 for a key equal to nothing,
    /// not even itself (Godot 3 compares pools of reals holding a NaN so). O(what is newly
    /// numbered + k log k).
    ///
    /// # Errors
    /// A malformed part of a key (strings of a `NodePath` or `PackedStringArray`).
    pub(super) fn classes(&mut self, keys: &[Part<'_, 'a>]) -> Result<Vec<u32>> {
        let mut numbered: Vec<(u32, usize)> = Vec::with_capacity(keys.len());
        for (index, key) in keys.iter().enumerate() {
            numbered.push((key_number(self.number(*key)?), index));
        }
        numbered.sort_unstable();
        work::add(sort_cost(numbered.len()));
        let mut classes: Vec<u32> = alloc::vec![0; keys.len()];
        let mut class = 0u32;
        let mut previous = None;
        for (number, index) in numbered {
            if number & LOST != 0 {
                continue;
            }
            if previous != Some(number) {
                class = class.saturating_add(1);
                previous = Some(number);
            }
            if let Some(slot) = classes.get_mut(index) {
                *slot = class;
            }
        }
        Ok(classes)
    }

    /// The number of `root`, numbering what inside it has none yet.
    fn number(&mut self, root: Part<'_, 'a>) -> Result<u32> {
        if self.numbers.len() != self.parts {
            self.numbers = alloc::vec![UNKNOWN; self.parts];
        }
        if let Some(number) = self.known(root) {
            return Ok(number);
        }
        // Parts to number (by index on the tape), each pushed again (`true`) once its children
        // are pending. The stack is kept between calls.
        let mut pending = core::mem::take(&mut self.pending);
        pending.clear();
        pending.push((root.index(), false));
        while let Some((index, opened)) = pending.pop() {
            let part = root.at(index);
            if self.known(part).is_some() {
                continue;
            }
            let value = part.value();
            let opens = matches!(value, VariantRef::Array(_) | VariantRef::Dictionary(_));
            if opens && !opened {
                pending.push((index, true));
                let children = part.children().filter(|c| self.known(*c).is_none());
                pending.extend(children.map(|c| (c.index(), false)));
                continue;
            }
            let formed = self.form(part, value, opens);
            let string_name = string_name_bit(Identity::of(self.version))
                && matches!(value, VariantRef::StringName(_));
            let number = match formed {
                Ok(Formed::Canonical) if string_name => self.intern() | STRING_NAME,
                Ok(Formed::Canonical) => self.intern(),
                Ok(Formed::Unique) => self.next_fresh(),
                Ok(Formed::Lost { mutates }) => {
                    self.next_fresh() | LOST | if mutates { MUTATES } else { 0 }
                }
                Err(error) => {
                    self.pending = pending;
                    return Err(error);
                }
            };
            if let Some(slot) = self.numbers.get_mut(index as usize) {
                *slot = number;
            }
        }
        self.pending = pending;
        Ok(self.known(root).unwrap_or(UNKNOWN))
    }

    fn known(&self, part: Part<'_, '_>) -> Option<u32> {
        self.numbers.get(part.index() as usize).copied().filter(|&n| n != UNKNOWN)
    }

    fn next_fresh(&mut self) -> u32 {
        let number = self.fresh;
        self.fresh = self.fresh.saturating_add(1);
        number
    }

    /// Reads the canonical form of `part` into the scratch buffer, or says the value is equal to
    /// nothing else or not even to itself. A container's children are numbered already.
    fn form(&mut self, part: Part<'_, 'a>, value: VariantRef<'a>, opens: bool) -> Result<Formed> {
        use VariantRef as V;
        self.scratch.clear();
        let identity = Identity::of(self.version);
        let pieces = &mut self.scratch;
        let ty = match value {
            // One type for both strings in Godot 4.
            V::StringName(_) if string_name_bit(identity) => {
                id_of(VariantType::String, self.version)
            }
            _ => type_id(&value, self.version),
        };
        pieces.push(Piece::Word(u64::from(ty)));
        if opens && matches!(value, V::Dictionary(_)) {
            // Godot builds a dictionary through its map: a repeated key keeps its first place
            // and takes the last value (a lost key is never found, so never repeats). Godot 4:
            // keys as keys, values as values, in that order (its hash folds the entries in
            // order).
            self.merged.clear();
            self.merged_at.clear();
            let mut children = part.children();
            while let (Some(key), Some(value)) = (children.next(), children.next()) {
                work::add(1);
                let number_of = |p: Part<'_, '_>| {
                    self.numbers.get(p.index() as usize).copied().unwrap_or(UNKNOWN)
                };
                let (k, v) = (key_number(number_of(key)), number_of(value));
                let nan = matches!(value.value(), V::Float(f) if f.is_nan());
                match self.merged_at.get(&k) {
                    Some(&at) => {
                        if let Some(slot) = self.merged.get_mut(at) {
                            *slot = (k, v, nan);
                        }
                    }
                    None => {
                        self.merged_at.insert(k, self.merged.len());
                        self.merged.push((k, v, nan));
                    }
                }
            }
            let (mut nan, mut lost_key, mut mutates) = (false, false, false);
            for &(k, v, value_nan) in &self.merged {
                pieces.push(Piece::Word(u64::from(k)));
                pieces.push(Piece::Word(u64::from(v)));
                nan |= value_nan;
                lost_key |= k & LOST != 0;
                mutates |= (k | v) & MUTATES != 0;
            }
            pieces.push(Piece::Word(self.merged.len() as u64));
            let by_content = identity.dictionaries_by_content();
            return Ok(match () {
                // By reference; printing adds an entry for each key it does not find (its own,
                // or those of what it holds), which changes what holds it.
                () if !by_content && (lost_key || mutates) => Formed::Lost { mutates: true },
                () if !by_content => Formed::Unique,
                // A float NaN value compared with `==`: the dictionary equals nothing else.
                () if nan && !identity.float_nans_equal(Place::Value) => Formed::Unique,
                () => Formed::Canonical,
            });
        }
        if opens {
            // An array.
            let mut count = 0u64;
            let (mut lost, mut mutates, mut nan) = (false, false, false);
            for child in part.children() {
                let number = self.numbers.get(child.index() as usize).copied().unwrap_or(UNKNOWN);
                lost |= number & LOST != 0;
                mutates |= number & MUTATES != 0;
                nan |= matches!(child.value(), V::Float(f) if f.is_nan());
                pieces.push(Piece::Word(u64::from(number)));
                count = count.saturating_add(1);
            }
            pieces.push(Piece::Word(count));
            return Ok(match () {
                // Element by element, so an array holding a lost value is lost.
                () if lost => Formed::Lost { mutates },
                // Array elements compared with `==`: a NaN differs from everything.
                () if nan && !identity.float_nans_equal(Place::Value) => Formed::Unique,
                () => Formed::Canonical,
            });
        }
        if let Some(reals) = real_components(&value) {
            pieces.extend(reals.as_slice().iter().map(|c| Piece::Word(canonical(*c))));
            return Ok(Formed::Canonical);
        }
        if let Some((ints, len)) = int_components(&value) {
            pieces.extend(ints.iter().take(len).map(|c| Piece::Word(u64::from(*c as u32))));
            return Ok(Formed::Canonical);
        }
        if identity.reals_by_bytes() {
            if let V::PackedFloat32Array(reals) = value {
                if reals.iter().any(f32::is_nan) {
                    // Godot 3.2's pool comparison negates only the first half of its NaN test.
                    return Ok(Formed::Lost { mutates: false });
                }
            }
            // Godot 3 hashes a pool of reals (not one of vectors or colors) by its bytes: -0.0
            // and 0.0 make other keys.
            if let V::PackedFloat32Array(reals) = value {
                pieces.push(Piece::Bytes(reals.raw_bytes()));
                return Ok(Formed::Canonical);
            }
        }
        match value {
            V::Nil | V::Callable | V::Object(ObjectRef::Null) => {}
            V::Bool(b) => pieces.push(Piece::Word(u64::from(b))),
            V::Int(i) => pieces.push(Piece::Word(i as u64)),
            V::Float(f) => pieces.push(Piece::Word(canonical(f))),
            V::String(s) | V::StringName(s) => pieces.push(Piece::Text(s.game_text()?)),
            V::Rid(id) => {
                pieces.push(Piece::Word(u64::from(id.is_some())));
                pieces.push(Piece::Word(id.unwrap_or(0)));
            }
            V::Signal(signal) => {
                pieces.push(Piece::Word(signal.object_id()));
                pieces.push(Piece::Text(signal.name().game_text()?));
            }
            V::NodePath(path) => {
                pieces.push(Piece::Word(u64::from(super::node_path_absolute(&path, self.version))));
                pieces.push(Piece::Word(path.name_count() as u64));
                pieces.push(Piece::Word(path.subname_count() as u64));
                for part in path.names().chain(path.subnames()) {
                    pieces.push(Piece::Text(part?.game_text()?));
                }
            }
            V::PackedStringArray(strings) => {
                pieces.push(Piece::Word(strings.len() as u64));
                for s in strings.iter() {
                    pieces.push(Piece::Text(s?.game_text()?));
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
            // Objects: equal to nothing else.
            _ => return Ok(Formed::Unique),
        }
        Ok(Formed::Canonical)
    }

    /// The number of the form in the scratch buffer: that of an equal form seen before, or a
    /// new one. O(the form) expected.
    fn intern(&mut self) -> u32 {
        let mut state = self.hasher.build_hasher();
        for piece in &self.scratch {
            hash_piece(piece, &mut state);
        }
        let hash = state.finish();
        let (arena, scratch) = (&self.arena, &self.scratch);
        let found = self.table.find(hash, |seen| {
            seen.hash == hash
                && form_cmp(
                    arena.get(seen.start..seen.start.saturating_add(seen.len)).unwrap_or(&[]),
                    scratch,
                )
                .is_eq()
        });
        if let Some(seen) = found {
            return seen.number;
        }
        let number = self.next_fresh();
        let interned = Interned { hash, start: self.arena.len(), len: self.scratch.len(), number };
        self.arena.extend_from_slice(&self.scratch);
        self.table.insert_unique(hash, interned, |seen| seen.hash);
        number
    }
}

/// What a value's canonical form says of it.
enum Formed {
    /// The form is in the scratch buffer: equal values have equal forms.
    Canonical,
    /// Equal to itself only (an object: each decoded one is a new instance).
    Unique,
    /// Equal to nothing, not even itself; `mutates` when printing it changes it.
    Lost { mutates: bool },
}

/// Feeds a piece to a hasher: the same for pieces that compare equal.
fn hash_piece(piece: &Piece<'_>, state: &mut impl Hasher) {
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

/// The steps of sorting `len` items: `len` times its bit length.
fn sort_cost(len: usize) -> usize {
    let bits = usize::BITS.saturating_sub(len.leading_zeros());
    len.saturating_mul(bits as usize)
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
