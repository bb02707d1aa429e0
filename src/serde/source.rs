//! [`Source`]: a value read once onto a [`Tape`], which the serializer and the struct-mapping
//! deserializer then visit, children in O(1) each, instead of iterating each container (which
//! walks every element to find where it ends, once per level of nesting above it).
//!
//! A tape of a value that [`validate`](crate::validate) did not check may stop at a structural
//! problem. What comes before it is visited as usual; the problem is reported where the lazy
//! iterators would have met it: when the element holding it is reached, or when a dictionary or
//! object of two or more entries, whose keys are all looked at first, holds it.

use alloc::vec::Vec;
use core::cell::RefCell;

use super::dedup;
use super::key_ids::KeyIds;
use crate::owned::key_semantics::KeyRules;
use crate::view::cursor::HeapCursor;
use crate::view::tape::{Part, Tape};
use crate::wire::error::{Error, ErrorKind};
use crate::{VariantRef, view::Element, view::GdStr, view::ObjectRef};

/// A value on a tape, the problem that stopped the tape (if any), and the dictionary-key
/// numbers found so far.
pub(crate) struct Source<'a> {
    tape: Tape<'a>,
    error: Option<Error>,
    ids: RefCell<Option<KeyIds>>,
    /// The pairs kept by every merge so far (part indices), each merge's together.
    kept: RefCell<Vec<(u32, u32)>>,
}

impl<'a> Source<'a> {
    /// A container value and everything inside it, as far as it is well formed; `None` for
    /// any other value.
    pub(crate) fn of_container(value: VariantRef<'a>) -> Option<Self> {
        let scope = match value {
            VariantRef::Array(array) => array.origin().0,
            VariantRef::Dictionary(dictionary) => dictionary.origin().0,
            VariantRef::Object(ObjectRef::Full(object)) => object.origin().0,
            _ => return None,
        };
        let cursor = HeapCursor::heap_of_container(value)?;
        let (tape, error) = Tape::partial(scope.buf, scope.options, cursor, 0);
        Some(Source::from_tape(tape, error))
    }

    /// An element and everything inside it, as far as it is well formed.
    pub(crate) fn of_element(element: &Element<'a>) -> Self {
        let (buf, pos, options, depth) = element.origin();
        let cursor = HeapCursor::heap_at(buf, pos, options, depth);
        let (tape, error) = Tape::partial(buf, options, cursor, element.len());
        Source::from_tape(tape, error)
    }

    fn from_tape(tape: Tape<'a>, error: Option<Error>) -> Self {
        Source { tape, error, ids: RefCell::new(None), kept: RefCell::new(Vec::new()) }
    }

    /// The value.
    pub(crate) fn root(&self) -> Part<'_, 'a> {
        self.tape.root()
    }

    /// The part at `index`.
    pub(crate) fn part(&self, index: u32) -> Part<'_, 'a> {
        self.tape.root().at(index)
    }

    /// The problem that stopped the tape (reported when a part it left incomplete is reached).
    pub(crate) fn error(&self) -> Error {
        let end = self.root().element().end();
        self.error.unwrap_or_else(|| Error::new(end, ErrorKind::Truncated { needed: 1 }))
    }

    /// The parts directly inside `part`, and an error where the tape stopped inside it.
    pub(crate) fn children<'s>(&'s self, part: Part<'s, 'a>) -> Kids<'s, 'a> {
        Kids { source: self, siblings: Siblings::of(part) }
    }

    /// A dictionary's entries as Godot decodes them, as a position (see [`Source::entries`]).
    ///
    /// # Errors
    /// As [`Source::entries`].
    pub(crate) fn entry_siblings(&self, dictionary: Part<'_, 'a>) -> crate::Result<Siblings> {
        self.entries(dictionary).map(|entries| entries.siblings)
    }

    /// Pairs kept by a merge, as [`Entries`] over them.
    fn kept<'s>(&'s self, pairs: Vec<(u32, u32)>) -> Entries<'s, 'a> {
        let mut kept = self.kept.borrow_mut();
        let next = u32::try_from(kept.len()).unwrap_or(u32::MAX);
        kept.extend(pairs);
        let end = u32::try_from(kept.len()).unwrap_or(u32::MAX);
        let siblings = Siblings { next, end, complete: true, failed: false, kept: true };
        Entries { source: self, siblings }
    }

    /// The number of a key (see [`KeyIds`]), numbering what inside it has none yet.
    pub(crate) fn key_id(&self, key: Part<'_, 'a>) -> crate::Result<u32> {
        let mut ids = self.ids.borrow_mut();
        let ids = ids.get_or_insert_with(|| {
            let version = self.root().element().options().version();
            KeyIds::new(self.tape.len(), KeyRules::of(version))
        });
        ids.id(key)
    }

    /// A dictionary's entries as Godot decodes them (see [`dedup`]).
    ///
    /// # Errors
    /// In a dictionary of two or more entries: a structural problem anywhere in it, or a key
    /// that cannot be made owned when keys must be compared exactly.
    pub(crate) fn entries<'s>(
        &'s self,
        dictionary: Part<'s, 'a>,
    ) -> crate::Result<Entries<'s, 'a>> {
        Ok(match dedup::entries(self, dictionary)? {
            Some(kept) => self.kept(kept),
            None => Entries { source: self, siblings: Siblings::of(dictionary) },
        })
    }

    /// A full object's properties as Godot sets them (see [`dedup`]).
    ///
    /// # Errors
    /// In an object of two or more properties: a structural problem anywhere in it.
    pub(crate) fn properties<'s>(
        &'s self,
        object: Part<'s, 'a>,
    ) -> crate::Result<Properties<'s, 'a>> {
        Ok(match dedup::properties(self, object)? {
            Some(kept) => Properties(self.kept(kept)),
            None => Properties(Entries { source: self, siblings: Siblings::of(object) }),
        })
    }
}

impl<'a> Source<'a> {
    /// A full object's properties as on the wire, repeated names included.
    pub(crate) fn all_properties<'s>(&'s self, object: Part<'s, 'a>) -> Properties<'s, 'a> {
        Properties(Entries { source: self, siblings: Siblings::of(object) })
    }

    /// A dictionary's entries as on the wire, repeated keys included.
    pub(crate) fn all_entries<'s>(&'s self, dictionary: Part<'s, 'a>) -> Entries<'s, 'a> {
        Entries { source: self, siblings: Siblings::of(dictionary) }
    }
}

impl Siblings {
    /// The parts directly inside `part`.
    pub(crate) fn of(part: Part<'_, '_>) -> Self {
        let next = part.index().saturating_add(1);
        Siblings {
            next,
            end: part.after(),
            complete: part.is_complete(),
            failed: false,
            kept: false,
        }
    }
}

/// Where an iteration over the parts directly inside a part stands: two indices and two flags,
/// without the [`Source`] (deep values keep one per level, next to a reference to the source).
#[derive(Clone, Copy)]
pub(crate) struct Siblings {
    /// The index of the next part (of the next kept pair, for merged pairs).
    next: u32,
    /// The index after the last one.
    end: u32,
    complete: bool,
    /// The error was given: nothing follows.
    failed: bool,
    /// `next` and `end` index the source's kept pairs.
    kept: bool,
}

impl Siblings {
    /// The next part, or an error, once, where the tape stopped inside the parent.
    pub(crate) fn next<'s, 'a>(
        &mut self,
        source: &'s Source<'a>,
    ) -> Option<crate::Result<Part<'s, 'a>>> {
        if self.failed {
            return None;
        }
        if self.next < self.end {
            let part = source.part(self.next);
            if self.complete || part.is_complete() {
                self.next = part.after();
                return Some(Ok(part));
            }
        } else if self.complete {
            return None;
        }
        self.failed = true;
        Some(Err(source.error()))
    }

    /// The next pair (key and value, name and value).
    pub(crate) fn next_pair<'s, 'a>(
        &mut self,
        source: &'s Source<'a>,
    ) -> Option<crate::Result<(Part<'s, 'a>, Part<'s, 'a>)>> {
        if self.kept {
            if self.next >= self.end {
                return None;
            }
            let pair = source.kept.borrow().get(self.next as usize).copied();
            self.next = self.next.saturating_add(1);
            let (key, value) = pair?;
            return Some(Ok((source.part(key), source.part(value))));
        }
        let first = match self.next(source)? {
            Ok(first) => first,
            Err(error) => return Some(Err(error)),
        };
        match self.next(source) {
            Some(Ok(second)) => Some(Ok((first, second))),
            Some(Err(error)) => Some(Err(error)),
            // A complete container has pairs.
            None => None,
        }
    }

    /// The number of pairs left when merged; `None` when streamed.
    pub(crate) fn kept_len(&self) -> Option<usize> {
        self.kept.then(|| self.end.saturating_sub(self.next) as usize)
    }
}

/// The parts directly inside a part, as an iterator.
pub(crate) struct Kids<'s, 'a> {
    source: &'s Source<'a>,
    siblings: Siblings,
}

impl<'s, 'a> Iterator for Kids<'s, 'a> {
    type Item = crate::Result<Part<'s, 'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.siblings.next(self.source)
    }
}

/// Pairs of parts, as an iterator: a dictionary's entries, a full object's names and values;
/// as on the wire, or the pairs kept after merging repeated keys (held by the [`Source`]).
pub(crate) struct Entries<'s, 'a> {
    source: &'s Source<'a>,
    siblings: Siblings,
}

impl Entries<'_, '_> {
    /// The number of pairs left when merged; `None` when streamed.
    pub(crate) fn kept_len(&self) -> Option<usize> {
        self.siblings.kept_len()
    }
}

impl<'s, 'a> Iterator for Entries<'s, 'a> {
    type Item = crate::Result<(Part<'s, 'a>, Part<'s, 'a>)>;

    fn next(&mut self) -> Option<Self::Item> {
        self.siblings.next_pair(self.source)
    }
}

/// A full object's properties: names and values.
pub(crate) struct Properties<'s, 'a>(Entries<'s, 'a>);

impl<'s, 'a> Properties<'s, 'a> {
    /// The number of properties left when merged; `None` when streamed.
    pub(crate) fn kept_len(&self) -> Option<usize> {
        self.0.kept_len()
    }
}

impl<'s, 'a> Iterator for Properties<'s, 'a> {
    type Item = crate::Result<(GdStr<'a>, Part<'s, 'a>)>;

    fn next(&mut self) -> Option<Self::Item> {
        let pair = self.0.next()?;
        Some(pair.and_then(|(name, value)| {
            let missing = Error::new(name.offset(), ErrorKind::Truncated { needed: 4 });
            Ok((name.name().ok_or(missing)?, value))
        }))
    }
}
