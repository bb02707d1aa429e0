//! `Dictionary`: a count, then that many key/value pairs in insertion order; in Godot 4.4+
//! optionally typed.
//!
//! Costs are those of [`ArrayRef`](crate::view::ArrayRef): parsing is O(1), iterating is O(bytes), a
//! lookup is O(bytes of the dictionary). Godot's decoder lets a repeated key overwrite the
//! earlier value, so [`DictionaryRef::get`] scans every entry and returns the **last** match: a
//! filter that looks at the first one could be shown one value while the game uses another.
//! [`DictionaryRef::get_first`] stops at the first match, for callers that have validated
//! their input against duplicates or do not care.

use super::array::{Elements, Values};
use super::container_type::{ContainerType, kind_bits, read_container_type};
use super::cursor::Cursor;
use super::element::Element;
use super::key::Key;
use super::string::{GdStr, read_string};
use super::value::{Scope, VariantRef};
use super::walk::{Mode, walk};
use crate::wire::error::{ErrorKind, Result};
use crate::wire::options::{Options, Version};
use crate::wire::read::{error_at, u32_at};

/// A borrowed Dictionary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DictionaryRef<'a> {
    scope: Scope<'a>,
    header: usize,
    count: u32,
    /// Bytes from the header to the first element (header, type information, count).
    first_delta: u32,
}

impl<'a> DictionaryRef<'a> {
    /// `first` is the position of the first element; the caller checked it is within reach.
    pub(crate) fn new(scope: Scope<'a>, header: usize, count: u32, first: usize) -> Self {
        let first_delta = u32::try_from(first.saturating_sub(header)).unwrap_or(u32::MAX);
        DictionaryRef { scope, header, count, first_delta }
    }

    /// Position of the first element.
    fn first(&self) -> usize {
        self.header.saturating_add(self.first_delta as usize)
    }

    /// The buffer and settings the dictionary was read with, and the position of its header.
    #[cfg(feature = "alloc")]
    pub(crate) fn origin(&self) -> (Scope<'a>, usize) {
        (self.scope, self.header)
    }

    /// Number of entries on the wire (a repeated key counts each time).
    #[inline]
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// Whether there are no entries.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Absolute offset of the dictionary's header.
    #[inline]
    pub fn offset(&self) -> usize {
        self.header
    }

    /// The key type of a typed dictionary (Godot 4.4+), else [`ContainerType::Untyped`]. O(1).
    ///
    /// # Errors
    /// None in practice: the type information was checked when the dictionary was parsed.
    pub fn key_type(&self) -> Result<ContainerType<'a>> {
        Ok(self.type_info()?.0)
    }

    /// The value type of a typed dictionary (Godot 4.4+), else [`ContainerType::Untyped`]. O(1).
    ///
    /// # Errors
    /// None in practice: the type information was checked when the dictionary was parsed.
    pub fn value_type(&self) -> Result<ContainerType<'a>> {
        Ok(self.type_info()?.1)
    }

    /// The key and value types together ([`key_type`](Self::key_type) and
    /// [`value_type`](Self::value_type) in one read of the header). O(1). Used by the JSON and
    /// text writers (feature `alloc`).
    #[cfg(feature = "alloc")]
    pub(crate) fn types(&self) -> Result<(ContainerType<'a>, ContainerType<'a>)> {
        let (keys, values, _) = self.type_info()?;
        Ok((keys, values))
    }

    /// Whether the header declares no key type and no value type: O(1), no type read. `false`
    /// for a typed dictionary, whose types may still be untyped ones (a type of NIL): ask
    /// [`key_type`](Self::key_type) and [`value_type`](Self::value_type) then.
    #[cfg(feature = "serde")]
    pub(crate) fn declares_no_types(&self) -> bool {
        let version = self.scope.options.version();
        u32_at(self.scope.buf, self.header).is_ok_and(|header| {
            kind_bits(version, header, 16) | kind_bits(version, header, 18) == 0
        })
    }

    /// The entries in wire order, each key and value with its offset and raw bytes; stops after
    /// the first error.
    ///
    /// Cost: each step walks one entry to find where it ends, O(its bytes), so one iteration
    /// is O(the container's bytes), on the stack, allocating nothing. A nested walk through
    /// these iterators (each level iterating the containers it finds) re-walks every child
    /// once per level above it: O(bytes x depth) for a whole nested value. For one pass in
    /// O(bytes), read the value with a [`Cursor`] ([`cursor`](Self::cursor)) or a
    /// [`Tape`](crate::view::Tape).
    pub fn entries(&self) -> Entries<'a> {
        Entries { values: self.keys_and_values() }
    }

    /// The keys and values, alternating, in wire order.
    pub(crate) fn keys_and_values(&self) -> Elements<'a> {
        Elements::new(self.scope, self.first(), self.count.saturating_mul(2))
    }

    /// A [`Cursor`] over the whole dictionary: the dictionary itself, then every key and value
    /// inside it, each read once. The way to visit nested containers in O(bytes).
    pub fn cursor(&self) -> Cursor<'a> {
        Cursor::at(self.scope.buf, self.header, self.scope.options, self.scope.depth)
    }

    /// The (key, value) pairs in wire order; stops after the first error. A String's or
    /// StringName's bytes are checked once as UTF-8 on the way, so that
    /// [`GdStr::to_str`](crate::view::GdStr::to_str) does not read them again.
    ///
    /// Cost: each step reads the heads of one entry's key and value and walks the rest of them
    /// to find where they end, O(their bytes), so one iteration
    /// is O(the container's bytes), on the stack, allocating nothing. A nested walk through
    /// these iterators (each level iterating the containers it finds) re-walks every child
    /// once per level above it: O(bytes x depth) for a whole nested value. For one pass in
    /// O(bytes), read the value with a [`Cursor`] ([`cursor`](Self::cursor)) or a
    /// [`Tape`](crate::view::Tape).
    pub fn iter(&self) -> impl Iterator<Item = Result<(VariantRef<'a>, VariantRef<'a>)>> + 'a {
        let mut values = Values(self.keys_and_values());
        core::iter::from_fn(move || {
            let key = values.next()?;
            let value = values.next();
            Some(match (key, value) {
                (Ok(key), Some(Ok(value))) => Ok((key, value)),
                (Err(error), _) | (_, Some(Err(error))) => Err(error),
                // Unreachable: values come in pairs.
                (Ok(_), None) => return None,
            })
        })
    }

    /// The value of `key`, the last one when the key repeats (as in Godot); `Ok(None)` when
    /// absent. O(bytes of the dictionary).
    ///
    /// # Errors
    /// A malformed entry anywhere in the dictionary.
    pub fn get<'k>(&self, key: impl Into<Key<'k>>) -> Result<Option<VariantRef<'a>>> {
        Ok(self.get_element(key)?.map(|e| e.value()))
    }

    /// Whether the value of `key` is `expected`, as the game reads the dictionary: the **last**
    /// entry of a repeated key wins (as in [`get`](Self::get) and Godot's decoder), and the key
    /// and the value compare by Godot's key equality ([`Key::matches`]: strings by the game's
    /// text, so a Godot 3 spelling with overlong forms, a leading BOM or text after a NUL is
    /// what the game reads, and a Godot 4 `String` and `StringName` are alike; `1` is not
    /// `1.0`). `Ok(false)` when the key is absent. The shortest way to filter by a field:
    ///
    /// ```
    /// use gdvariant::Options;
    ///
    /// // Godot 3: {"cmd": "shutdown_server"}, the `s` of the value spelled E0 81 B3.
    /// let mut bytes = vec![18, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, b'c', b'm', b'd', 0];
    /// bytes.extend([4, 0, 0, 0, 17, 0, 0, 0, 0xE0, 0x81, 0xB3]);
    /// bytes.extend(b"hutdown_server\0\0\0");
    /// let dictionary = gdvariant::parse(&bytes, Options::godot3())?.as_dictionary().unwrap();
    /// // A drop filter: what cannot be read is dropped too.
    /// let drop = dictionary.get_is("cmd", "shutdown_server").unwrap_or(true);
    /// assert!(drop);
    /// // get_as::<&str> sees bytes, not the game's text: an error here (ErrorKind::Overlong).
    /// assert!(dictionary.get_as::<&str>("cmd").is_err());
    /// # Ok::<(), gdvariant::Error>(())
    /// ```
    ///
    /// Cost: O(bytes of the dictionary) time (every entry is read, as in [`get`](Self::get);
    /// each key is compared in O(length of `key`), the value in O(length of `expected`)), O(1)
    /// stack, no allocation.
    ///
    /// # Errors
    /// A malformed entry anywhere in the dictionary: then whether the game would find
    /// `expected` is unknown, and the caller decides: `?`, or `.unwrap_or(true)` for a filter
    /// that drops what it cannot read.
    pub fn get_is<'k, 'e>(
        &self,
        key: impl Into<Key<'k>>,
        expected: impl Into<Key<'e>>,
    ) -> Result<bool> {
        let found = self.get_element(key)?;
        Ok(found.is_some_and(|element| expected.into().matches_element(&element)))
    }

    /// Like [`get`](Self::get), with the value's offset and raw bytes.
    ///
    /// # Errors
    /// A malformed entry anywhere in the dictionary.
    pub fn get_element<'k>(&self, key: impl Into<Key<'k>>) -> Result<Option<Element<'a>>> {
        self.find(key.into(), true)
    }

    /// The value of the first entry whose key is `key`. Faster than [`get`](Self::get), but a
    /// repeated key gives a different answer from Godot's. O(bytes before the match).
    ///
    /// # Errors
    /// A malformed entry before the match.
    pub fn get_first<'k>(&self, key: impl Into<Key<'k>>) -> Result<Option<VariantRef<'a>>> {
        Ok(self.find(key.into(), false)?.map(|e| e.value()))
    }

    /// [`get_element`](Self::get_element), and where the dictionary's bytes end (absolute
    /// offset), from the same single pass over its entries: what a relay needs to judge a
    /// packet by one field and forward it whole (`&bytes[..end]` for a dictionary parsed at the
    /// start of `bytes`), without walking it twice (once for its end with
    /// [`parse_prefix`](crate::parse_prefix), once for the key). O(bytes of the dictionary).
    ///
    /// ```
    /// use gdvariant::Options;
    ///
    /// // Godot 4.6: var_to_bytes({"z": 1, "a": 2, "m": 3}), then the next packet.
    /// let mut stream = include_bytes!("../../corpus/godot4/dict_order.bin").to_vec();
    /// let len = stream.len();
    /// stream.extend_from_slice(&[2, 0, 0, 0, 7, 0, 0, 0]);
    /// let value = gdvariant::parse(&stream, Options::godot4())?;
    /// let (a, end) = value.as_dictionary().unwrap().get_with_end("a")?;
    /// assert_eq!((a.and_then(|a| a.value().as_int()), end), (Some(2), len));
    /// # Ok::<(), gdvariant::Error>(())
    /// ```
    ///
    /// # Errors
    /// A malformed entry anywhere in the dictionary.
    pub fn get_with_end<'k>(
        &self,
        key: impl Into<Key<'k>>,
    ) -> Result<(Option<Element<'a>>, usize)> {
        let mut end = self.first();
        let found = self.find_to_end(key.into(), true, &mut end)?;
        Ok((found, end))
    }

    /// The value of the last (`last`) or first entry whose key is `key`. Walks the entries as
    /// [`entries`](Self::entries) does, with the same errors, but compares a string key where
    /// it lies and builds an [`Element`] only for the match.
    fn find(&self, key: Key<'_>, last: bool) -> Result<Option<Element<'a>>> {
        let mut end = 0;
        self.find_to_end(key, last, &mut end)
    }

    /// [`find`](Self::find), leaving in `end` where the walk stopped: the dictionary's end when
    /// it read every entry.
    #[inline]
    fn find_to_end(
        &self,
        key: Key<'_>,
        last: bool,
        end: &mut usize,
    ) -> Result<Option<Element<'a>>> {
        let Scope { buf, options, depth } = self.scope;
        let mut pos = self.first();
        *end = pos;
        if self.count == 0 {
            return Ok(None);
        }
        let Some(depth) = depth.checked_add(1) else {
            return Err(error_at(buf, pos, ErrorKind::DepthLimit));
        };
        let mut found = None;
        for _ in 0..self.count {
            let (matched, value_pos) = match (key, string_at(buf, pos, options, depth)?) {
                (Key::String(text), Some((string, end))) => (string.eq_str(text), end),
                (_, Some((_, end))) => (false, end),
                (_, None) => {
                    let end = walk(buf, pos, options, depth, Mode::Skip)?;
                    (key.matches_element(&Element::new(buf, pos, end, options, depth)), end)
                }
            };
            let end = walk(buf, value_pos, options, depth, Mode::Skip)?;
            if matched {
                found = Some(Element::new(buf, value_pos, end, options, depth));
                if !last {
                    break;
                }
            }
            pos = end;
        }
        *end = pos;
        Ok(found)
    }

    /// Key type, value type, position of the count.
    fn type_info(&self) -> Result<(ContainerType<'a>, ContainerType<'a>, usize)> {
        let buf = self.scope.buf;
        let options = self.scope.options;
        let header = u32_at(buf, self.header)?;
        let version = options.version();
        let body = self.header.saturating_add(4);
        let (keys, after) =
            read_container_type(buf, body, kind_bits(version, header, 16), options)?;
        let (values, after) =
            read_container_type(buf, after, kind_bits(version, header, 18), options)?;
        Ok((keys, values, after))
    }
}

/// The String or StringName at `pos` (a child at `depth`) and its end, read as the walk reads it;
/// `Ok(None)` for any other value, or when the walk should report the problem.
#[inline]
fn string_at(
    buf: &[u8],
    pos: usize,
    options: Options,
    depth: u16,
) -> Result<Option<(GdStr<'_>, usize)>> {
    let Ok(header) = u32_at(buf, pos) else { return Ok(None) };
    let version = options.version();
    let string = match (version, header & 0xFF) {
        (_, STRING) | (Version::Godot4, STRING_NAME_4) => depth <= options.max_depth(),
        _ => false,
    };
    if !string {
        return Ok(None);
    }
    read_string(buf, pos.saturating_add(4), version).map(Some)
}

/// Wire id of `String` (both versions) and of Godot 4's `StringName`.
const STRING: u32 = 4;
const STRING_NAME_4: u32 = 21;

/// Iterator over a dictionary's (key, value) elements; fused after the first error.
#[derive(Clone, Debug)]
pub struct Entries<'a> {
    values: Elements<'a>,
}

impl<'a> Iterator for Entries<'a> {
    type Item = Result<(Element<'a>, Element<'a>)>;

    fn next(&mut self) -> Option<Self::Item> {
        let key = match self.values.next()? {
            Ok(key) => key,
            Err(error) => return Some(Err(error)),
        };
        match self.values.next() {
            Some(Ok(value)) => Some(Ok((key, value))),
            Some(Err(error)) => Some(Err(error)),
            // Unreachable: values come in pairs.
            None => None,
        }
    }
}

impl core::iter::FusedIterator for Entries<'_> {}
