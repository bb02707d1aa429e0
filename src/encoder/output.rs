//! [`Output`]: where encoded bytes go, and [`SliceOutput`], a fixed buffer.

use super::EncodeError;

/// Somewhere encoded bytes can be appended: a `Vec<u8>` (feature `alloc`), a [`SliceOutput`], or
/// a type of your own.
pub trait Output {
    /// Appends `bytes`, entirely or not at all.
    ///
    /// # Errors
    /// [`EncodeError::OutputFull`] when they do not fit.
    fn write(&mut self, bytes: &[u8]) -> Result<(), EncodeError>;

    /// Bytes appended so far.
    fn written(&self) -> usize;
}

#[cfg(feature = "alloc")]
impl Output for alloc::vec::Vec<u8> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        self.extend_from_slice(bytes);
        Ok(())
    }

    #[inline]
    fn written(&self) -> usize {
        self.len()
    }
}

impl<O: Output + ?Sized> Output for &mut O {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        (**self).write(bytes)
    }

    #[inline]
    fn written(&self) -> usize {
        (**self).written()
    }
}

/// A fixed buffer to encode into: fills `buf` from the start and fails with
/// [`EncodeError::OutputFull`] (never panics) when a write does not fit.
#[derive(Debug)]
pub struct SliceOutput<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> SliceOutput<'a> {
    /// An empty output over `buf`.
    pub fn new(buf: &'a mut [u8]) -> Self {
        SliceOutput { buf, len: 0 }
    }

    /// The bytes written so far.
    pub fn as_bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }

    /// The bytes written so far, releasing the buffer.
    pub fn into_bytes(self) -> &'a mut [u8] {
        let len = self.len;
        self.buf.get_mut(..len).unwrap_or(&mut [])
    }
}

impl Output for SliceOutput<'_> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        let capacity = self.buf.len();
        let full =
            || EncodeError::OutputFull { needed: self.len.saturating_add(bytes.len()), capacity };
        let end = self.len.checked_add(bytes.len()).ok_or_else(full)?;
        let target = self.buf.get_mut(self.len..end).ok_or_else(full)?;
        target.copy_from_slice(bytes);
        self.len = end;
        Ok(())
    }

    fn written(&self) -> usize {
        self.len
    }
}
