//! Encoding: what the codecs write ([`Encoder`] impls), [`Build`] for values written in place,
//! and [`SendError`].

use core::fmt;

use bytes::{Bytes, BytesMut};
use tokio_util::codec::Encoder;

use super::datagram::DatagramCodec;
use super::packet::Packet;
use super::stream::FrameCodec;
use crate::encoder::{EncodeError, EncodeOptions, Output, Writer};
use crate::framing::{FrameError, FrameErrorKind, LengthPrefix, PREFIX_LEN, WriteError};
use crate::owned::Variant;

/// A value written in place by a codec: the closure gets a [`Writer`] whose output is the
/// codec's buffer, right after the reserved length prefix. No intermediate buffer, no copy.
/// Make one with [`Build::new`], which lets the closure's argument type be inferred.
///
/// ```
/// use bytes::BytesMut;
/// use gdvariant::framing::LengthPrefix;
/// use gdvariant::net::{Build, FrameCodec};
/// use gdvariant::Options;
/// use tokio_util::codec::{Decoder, Encoder};
///
/// let mut codec = FrameCodec::new(LengthPrefix::stream_peer(false), Options::godot4());
/// let mut out = BytesMut::new();
/// codec.encode(Build::new(|w| {
///     w.begin_array(2)?;
///     w.string("move")?;
///     w.int(3)
/// }), &mut out)?;
/// let packet = codec.decode(&mut out)?.unwrap().unwrap();
/// assert_eq!(packet.value().as_array().unwrap().len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Build<F>(pub F);

impl<F> Build<F>
where
    F: FnOnce(&mut BuildWriter<'_>) -> Result<(), EncodeError>,
{
    /// The value `write` writes.
    pub fn new(write: F) -> Self {
        Build(write)
    }
}

impl<F> fmt::Debug for Build<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Build(..)")
    }
}

/// Why a codec could not write an item.
#[derive(Debug)]
#[non_exhaustive]
pub enum SendError {
    /// The value could not be encoded (nothing of it stays in the output).
    Encode(EncodeError),
    /// The frame is over the size limit ([`FrameErrorKind::TooLarge`], at its offset in the
    /// output stream); nothing of it stays in the output.
    Frame(FrameError),
    /// Writing to the transport failed.
    Io(std::io::Error),
}

impl fmt::Display for SendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SendError::Encode(error) => write!(f, "cannot encode the value: {error}"),
            SendError::Frame(error) => error.fmt(f),
            SendError::Io(error) => write!(f, "I/O error: {error}"),
        }
    }
}

impl core::error::Error for SendError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            SendError::Encode(error) => Some(error),
            SendError::Frame(error) => Some(error),
            SendError::Io(error) => Some(error),
        }
    }
}

impl From<std::io::Error> for SendError {
    fn from(error: std::io::Error) -> Self {
        SendError::Io(error)
    }
}

impl From<EncodeError> for SendError {
    fn from(error: EncodeError) -> Self {
        SendError::Encode(error)
    }
}

impl From<FrameError> for SendError {
    fn from(error: FrameError) -> Self {
        SendError::Frame(error)
    }
}

impl From<WriteError> for SendError {
    fn from(error: WriteError) -> Self {
        match error {
            WriteError::Encode(error) => SendError::Encode(error),
            WriteError::Frame(error) => SendError::Frame(error),
        }
    }
}

/// A `BytesMut` grows as needed (amortised O(1) per byte), as a `Vec` does.
impl Output for BytesMut {
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

/// The writer a [`Build`] closure gets.
pub type BuildWriter<'a> = Writer<&'a mut BytesMut>;

/// Writes one frame (prefix: `Some`) or packet (`None`) whose value `build` writes in place;
/// on an error `dst` is left as it was. O(bytes written).
fn put_built(
    dst: &mut BytesMut,
    prefix: Option<LengthPrefix>,
    max: u32,
    sent: &mut u64,
    options: EncodeOptions,
    build: impl FnOnce(&mut BuildWriter<'_>) -> Result<(), EncodeError>,
) -> Result<(), SendError> {
    let start = dst.len();
    let head = if prefix.is_some() { PREFIX_LEN } else { 0 };
    if head > 0 {
        dst.extend_from_slice(&[0u8; PREFIX_LEN]);
    }
    let built = {
        let mut writer = Writer::new(&mut *dst, options);
        build(&mut writer).and_then(|()| writer.finish().map(|_| ()))
    };
    let payload = dst.len().saturating_sub(start).saturating_sub(head);
    let result = built.map_err(SendError::from).and_then(|()| {
        let bytes = match prefix {
            Some(prefix) => prefix.encode(payload).map(Some),
            None => check_size(payload, max).map(|()| None),
        };
        let bytes = bytes.map_err(|e| e.offset_by(*sent))?;
        if let Some(bytes) = bytes {
            let slot = dst.get_mut(start..).and_then(|rest| rest.get_mut(..PREFIX_LEN));
            if let Some(slot) = slot {
                slot.copy_from_slice(&bytes);
            }
        }
        Ok(())
    });
    match result {
        Ok(()) => {
            let len = payload.saturating_add(head);
            *sent = sent.saturating_add(u64::try_from(len).unwrap_or(u64::MAX));
            Ok(())
        }
        Err(error) => {
            dst.truncate(start);
            Err(error)
        }
    }
}

/// Writes already encoded `payload`, with a prefix when there is one. O(payload).
fn put_payload(
    dst: &mut BytesMut,
    prefix: Option<LengthPrefix>,
    max: u32,
    sent: &mut u64,
    payload: &[u8],
) -> Result<(), SendError> {
    let head = match prefix {
        Some(prefix) => Some(prefix.encode(payload.len()).map_err(|e| e.offset_by(*sent))?),
        None => {
            check_size(payload.len(), max).map_err(|e| e.offset_by(*sent))?;
            None
        }
    };
    let head: &[u8] = head.as_ref().map_or(&[], |h| h.as_slice());
    dst.reserve(head.len().saturating_add(payload.len()));
    dst.extend_from_slice(head);
    dst.extend_from_slice(payload);
    let len = head.len().saturating_add(payload.len());
    *sent = sent.saturating_add(u64::try_from(len).unwrap_or(u64::MAX));
    Ok(())
}

/// A datagram of `len` bytes against the limit.
fn check_size(len: usize, max: u32) -> Result<(), FrameError> {
    match u32::try_from(len) {
        Ok(len) if len <= max => Ok(()),
        _ => {
            let length = u64::try_from(len).unwrap_or(u64::MAX);
            Err(FrameError::new(0, FrameErrorKind::TooLarge { length, max }))
        }
    }
}

/// The framing a codec writes with.
trait Framing {
    /// The prefix (`None` for packets), the size limit, the encode options and the count of
    /// bytes sent.
    fn parts(&mut self) -> (Option<LengthPrefix>, u32, EncodeOptions, &mut u64);
}

impl Framing for FrameCodec {
    fn parts(&mut self) -> (Option<LengthPrefix>, u32, EncodeOptions, &mut u64) {
        (Some(self.prefix), self.prefix.max_frame_size(), self.encode, &mut self.sent)
    }
}

impl Framing for DatagramCodec {
    fn parts(&mut self) -> (Option<LengthPrefix>, u32, EncodeOptions, &mut u64) {
        (None, self.max_size, self.encode, &mut self.sent)
    }
}

/// The [`Encoder`] impls shared by both codecs.
macro_rules! encoders {
    ($codec:ty) => {
        /// Encodes an owned value. O(value).
        impl Encoder<&Variant> for $codec {
            type Error = SendError;
            fn encode(&mut self, item: &Variant, dst: &mut BytesMut) -> Result<(), SendError> {
                let (prefix, max, options, sent) = self.parts();
                put_built(dst, prefix, max, sent, options, |w| w.value(item))
            }
        }

        /// Encodes an owned value. O(value).
        impl Encoder<Variant> for $codec {
            type Error = SendError;
            fn encode(&mut self, item: Variant, dst: &mut BytesMut) -> Result<(), SendError> {
                self.encode(&item, dst)
            }
        }

        /// Writes a received packet's payload as it came (framed with this codec's prefix).
        /// O(payload).
        impl Encoder<&Packet> for $codec {
            type Error = SendError;
            fn encode(&mut self, item: &Packet, dst: &mut BytesMut) -> Result<(), SendError> {
                let (prefix, max, _, sent) = self.parts();
                put_payload(dst, prefix, max, sent, item.payload())
            }
        }

        /// Writes a received packet's payload as it came (framed with this codec's prefix).
        /// O(payload).
        impl Encoder<Packet> for $codec {
            type Error = SendError;
            fn encode(&mut self, item: Packet, dst: &mut BytesMut) -> Result<(), SendError> {
                self.encode(&item, dst)
            }
        }

        /// Writes already encoded value bytes as given (not checked). O(payload).
        impl Encoder<&[u8]> for $codec {
            type Error = SendError;
            fn encode(&mut self, item: &[u8], dst: &mut BytesMut) -> Result<(), SendError> {
                let (prefix, max, _, sent) = self.parts();
                put_payload(dst, prefix, max, sent, item)
            }
        }

        /// Writes already encoded value bytes as given (not checked). O(payload).
        impl Encoder<Bytes> for $codec {
            type Error = SendError;
            fn encode(&mut self, item: Bytes, dst: &mut BytesMut) -> Result<(), SendError> {
                self.encode(&item[..], dst)
            }
        }

        /// Writes the value the closure builds, in place. O(bytes written).
        impl<F> Encoder<Build<F>> for $codec
        where
            F: FnOnce(&mut BuildWriter<'_>) -> Result<(), EncodeError>,
        {
            type Error = SendError;
            fn encode(&mut self, item: Build<F>, dst: &mut BytesMut) -> Result<(), SendError> {
                let (prefix, max, options, sent) = self.parts();
                put_built(dst, prefix, max, sent, options, item.0)
            }
        }
    };
}

encoders!(FrameCodec);
encoders!(DatagramCodec);
