//! Reading a dictionary's keys in one forward pass, for the forms the sort builds of them.
//!
//! A [`Cursor`] over the dictionary gives every key's values in order (each byte read once);
//! a [`KeyVisitor`] sees each value with its depth below the key and says whether to go into
//! a container, pass over it, or pass over the rest of the key. Dictionary values are passed
//! over. O(bytes of the dictionary), one cursor (8 KiB) per pass, no recursion.

use crate::VariantRef;
use crate::view::cursor::Event;
use crate::view::dictionary::DictionaryRef;
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

/// Shows every key of `dictionary` to `visitor`, in wire order.
pub(super) fn visit_keys<'a>(
    dictionary: DictionaryRef<'a>,
    visitor: &mut impl KeyVisitor<'a>,
) -> Result<()> {
    let mut cursor = dictionary.cursor();
    // The dictionary itself: its entries are at depth 1.
    if !matches!(cursor.next().transpose()?, Some(Event::Open { .. })) {
        return Ok(());
    }
    for _ in 0..dictionary.len() {
        visitor.key();
        loop {
            let depth = cursor.depth().saturating_sub(1);
            let (visit, container) = match cursor.next().transpose()? {
                Some(Event::Leaf(leaf)) => (visitor.value(leaf.value(), depth, false)?, false),
                Some(Event::Open { value, .. }) => (visitor.value(value, depth, true)?, true),
                Some(Event::Close { .. }) => {
                    visitor.close();
                    (Visit::Enter, false)
                }
                // Full objects are never entered.
                Some(Event::Property(_)) => (Visit::Enter, false),
                None => return Ok(()),
            };
            match visit {
                Visit::Enter => {}
                Visit::Pass if container => {
                    cursor.skip_container()?;
                }
                Visit::Pass => {}
                Visit::PassKey => {
                    while cursor.depth() > 1 {
                        cursor.skip_container()?;
                    }
                }
            }
            if cursor.depth() <= 1 {
                break;
            }
        }
        // The entry's value.
        if let Some(Event::Open { .. }) = cursor.next().transpose()? {
            cursor.skip_container()?;
        }
    }
    Ok(())
}
