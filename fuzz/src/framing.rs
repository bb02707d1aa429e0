//! `framing`: the in-memory frame iterator and the streaming reader agree.
//!
//! The first input byte picks the length prefix (`store_var` little- or big-endian,
//! `stream_peer` little- or big-endian (signed), `packet_peer_stream`), a frame size limit
//! (the default or 64 bytes) and the reader settings; the second seeds the read sizes. The rest
//! is the stream. [`frames`] over the whole buffer and a [`FrameReader`] fed by a reader that
//! hands out a few bytes at a time (sometimes failing with `Interrupted`, which the reader
//! retries, or `WouldBlock`, after which it is called again and resumes) must yield the same
//! sequence: the same frames (offset, bytes, value type, trailing bytes) and the same errors,
//! ending at the same place. [`raw_frames`] yields the same frames without looking at values,
//! and every frame and error offset lies inside the stream.

use std::io::{self, Read};

use gdvariant::framing::{
    FrameError, FrameErrorKind, FrameReader, LengthPrefix, frames, raw_frames,
};

use super::options;

/// A frame as both readers report it, for comparison.
#[derive(Debug, PartialEq)]
enum Seen {
    Frame { offset: u64, raw: Vec<u8>, ty: gdvariant::VariantType, trailing: usize },
    Error(FrameError),
}

/// A reader that hands out the stream in small pieces, with interruptions.
struct Trickle<'a> {
    data: &'a [u8],
    state: u64,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // xorshift: the read sizes and failures follow from the seed.
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        match self.state % 16 {
            0 => return Err(io::ErrorKind::Interrupted.into()),
            1 => return Err(io::ErrorKind::WouldBlock.into()),
            _ => {}
        }
        let n = ((self.state >> 8) % 9) as usize;
        let n = n.max(1).min(buf.len()).min(self.data.len());
        let (now, later) = self.data.split_at(n);
        buf[..n].copy_from_slice(now);
        self.data = later;
        Ok(n)
    }
}

/// The length prefix picked by `selector`.
fn prefix(selector: u8) -> LengthPrefix {
    let prefix = match selector % 5 {
        0 => LengthPrefix::store_var(false),
        1 => LengthPrefix::store_var(true),
        2 => LengthPrefix::stream_peer(false),
        3 => LengthPrefix::stream_peer(true),
        _ => LengthPrefix::packet_peer_stream(),
    };
    if selector / 5 % 2 == 1 { prefix.with_max_frame_size(64) } else { prefix }
}

/// The target.
pub fn check(data: &[u8]) {
    let [selector, seed, stream @ ..] = data else { return };
    let prefix = prefix(*selector);
    let options = options::all()[usize::from(*selector / 10 % 4)];

    let from_buffer: Vec<Seen> = frames(stream, prefix, options)
        .map(|frame| match frame {
            Ok(f) => Seen::Frame {
                offset: f.offset(),
                raw: f.raw_bytes().to_vec(),
                ty: f.variant_type(),
                trailing: f.trailing_bytes().len(),
            },
            Err(e) => Seen::Error(e),
        })
        .collect();

    let mut reader = FrameReader::new(
        Trickle { data: stream, state: u64::from(*seed) | 1 << 32 },
        prefix,
        options,
    );
    let mut from_reader = Vec::new();
    // Every call either makes progress or is a `WouldBlock`; the bound only guards the test.
    for _ in 0..stream.len() * 4 + 64 {
        match reader.next_frame() {
            None => break,
            Some(Ok(f)) => from_reader.push(Seen::Frame {
                offset: f.offset(),
                raw: f.raw_bytes().to_vec(),
                ty: f.variant_type(),
                trailing: f.trailing_bytes().len(),
            }),
            Some(Err(e)) if e.kind() == FrameErrorKind::Io(io::ErrorKind::WouldBlock) => {}
            Some(Err(e)) => from_reader.push(Seen::Error(e)),
        }
    }
    assert!(reader.next_frame().is_none(), "the reader did not finish");
    assert_eq!(from_buffer, from_reader, "frames() and FrameReader disagree");

    // Without values: the same frames, and the same errors but for value errors.
    let raw: Vec<(u64, usize)> = raw_frames(stream, prefix)
        .map_while(Result::ok)
        .map(|f| (f.offset(), f.raw_bytes().len()))
        .collect();
    let checked: Vec<(u64, usize)> = from_buffer
        .iter()
        .filter_map(|seen| match seen {
            Seen::Frame { offset, raw, .. } => Some((*offset, raw.len())),
            Seen::Error(e) => match e.kind() {
                FrameErrorKind::Value(_) => {
                    let raw = raw_frames(&stream[e.offset() as usize..], prefix).next();
                    Some((e.offset(), raw.and_then(Result::ok).map_or(0, |r| r.raw_bytes().len())))
                }
                _ => None,
            },
        })
        .collect();
    assert_eq!(raw, checked, "raw_frames and frames() disagree");

    for seen in &from_buffer {
        match seen {
            Seen::Frame { offset, raw, .. } => {
                assert!(*offset as usize + raw.len() <= stream.len(), "frame past the stream");
            }
            Seen::Error(e) => {
                assert!(e.offset() as usize <= stream.len(), "error offset past the stream");
                if let FrameErrorKind::Value(inner) = e.kind() {
                    options::assert_offset_inside(&inner, stream, "frame value");
                }
            }
        }
    }
}
