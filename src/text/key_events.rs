//! Reading a dictionary's keys in one forward pass, for the sort forms built of them.
//!
//! The keys are parts of the value's [`Tape`](crate::view::Tape): a [`KeyVisitor`] sees each value
//! inside a key with its depth below the key and says whether to go into a container or pass
//! over it (O(1): the tape knows where it ends). The
//! dictionary's values are not read at all. O(the parts visited), a heap stack of one entry per
//! open container, no recursion.

use alloc::vec::Vec;

use crate::VariantRef;
use crate::view::tape::{Children, Part};
use crate::wire::error::Result;

/// What to do after a value.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Visit {
    /// Read the container's values next (a leaf has none: same as [`Visit::Pass`]).
    Enter,
    /// Pass over the container without reading its values.
    Pass,
}

/// What a pass over the keys builds.
pub(super) trait KeyVisitor<'a> {
    /// The next key begins.
    fn key(&mut self);
    /// A value `depth` levels below the key (0: the key itself).
    ///
    /// # Errors
    /// A malformed part of the value (strings of a `NodePath` or `PackedStringArray`).
    fn value(&mut self, value: VariantRef<'a>, depth: usize) -> Result<Visit>;
    /// The innermost container entered has no more values.
    fn close(&mut self);
}

/// Shows every key in `keys` to `visitor`, in order, with what is inside each key as far as the
/// visitor enters it. O(the parts visited): containers passed over are not read.
pub(super) fn visit_keys<'t, 'a>(
    keys: &[Part<'t, 'a>],
    visitor: &mut impl KeyVisitor<'a>,
) -> Result<()> {
    let mut open: Vec<Children<'t, 'a>> = Vec::new();
    for key in keys {
        visitor.key();
        open.clear();
        let mut next = Some(*key);
        loop {
            let part = match next.take() {
                Some(part) => part,
                None => match open.last_mut().map(Iterator::next) {
                    Some(Some(part)) => part,
                    Some(None) => {
                        open.pop();
                        visitor.close();
                        continue;
                    }
                    None => break,
                },
            };
            // A full object's property names: objects are passed over, never entered.
            if part.name().is_some() {
                continue;
            }
            let value = part.value();
            let container = matches!(
                value,
                VariantRef::Array(_)
                    | VariantRef::Dictionary(_)
                    | VariantRef::Object(crate::view::ObjectRef::Full(_))
            );
            if visitor.value(value, open.len())? == Visit::Enter && container {
                open.push(part.children());
            }
        }
    }
    Ok(())
}
