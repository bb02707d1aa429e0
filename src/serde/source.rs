//! [`Source`]: a value read once onto a [`Tape`], which the serializer and the struct-mapping
//! deserializer then visit, children in O(1) each, instead of iterating each container (which
//! walks every element to find where it ends, once per level of nesting above it).
//!
//! A tape of a value that [`validate`](crate::validate) did not check may stop at a structural
//! problem. What comes before it is visited as usual; the problem is reported where the lazy
//! iterators would have met it: when the element holding it is reached, or when a dictionary or
//! object of two or more entries, whose keys are all looked at first, holds it.

use core::cell::RefCell;

use super::dedup;
use super::key_ids::KeyIds;
use crate::owned::key_semantics::KeyRules;
use crate::view::cursor::Cursor;
use crate::view::tape::{Children, Part, Tape};
use crate::wire::error::{Error, ErrorKind};
use crate::{Element, GdStr, ObjectRef, VariantRef};

/// A value on a tape, the problem that stopped the tape (if any), and the dictionary-key
/// numbers found so far.
pub(crate) struct Source<'a> {
    tape: Tape<'a>,
    error: Option<Error>,
    ids: RefCell<Option<KeyIds>>,
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
        let cursor = Cursor::of_container(value)?;
        let (tape, error) = Tape::partial(scope.buf, scope.options, cursor);
        Some(Source::from_tape(tape, error))
    }

    /// An element and everything inside it, as far as it is well formed.
    pub(crate) fn of_element(element: &Element<'a>) -> Self {
        let (buf, _, options, _) = element.origin();
        let (tape, error) = Tape::partial(buf, options, element.cursor());
        Source::from_tape(tape, error)
    }

    fn from_tape(tape: Tape<'a>, error: Option<Error>) -> Self {
        Source { tape, error, ids: RefCell::new(None) }
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

    /// The parts directly inside `part`, each an error from where the tape stopped on.
    pub(crate) fn children<'s>(&'s self, part: Part<'s, 'a>) -> Kids<'s, 'a> {
        Kids {
            children: part.children(),
            complete: part.is_complete(),
            failed: false,
            error: self.error(),
        }
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
            Some(kept) => Entries::Kept(self, kept.into_iter()),
            None => Entries::Stream(self.children(dictionary)),
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
            Some(kept) => Properties(Entries::Kept(self, kept.into_iter())),
            None => Properties(Entries::Stream(self.children(object))),
        })
    }
}

impl<'a> Source<'a> {
    /// A full object's properties as on the wire, repeated names included.
    pub(crate) fn all_properties<'s>(&'s self, object: Part<'s, 'a>) -> Properties<'s, 'a> {
        Properties(Entries::Stream(self.children(object)))
    }
}

/// The parts directly inside a part: an error, once, where the tape stopped inside it.
pub(crate) struct Kids<'s, 'a> {
    children: Children<'s, 'a>,
    complete: bool,
    /// The error was given: nothing follows.
    failed: bool,
    error: Error,
}

impl<'s, 'a> Iterator for Kids<'s, 'a> {
    type Item = crate::Result<Part<'s, 'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.children.next() {
            Some(part) if self.complete || part.is_complete() => Some(Ok(part)),
            None if self.complete => None,
            _ => {
                self.failed = true;
                Some(Err(self.error))
            }
        }
    }
}

/// Pairs of parts: a dictionary's entries, a full object's name and value.
pub(crate) enum Entries<'s, 'a> {
    /// As on the wire.
    Stream(Kids<'s, 'a>),
    /// The pairs kept after merging repeated keys (part indices).
    Kept(&'s Source<'a>, alloc::vec::IntoIter<(u32, u32)>),
}

impl<'s, 'a> Entries<'s, 'a> {
    /// The number of pairs left when merged; `None` when streamed.
    pub(crate) fn kept_len(&self) -> Option<usize> {
        match self {
            Entries::Stream(_) => None,
            Entries::Kept(_, kept) => Some(kept.len()),
        }
    }
}

impl<'s, 'a> Iterator for Entries<'s, 'a> {
    type Item = crate::Result<(Part<'s, 'a>, Part<'s, 'a>)>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Entries::Stream(kids) => {
                let first = match kids.next()? {
                    Ok(first) => first,
                    Err(error) => return Some(Err(error)),
                };
                match kids.next() {
                    Some(Ok(second)) => Some(Ok((first, second))),
                    Some(Err(error)) => Some(Err(error)),
                    // A complete container has pairs.
                    None => None,
                }
            }
            Entries::Kept(source, kept) => {
                kept.next().map(|(key, value)| Ok((source.part(key), source.part(value))))
            }
        }
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
            let text = name
                .name()
                .ok_or_else(|| Error::new(name.offset(), ErrorKind::Truncated { needed: 4 }))?;
            Ok((text, value))
        }))
    }
}
