//! [`ByteCount`]: an [`Output`] that only counts, for the writers' measuring pass (a size or an
//! offset written before what it measures).

use gdvariant::{encoder::EncodeError, encoder::Output};

/// Counts the bytes written to it and keeps none. O(1) per write; never full.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ByteCount(pub(crate) usize);

impl Output for ByteCount {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        self.0 = self.0.saturating_add(bytes.len());
        Ok(())
    }

    #[inline]
    fn written(&self) -> usize {
        self.0
    }
}
