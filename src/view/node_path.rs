//! `NodePath`: names, subnames and the absolute flag (the same bytes in Godot 3 and 4).
//!
//! Layout after the header: u32 name count with bit 31 set (bit 31 clear is the pre-3.0 form,
//! which Godot refuses: [`ErrorKind::OldNodePath`]), u32 subname count, u32 flags (bit 0
//! absolute; bit 1 the obsolete "property" flag, which adds one subname), then the names and the
//! subnames as strings. Godot adds the counts in wrapping u32 arithmetic and reads that many
//! strings, the first `name count` of them as names; this view does the same.
//!
//! The encoder does not initialise the padding of these strings, so it is never looked at.
//! Parsing reads the 12-byte head (O(1)); the strings are read by the iterators.

use super::string::{GdStr, read_string, write_escaped};
use crate::wire::error::{ErrorKind, Result};
use crate::wire::options::Version;
use crate::wire::read::{bytes_at, error_at, remaining, u32_at};

const FLAG_ABSOLUTE: u32 = 1;
const FLAG_PROPERTY: u32 = 2;

/// A borrowed NodePath.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct NodePathRef<'a> {
    buf: &'a [u8],
    first: usize,
    names: u32,
    subnames: u32,
    flags: u32,
    version: Version,
}

impl<'a> NodePathRef<'a> {
    /// Reads the head whose first field is at `pos`.
    pub(crate) fn read(buf: &'a [u8], pos: usize, version: Version) -> Result<Self> {
        let declared = u32_at(buf, pos)?;
        if declared & 0x8000_0000 == 0 {
            return Err(error_at(buf, pos, ErrorKind::OldNodePath));
        }
        bytes_at(buf, pos, 12)?;
        let name_count = declared & 0x7FFF_FFFF;
        let mut subname_count = u32_at(buf, pos.saturating_add(4))?;
        let flags = u32_at(buf, pos.saturating_add(8))?;
        if flags & FLAG_PROPERTY != 0 {
            subname_count = subname_count.wrapping_add(1);
        }
        let total = name_count.wrapping_add(subname_count);
        let names = name_count.min(total);
        let first = pos.saturating_add(12);
        // Each string takes at least its 4-byte length.
        if u64::from(total).saturating_mul(4) > remaining(buf, first) as u64 {
            return Err(error_at(buf, pos, ErrorKind::BadCount { count: total }));
        }
        Ok(NodePathRef { buf, first, names, subnames: total.wrapping_sub(names), flags, version })
    }

    /// Whether the path is absolute (starts with `/`), as the game reads it: the absolute flag,
    /// except that Godot 3 reads a path with no names and no subnames as the empty path, which
    /// is never absolute (Godot 4 keeps it: `/`).
    pub fn is_absolute(&self) -> bool {
        let empty = self.names == 0 && self.subnames == 0;
        self.flags & FLAG_ABSOLUTE != 0 && !(empty && self.version == Version::Godot3)
    }

    /// Whether the obsolete "property" flag (bit 1) is set; it added one subname.
    pub fn has_legacy_property(&self) -> bool {
        self.flags & FLAG_PROPERTY != 0
    }

    /// The flags word as on the wire.
    pub fn flags(&self) -> u32 {
        self.flags
    }

    /// Number of names (path elements such as `"Player"` in `../Player:position`).
    pub fn name_count(&self) -> usize {
        self.names as usize
    }

    /// Number of subnames (property path elements such as `"position"`).
    pub fn subname_count(&self) -> usize {
        self.subnames as usize
    }

    /// The names; stops after the first error. O(1) per name.
    pub fn names(&self) -> NodePathStrings<'a> {
        NodePathStrings {
            buf: self.buf,
            pos: self.first,
            skip: 0,
            left: self.names,
            version: self.version,
        }
    }

    /// The subnames; stops after the first error. Skipping the names first costs O(names).
    pub fn subnames(&self) -> NodePathStrings<'a> {
        NodePathStrings {
            buf: self.buf,
            pos: self.first,
            skip: self.names,
            left: self.subnames,
            version: self.version,
        }
    }

    /// The names, then the subnames, in one pass.
    #[cfg(feature = "alloc")]
    pub(crate) fn all_strings(&self) -> NodePathStrings<'a> {
        NodePathStrings {
            buf: self.buf,
            pos: self.first,
            skip: 0,
            left: self.names.wrapping_add(self.subnames),
            version: self.version,
        }
    }

    /// Where the strings start, and how many there are (names, then subnames).
    pub(crate) fn strings(&self) -> (usize, u32) {
        (self.first, self.names.wrapping_add(self.subnames))
    }

    /// Godot's text form, such as `/root/Main:position` or `../Player`, each name as the game
    /// reads it ([`GdStr::to_text`]). O(n).
    ///
    /// # Errors
    /// The first malformed string, or one that is not Unicode
    /// ([`ErrorKind::NotUnicode`](crate::ErrorKind::NotUnicode)).
    #[cfg(feature = "alloc")]
    pub fn to_text(&self) -> Result<alloc::string::String> {
        let mut text = alloc::string::String::new();
        if self.is_absolute() {
            text.push('/');
        }
        for (i, name) in self.names().enumerate() {
            if i > 0 {
                text.push('/');
            }
            text.push_str(&name?.to_text()?);
        }
        for subname in self.subnames() {
            text.push(':');
            text.push_str(&subname?.to_text()?);
        }
        Ok(text)
    }
}

impl core::fmt::Debug for NodePathRef<'_> {
    /// Godot's text form in quotes, such as `"/root/Main:position"`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("\"")?;
        if self.is_absolute() {
            f.write_str("/")?;
        }
        for (i, name) in self.names().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            match name {
                Ok(name) => write_escaped(f, &name, usize::MAX)?,
                Err(_) => return f.write_str("<malformed>\""),
            }
        }
        for subname in self.subnames() {
            f.write_str(":")?;
            match subname {
                Ok(subname) => write_escaped(f, &subname, usize::MAX)?,
                Err(_) => return f.write_str("<malformed>\""),
            }
        }
        f.write_str("\"")
    }
}

impl core::fmt::Debug for NodePathStrings<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("NodePathStrings")
            .field("position", &self.pos)
            .field("left", &self.left)
            .finish()
    }
}

/// Iterator over NodePath names or subnames.
#[derive(Clone)]
pub struct NodePathStrings<'a> {
    buf: &'a [u8],
    pos: usize,
    /// Strings to pass over before the first one yielded.
    skip: u32,
    left: u32,
    version: Version,
}

impl NodePathStrings<'_> {
    /// Where the next string starts (once all are read: where the NodePath ends).
    #[cfg(feature = "alloc")]
    pub(crate) fn position(&self) -> usize {
        self.pos
    }
}

impl<'a> Iterator for NodePathStrings<'a> {
    type Item = Result<GdStr<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.left.checked_sub(1)?;
        loop {
            match read_string(self.buf, self.pos, self.version) {
                Ok((s, end)) => {
                    self.pos = end;
                    if self.skip == 0 {
                        self.left = self.left.saturating_sub(1);
                        return Some(Ok(s));
                    }
                    self.skip = self.skip.saturating_sub(1);
                }
                Err(e) => {
                    self.left = 0;
                    return Some(Err(e));
                }
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.left as usize))
    }
}

impl core::iter::FusedIterator for NodePathStrings<'_> {}
