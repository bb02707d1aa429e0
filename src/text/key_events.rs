//! Reading a dictionary's keys in one forward pass, for the forms the sort builds of them.
//!
//! A [`Cursor`](crate::Cursor) over each key gives its values in order (each byte read once);
//! a [`KeyVisitor`] sees each value with its depth below the key and says whether to go into
//! a container, pass over it, or pass over the rest of the key. The dictionary's values are not
//! read at all. O(bytes of the keys), one cursor (8 KiB) at a time, no recursion.

use crate::VariantRef;
use crate::view::cursor::Event;
use crate::view::element::Element;
use crate::wire::error::Result;

/// What to do after a value.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Visit {
    /// Read the container's values next (a leaf has none: same as [`Visit::Pass`]).
    Enter,
    /// Pass over the container without reading its values.
    Pass,
    /// Pass over the rest of the key.
    PassKey,
}

/// What a pass over the keys builds.
pub(super) trait KeyVisitor<'a> {
    /// The next key begins.
    fn key(&mut self);
    /// A value `depth` levels below the key (0: the key itself); `container` when it holds
    /// values (an array, a dictionary, a full object).
    ///
    /// # Errors
    /// A malformed part of the value (strings of a `NodePath` or `PackedStringArray`).
    fn value(&mut self, value: VariantRef<'a>, depth: usize, container: bool) -> Result<Visit>;
    /// The innermost container entered has no more values.
    fn close(&mut self);
}

/// Shows every key in `keys` to `visitor`, in order: one [`Cursor`](crate::Cursor) pass over
/// each key's own bytes, so the work is O(bytes of the keys); the dictionary's values are never
/// read.
pub(super) fn visit_keys<'a>(
    keys: &[Element<'a>],
    visitor: &mut impl KeyVisitor<'a>,
) -> Result<()> {
    for key in keys {
        visitor.key();
        let mut cursor = key.cursor();
        while let Some(event) = cursor.next().transpose()? {
            // Depth of the value below the key: 0 for the key itself.
            let (visit, container) = match event {
                Event::Leaf(leaf) => (visitor.value(leaf.value(), cursor.depth(), false)?, false),
                Event::Open { value, .. } => {
                    let depth = cursor.depth().saturating_sub(1);
                    (visitor.value(value, depth, true)?, true)
                }
                Event::Close { .. } => {
                    visitor.close();
                    (Visit::Enter, false)
                }
                // Full objects are never entered.
                Event::Property(_) => (Visit::Enter, false),
            };
            match visit {
                Visit::Enter => {}
                Visit::Pass if container => {
                    cursor.skip_container()?;
                }
                Visit::Pass => {}
                Visit::PassKey => break,
            }
        }
    }
    Ok(())
}
