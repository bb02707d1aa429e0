//! Reading a whole value into a [`Variant`]: one iterative pass over the bytes.
//!
//! The pass reads each value's head with the same code as [`parse`](crate::parse), checks what
//! [`validate`](crate::validate) checks in the same order (strings are turned into
//! [`GdString`]s, which checks their text), and keeps the containers it is inside on a
//! heap-allocated stack, so nesting costs no call stack.
//!
//! Leaves first: an array or a dictionary (one whose own hash is not wanted, and whose elements
//! or keys the game view does not check) reads the values in it that hold no other value
//! straight in (`fill_leaves`), with the same checks in the same order as the general loop:
//! `null`, `bool`, `int`, `float`, `String` and `Vector2` straight from their header
//! (`quick_leaf`, which leaves anything unusual, errors included, to the general read), other
//! leaves through `parse_head`; a dictionary's key is hashed as it is read and its entry pushed
//! once, a small dictionary's repeated keys found among the hashes it keeps in place. At the
//! first value that holds others the general loop takes over, with that value's head already
//! read. A plain (untyped) array or dictionary at the root is opened straight from its header
//! (`open_plain_root`, with `parse_head`'s checks; anything else, or a reservation that needs
//! validating first, goes the general way). So a flat value (a packet) touches no
//! open-container stack and none of the decoder's vectors: per leaf, a header read, the leaf,
//! and (a key) its hash and one scan.
//!
//! Memory: each container is sized once, from its declared count. Room reserved that way ahead
//! of reading the elements is only at risk when a count lies, so the pass keeps the bytes
//! reserved and not yet filled within 2 per input byte plus 1 KiB (so a small value is read in
//! one pass); a reservation that would go past that (a dense value, or a lie), or a value more
//! than 8 containers deep, first runs the validating walk over the whole value, once (no
//! allocation): after it every count is true and the value's depth is known, so the stack of
//! open containers (40 bytes a frame) is sized exactly too. So nothing is ever reserved for
//! elements that are not there beyond 2 bytes per input byte and 1 KiB, and what is allocated is
//! what the value holds: at most 32 bytes per input byte on any input, plus 4 KiB
//! (`tests/hostile_alloc/`; measured at most 29.7, for dictionaries in dictionaries: each a
//! 176-byte box for 8 input bytes, entries 64 bytes each, plus their key's hash past 8 entries).
//!
//! Keys: each key's hash (see `key_hash.rs`) is computed as the key is read, from the hashes of
//! what it holds (a dictionary inside a key keeps its values' hashes on a stack of the decoder's
//! own until it closes), so no key is walked again to hash it, and the dictionary keeps it. A
//! repeated key is found among the keys of the same hash and compared once (see
//! `key_semantics.rs`). Time: O(n) (a header `quick_leaf` leaves to the general read is read
//! twice, no more).
//!
//! Game view ([`Options::with_game_view`](crate::Options::with_game_view)): each element of a
//! typed array, and each key of a typed dictionary, is checked when it is placed (after what it
//! holds, so inner typed containers are converted first), and converted or left out by the
//! rules of `game/`; a converted key is hashed again from what it holds, and an array's hash
//! takes its length last, so an array whose elements the game drops hashes as the array it
//! becomes. A dropped key's value is read and left out.
//!
//! Stack: nothing recurses, and what the pass drops itself (a repeated key, a replaced value,
//! what was read before a problem) is taken apart without deep recursion or allocation, as is
//! the returned value when it is dropped.
//!
//! This file holds the entry points and the decoder's loop over one walk (a stack of open
//! containers); `containers.rs` opens, fills (`fill_leaves` too) and closes containers, `leaf.rs`
//! reads the values that hold no other value. `tests.rs` compares the leaves-first path with the
//! general loop alone (`convert_with`), and [`decode_into`] (into used values of every kind)
//! with both, on both corpora and on every cut and byte change of small values.
//!
//! Reuse ([`decode_into`]): a plain root opened from its header takes the room of the used
//! container the caller hands in (emptied first, without deep recursion); anything else is
//! decoded as by [`decode`] and the used value dropped.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::dictionary::Settled;
use super::key_hash::{
    NEVER, array_finish, array_start, array_step, dictionary_finish, dictionary_start,
    dictionary_step, key_hash, leaf_hash, string_hash, value_hash,
};
use super::key_semantics::KeyRules;
use super::typed::{self, Admitted};
use super::{Array, Dictionary, GdString, NodePath, Object, Signal, Variant};
use crate::ElementType;
use crate::view::container_type::kind_bits;
use crate::view::element::Element;
use crate::view::math::{Precision, RealValue, Reals, Vector2};
use crate::view::object::ObjectRef;
use crate::view::packed::{PackedElement, PackedReals};
use crate::view::string::{GdStr, read_string};
use crate::view::value::{Extent, FLAG_64, VariantRef, parse_head};
use crate::view::walk::{Mode, check_script, walk, walk_depth};
use crate::wire::error::{Error, ErrorKind, Result};
use crate::wire::exact_float::{quiet, widen_exact};
use crate::wire::read::{bytes_at, error_at, remaining, u32_at, u64_at, widen_f32};
use crate::{Options, VariantType, Version};

mod containers;
mod leaf;
#[cfg(test)]
mod tests;

use containers::*;
use leaf::*;

/// Reads the whole value at the start of `bytes` into an owned [`Variant`]. O(n); allocates at
/// most 32 bytes per input byte (plus a few KiB), whatever the input. Trailing bytes are ignored,
/// as in Godot.
///
/// Accepts what [`validate`](crate::validate) accepts, except Godot 3 class and property names
/// that hold code points Rust's `str` cannot carry ([`ErrorKind::NotUnicode`]; strings that are
/// values become [`GdString`]s, which hold them). Sizes containers from their counts, validating
/// the whole value first when that would reserve more than 2 bytes per input byte and 1 KiB
/// ahead of the elements (see the module docs).
///
/// With [`Options::with_game_view`](crate::Options::with_game_view), typed containers come out
/// as the game holds them (elements and keys converted or dropped, as in Godot 4.6; see
/// [`game`](crate::game)); what the game makes can be larger than the bytes, so the allocation
/// bound is then 192 bytes per input byte, and a value only the running game knows is
/// [`ErrorKind::GameDependent`].
///
/// ```
/// use gdvariant::{Options, Variant};
///
/// // Godot 4.6: var_to_bytes({"z": 1, "a": 2, "m": 3})
/// let bytes = include_bytes!("../../../corpus/godot4/dict_order.bin");
/// let value = gdvariant::decode(bytes, Options::godot4())?;
/// let dictionary = value.as_dictionary().unwrap();
/// let keys: Vec<_> = dictionary.keys().filter_map(Variant::as_str).collect();
/// assert_eq!(keys, ["z", "a", "m"]);
/// assert_eq!(dictionary.get("a"), Some(&Variant::Int(2)));
/// # Ok::<(), gdvariant::Error>(())
/// ```
///
/// # Stack
/// Iterative: a small fixed stack decodes the deepest values Godot accepts (the tests use
/// 256 KiB), Godot 4 dictionaries nested as dictionary keys included; dropping the returned
/// value needs no deep stack either.
///
/// # Errors
/// The first problem, with its absolute offset, as [`validate`](crate::validate) reports it.
pub fn decode(bytes: &[u8], options: Options) -> Result<Variant> {
    convert(bytes, 0, options, 0)
}

/// [`decode`] into `value`, reusing its room: when `value` is a dictionary (or an array) and
/// the bytes hold a plain (untyped) one at the root, the new one is read into the old one's
/// allocations (a dictionary's box, entries, hashes and index; an array's elements), so that a
/// server decoding packet after packet into one `Variant` allocates only for what those cannot
/// hold (text longer than a [`GdString`] keeps in place, containers inside the root). The
/// result, errors and bounds are [`decode`]'s; what `value` held is dropped, without deep
/// recursion (O(its size) more time). The room is kept as it is, not shrunk: a value that once
/// held a large dictionary keeps that room until it is replaced (`*value = Variant::Nil`).
///
/// ```
/// use gdvariant::{Options, Variant};
///
/// // Godot 4.6: var_to_bytes({"z": 1, "a": 2, "m": 3}), received again and again
/// let packet = include_bytes!("../../../corpus/godot4/dict_order.bin");
/// let mut value = Variant::Nil;
/// for _ in 0..3 {
///     gdvariant::decode_into(packet, Options::godot4(), &mut value)?;
///     assert_eq!(value.as_dictionary().and_then(|d| d.get("a")), Some(&Variant::Int(2)));
/// }
/// # Ok::<(), gdvariant::Error>(())
/// ```
///
/// # Errors
/// As [`decode`]; `value` is then `Nil`.
pub fn decode_into(bytes: &[u8], options: Options, value: &mut Variant) -> Result<()> {
    let spare = Spare::of(core::mem::take(value));
    *value = convert_with(bytes, 0, options, 0, true, spare)?;
    Ok(())
}

impl Variant {
    /// Reads a lazily parsed value, and everything inside it, into an owned [`Variant`]. O(n).
    ///
    /// # Errors
    /// The first problem inside the value (see [`decode`]).
    pub fn from_ref(value: &VariantRef<'_>) -> Result<Variant> {
        let (scope, header) = match value {
            VariantRef::Array(array) => array.origin(),
            VariantRef::Dictionary(dictionary) => dictionary.origin(),
            VariantRef::Object(ObjectRef::Full(object)) => object.origin(),
            _ => return leaf(value),
        };
        convert(scope.buf, header, scope.options, scope.depth)
    }

    /// Reads a container element, and everything inside it, into an owned [`Variant`]. O(n).
    ///
    /// # Errors
    /// The first problem inside the value (see [`decode`]).
    pub fn from_element(element: &Element<'_>) -> Result<Variant> {
        let (buf, offset, options, depth) = element.origin();
        convert(buf, offset, options, depth)
    }
}

impl TryFrom<VariantRef<'_>> for Variant {
    type Error = crate::Error;

    fn try_from(value: VariantRef<'_>) -> Result<Variant> {
        Variant::from_ref(&value)
    }
}

impl TryFrom<Element<'_>> for Variant {
    type Error = crate::Error;

    fn try_from(element: Element<'_>) -> Result<Variant> {
        Variant::from_element(&element)
    }
}

/// A container being filled, on the decoder's stack (40 bytes: what is rarely there, a typed
/// array's element type and a full object's class, waits on stacks of its own).
struct Open {
    container: Container,
    /// The values still to read (keys and values, for a dictionary).
    left: u32,
    /// Whether this container's own hash is wanted (it is, or is inside, a dictionary key).
    hashed: bool,
    /// An array whose element type waits on the decoder's stack of types.
    typed: bool,
    /// A dictionary whose next value is left out: the game dropped its key.
    discard: bool,
    /// An array's running hash (see `key_hash.rs`), when wanted; for a dictionary whose hash is
    /// wanted, where the hashes of its values start on the decoder's stack of value hashes.
    hash: u64,
}

/// What an [`Open`] fills.
enum Container {
    Array(Vec<Variant>),
    /// A key waits for its value as the dictionary's last entry.
    Dictionary(Box<Dictionary>),
    /// A property waits for its value as the last property; the class waits on the decoder's
    /// stack of classes.
    Object(Vec<(String, Variant)>),
}

/// Frames of the decoder's stack before it needs the value's depth.
const SHALLOW: usize = 8;

/// Memory reserved for elements ahead of reading them may reach this many bytes per input byte,
/// plus [`AHEAD_FIXED`], before the value is validated.
const AHEAD_PER_BYTE: usize = 2;

/// Bytes that may be reserved ahead whatever the input's size: a small value (a packet of a
/// few entries) is read in one pass, not validated first.
const AHEAD_FIXED: usize = 1024;

/// The decoder's state besides its stack of open containers.
struct Decoder<'a> {
    buf: &'a [u8],
    options: Options,
    rules: KeyRules,
    /// Where the value starts, and at what depth.
    root: (usize, u16),
    /// The value was validated: every count is true, and `nesting` is its depth.
    validated: bool,
    nesting: usize,
    /// Bytes reserved for elements, and filled, before validation.
    reserved: usize,
    filled: usize,
    /// The hashes of the values of the dictionaries being read inside keys, by entry.
    value_hashes: Vec<u64>,
    /// The element types of the typed arrays open (as the game holds them, with the game view),
    /// with each array's offset; and the classes of the full objects open.
    types: Vec<(ElementType<String>, usize)>,
    /// With the game view, the offsets of the typed dictionaries open, whose keys are checked.
    typed_dictionaries: Vec<usize>,
    classes: Vec<String>,
    /// Containers read the values that hold no other value straight in ([`fill_leaves`]);
    /// off only in the tests that compare that path with the general one.
    leaves_first: bool,
    /// A used container whose room a plain root takes ([`decode_into`]).
    spare: Option<Spare>,
}

/// A used container, emptied when a decode takes its room for the root (see [`decode_into`]).
enum Spare {
    /// A dictionary: its box, its entries' vector, its hashes and its index.
    Dictionary(Box<Dictionary>),
    /// An array's elements' vector.
    Elements(Vec<Variant>),
}

impl Spare {
    /// The room `value` has to give, if it is a container.
    fn of(value: Variant) -> Option<Spare> {
        match value {
            Variant::Dictionary(dictionary) => Some(Spare::Dictionary(dictionary)),
            Variant::Array(mut array) => {
                Some(Spare::Elements(core::mem::take(&mut array.elements)))
            }
            _ => None,
        }
    }
}

impl Decoder<'_> {
    /// Checks the whole value as [`validate`](crate::validate) does (once): after that every
    /// count is true, and the value's depth is known.
    fn validate(&mut self) -> Result<()> {
        if !self.validated {
            let (pos, depth) = self.root;
            let (_, nesting) = walk_depth(self.buf, pos, self.options, depth, Mode::Validate)?;
            self.validated = true;
            self.nesting = usize::from(nesting);
        }
        Ok(())
    }

    /// Makes sure `need` bytes may be reserved for elements not read yet: they may, while what
    /// is reserved and not filled stays within [`AHEAD_PER_BYTE`] per input byte plus
    /// [`AHEAD_FIXED`]; past that,
    /// the value is validated first (so that a count that lies reserves nothing).
    fn reserve(&mut self, need: usize) -> Result<()> {
        if self.validated || self.reserve_unvalidated(need) {
            return Ok(());
        }
        self.validate()
    }

    /// Reserves `need` bytes ahead, as [`reserve`](Self::reserve) does, when that needs no
    /// validation first; `false` (nothing reserved) when it would.
    fn reserve_unvalidated(&mut self, need: usize) -> bool {
        let outstanding = self.reserved.saturating_sub(self.filled).saturating_add(need);
        let allowed = self.buf.len().saturating_mul(AHEAD_PER_BYTE).saturating_add(AHEAD_FIXED);
        if outstanding <= allowed {
            self.reserved = self.reserved.saturating_add(need);
            return true;
        }
        false
    }

    /// A slot of `size` bytes reserved ahead has been filled.
    fn fill(&mut self, size: usize) {
        if !self.validated {
            self.filled = self.filled.saturating_add(size);
        }
    }

    /// Room for one more open container: [`SHALLOW`] frames, then (once validated) exactly as
    /// many as the value is deep.
    fn grow(&mut self, stack: &mut Vec<Open>) -> Result<()> {
        if stack.len() < stack.capacity() {
            return Ok(());
        }
        if !self.validated && stack.len() < SHALLOW {
            stack.reserve_exact(SHALLOW.saturating_sub(stack.len()));
            return Ok(());
        }
        self.validate()?;
        stack.reserve_exact(self.nesting.saturating_sub(stack.len()).max(1));
        Ok(())
    }
}

/// Reads the value whose header is at `pos`, at nesting `depth`.
///
/// A Godot 3 class or property name outside Unicode stops the conversion where it is met, but
/// Godot may still refuse the value for a problem further on; the validating walk then gives
/// that error, so the result is `NotUnicode` only for values Godot accepts.
fn convert(buf: &[u8], pos: usize, options: Options, depth: u16) -> Result<Variant> {
    convert_with(buf, pos, options, depth, true, None)
}

/// [`convert`], with or without [`fill_leaves`] (`leaves_first`), the root read into `spare`'s
/// room when it can be.
fn convert_with(
    buf: &[u8],
    pos: usize,
    options: Options,
    depth: u16,
    leaves_first: bool,
    spare: Option<Spare>,
) -> Result<Variant> {
    let mut decoder = Decoder {
        spare,
        buf,
        options,
        rules: KeyRules::of(options.version()),
        root: (pos, depth),
        validated: false,
        nesting: 0,
        reserved: 0,
        filled: 0,
        value_hashes: Vec::new(),
        types: Vec::new(),
        typed_dictionaries: Vec::new(),
        classes: Vec::new(),
        leaves_first,
    };
    // What was read before a problem is dropped with the stack, without deep recursion.
    let mut stack = Vec::new();
    build(&mut decoder, &mut stack).map_err(|error| {
        if error.kind() != ErrorKind::NotUnicode {
            return error;
        }
        walk(buf, pos, options, depth, Mode::Validate).err().unwrap_or(error)
    })
}

/// The pass over the value, stopping at the first problem met in byte order. `stack` holds the
/// containers open around the current value (left there when a problem stops the pass).
fn build<'a>(decoder: &mut Decoder<'a>, stack: &mut Vec<Open>) -> Result<Variant> {
    let (buf, options) = (decoder.buf, decoder.options);
    let version = options.version();
    let (mut pos, mut depth) = decoder.root;
    // The next value is a Godot 4 `script` property.
    let mut script = false;
    // The head of the next value, when `fill_leaves` has read it.
    let mut next: Option<(VariantRef<'a>, Extent)> = None;
    // A plain array or dictionary at the root (a packet) is opened from its header, as the
    // loop below would open it, and its leaves read straight in.
    if decoder.leaves_first {
        if let Some((mut open, first)) = open_plain_root(decoder) {
            pos = first;
            fill_leaves(decoder, &mut open, &mut pos, depth.saturating_add(1), &mut next)?;
            if open.left == 0 {
                return Ok(close(decoder, open).0);
            }
            decoder.grow(stack)?;
            stack.push(open);
            depth = depth.saturating_add(1);
        }
    }
    loop {
        let (value, extent) = match next.take() {
            Some(head) => head,
            None => parse_head(buf, pos, options, depth)?,
        };
        // A `script` value is checked after its own text, in the order validate checks them.
        if script && !matches!(extent, Extent::End(_)) {
            check_script(buf, pos, &value)?;
        }
        let hashed = hash_wanted(stack.last());
        let (mut done, mut hash) = match extent {
            Extent::End(end) => {
                let done = leaf(&value)?;
                if script {
                    check_script(buf, pos, &value)?;
                }
                pos = end;
                let hash = if hashed { leaf_hash(&done, decoder.rules) } else { NEVER };
                (done, hash)
            }
            Extent::Strings { count, .. } => {
                let bytes = usize::try_from(count)
                    .unwrap_or(usize::MAX)
                    .saturating_mul(size_of::<GdString>());
                decoder.reserve(bytes)?;
                let (done, end) = strings(&value)?;
                decoder.fill(bytes);
                pos = end;
                let hash = if hashed { leaf_hash(&done, decoder.rules) } else { NEVER };
                (done, hash)
            }
            Extent::Values { first, items } | Extent::Properties { first, count: items } => {
                let header = u32_at(buf, pos)?;
                let mut open = open(decoder, &value, items, header, hashed)?;
                pos = first;
                script = false;
                if decoder.leaves_first && takes_leaves(decoder, &open) {
                    fill_leaves(decoder, &mut open, &mut pos, depth.saturating_add(1), &mut next)?;
                }
                if open.left == 0 {
                    close(decoder, open)
                } else {
                    if let Container::Object(properties) = &mut open.container {
                        let (name, end, is_script) = property_name(buf, pos, version)?;
                        properties.push((name, Variant::Nil));
                        (pos, script) = (end, is_script);
                    }
                    decoder.grow(stack)?;
                    stack.push(open);
                    depth = depth.saturating_add(1);
                    continue;
                }
            }
        };
        script = false;
        // Hand the finished value to its container, closing every container it completes.
        loop {
            let Some(top) = stack.last_mut() else {
                return Ok(done);
            };
            place(decoder, top, done, hash)?;
            top.left = top.left.saturating_sub(1);
            if top.left > 0 {
                if let Container::Object(properties) = &mut top.container {
                    let (name, end, is_script) = property_name(buf, pos, version)?;
                    properties.push((name, Variant::Nil));
                    (pos, script) = (end, is_script);
                    break;
                }
                if decoder.leaves_first && takes_leaves(decoder, top) {
                    fill_leaves(decoder, top, &mut pos, depth, &mut next)?;
                }
                if top.left > 0 {
                    break;
                }
            }
            let Some(finished) = stack.pop() else {
                return Err(error_at(buf, pos, ErrorKind::DepthLimit));
            };
            (done, hash) = close(decoder, finished);
            depth = depth.saturating_sub(1);
        }
    }
}

/// Whether the hash of the next value read into `top` is wanted: a dictionary key's always, an
/// element's or a value's when the container's own hash is (an object's never: an object
/// equals no key, whatever it holds).
fn hash_wanted(top: Option<&Open>) -> bool {
    let Some(top) = top else {
        return false;
    };
    match &top.container {
        Container::Array(_) => top.hashed,
        // Keys and values alternate: `left` is even before a key.
        Container::Dictionary(_) => top.left % 2 == 0 || top.hashed,
        Container::Object(_) => false,
    }
}

/// Reads the property name at `pos`: the name, where its value starts, and whether that value
/// is a Godot 4 `script` property.
fn property_name(buf: &[u8], pos: usize, version: Version) -> Result<(String, usize, bool)> {
    let (name, end) = read_string(buf, pos, version)?;
    let name = text(&name)?;
    let script = version == Version::Godot4 && name == "script";
    Ok((name, end, script))
}
