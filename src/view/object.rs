//! `Object`: null, an instance id, or a full object with its class and stored properties.
//!
//! * Header bit 16 set: a u64 instance id follows. Always accepted (even without
//!   `allow_objects`); id 0 is a null object, any other id is Godot's `EncodedObjectAsID`.
//! * Bit 16 clear: a full object. Without [`Options::allow_objects`](crate::Options::allow_objects)
//!   this is [`ErrorKind::ObjectsNotAllowed`](crate::ErrorKind::ObjectsNotAllowed) before anything
//!   else is read, wherever it sits in the tree. Then a class name: empty means a null object;
//!   otherwise the class must be one Godot can instantiate
//!   ([`ErrorKind::UnknownClass`](crate::ErrorKind::UnknownClass)). Then a property count (read
//!   as i32, negative meaning none) and that many (name string, value) pairs.
//!
//! Godot 4 also loads a non-null `script` property, which must be a `res://` path to an existing
//! script; [`validate`](crate::validate) checks that it is a `String` starting with `res://`
//! ([`ErrorKind::InvalidScript`](crate::ErrorKind::InvalidScript)) but cannot know which scripts a
//! game ships. Unknown property names are accepted, as Godot ignores them.

use super::element::Element;
use super::string::{GdStr, read_string};
use super::value::{Scope, VariantRef};
use super::walk::{Mode, walk};
use crate::wire::error::Result;
use crate::wire::read::error_at;

/// A borrowed Object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectRef<'a> {
    /// A null object: object id 0, or a full object with an empty class name (Godot 3.2.3 and 4.x
    /// themselves encode a null object as `Nil`).
    Null,
    /// An object sent by instance id (`EncodedObjectAsID`), as 64 raw bits (Godot 4 sets bit 63 on
    /// reference-counted objects).
    Id(u64),
    /// A full object.
    Full(FullObject<'a>),
}

/// A full object: class name and stored properties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FullObject<'a> {
    scope: Scope<'a>,
    /// Position of the class name's length field.
    class_pos: usize,
    count: u32,
}

impl<'a> FullObject<'a> {
    pub(crate) fn new(scope: Scope<'a>, class_pos: usize, count: u32) -> Self {
        FullObject { scope, class_pos, count }
    }

    /// The buffer and settings the object was read with, and the position of its header.
    #[cfg(feature = "alloc")]
    pub(crate) fn origin(&self) -> (Scope<'a>, usize) {
        (self.scope, self.class_pos.saturating_sub(4))
    }

    /// The class name, such as `"Node2D"`. O(1).
    pub fn class_name(&self) -> GdStr<'a> {
        self.class_and_end()
            .map(|(class, _)| class)
            .unwrap_or_else(|_| GdStr::empty(self.scope.options.version()))
    }

    /// The class name and the position of the first property (after the count).
    fn class_and_end(&self) -> Result<(GdStr<'a>, usize)> {
        let Scope { buf, options, .. } = self.scope;
        let (class, after) = read_string(buf, self.class_pos, options.version())?;
        Ok((class, after.saturating_add(4)))
    }

    /// Number of properties (0 when the wire count is negative).
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// Whether there are no properties.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The (name, value) properties in wire order; stops after the first error.
    pub fn properties(&self) -> Properties<'a> {
        match self.class_and_end() {
            Ok((_, first)) => Properties { scope: self.scope, pos: first, left: self.count },
            // Unreachable: the class name was read when the object was parsed.
            Err(_) => Properties { scope: self.scope, pos: usize::MAX, left: self.count.min(1) },
        }
    }

    /// The value of property `name` (the last one if it repeats, as Godot sets each in turn).
    ///
    /// # Errors
    /// A malformed property anywhere in the object.
    pub fn get(&self, name: &str) -> Result<Option<VariantRef<'a>>> {
        let mut found = None;
        for property in self.properties() {
            let (key, value) = property?;
            if key.eq_str(name) {
                found = Some(value.value());
            }
        }
        Ok(found)
    }
}

/// Iterator over a full object's properties; fused after the first error.
#[derive(Clone, Debug)]
pub struct Properties<'a> {
    scope: Scope<'a>,
    pos: usize,
    left: u32,
}

impl<'a> Iterator for Properties<'a> {
    type Item = Result<(GdStr<'a>, Element<'a>)>;

    fn next(&mut self) -> Option<Self::Item> {
        self.left = self.left.checked_sub(1)?;
        let Scope { buf, options, depth } = self.scope;
        let result = (|| {
            let (name, value_pos) = read_string(buf, self.pos, options.version())?;
            let child_depth = depth.checked_add(1).ok_or_else(|| {
                error_at(buf, value_pos, crate::wire::error::ErrorKind::DepthLimit)
            })?;
            let end = walk(buf, value_pos, options, child_depth, Mode::Skip)?;
            Ok((name, Element::new(buf, value_pos, end, options, child_depth)))
        })();
        match result {
            Ok((name, value)) => {
                self.pos = value.end();
                Some(Ok((name, value)))
            }
            Err(error) => {
                self.left = 0;
                Some(Err(error))
            }
        }
    }
}

impl core::iter::FusedIterator for Properties<'_> {}
