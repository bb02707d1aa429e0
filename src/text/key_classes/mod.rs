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
//!
//! Files: this one holds the numbering ([`KeyClasses`]: the walk, the interning of forms, the
//! classes of a dictionary's keys); `form.rs` reads a value into its canonical form; `pieces.rs`
//! holds the pieces of a form and how they hash and compare.

use alloc::vec::Vec;
use core::hash::{BuildHasher, Hasher};

use hashbrown::{DefaultHashBuilder, HashTable};

use crate::VariantRef;
use crate::view::tape::Part;
use crate::wire::error::Result;
use crate::wire::identity::{Identity, Place};
use crate::wire::options::Version;
use crate::wire::work;

mod form;
mod pieces;

use pieces::{Piece, form_cmp, hash_piece};

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

/// The steps of sorting `len` items: `len` times its bit length.
fn sort_cost(len: usize) -> usize {
    let bits = usize::BITS.saturating_sub(len.leading_zeros());
    len.saturating_mul(bits as usize)
}
