//! Length-prefixed frames (`store_var`, `StreamPeer.put_var`, `PacketPeerStream`), on the real
//! engines' stream captures:
//!
//! * every stream of both engines reads as exactly the manifest's frames and values, through the
//!   buffer iterators, `read_frame` fed chunk by chunk, and the `io::Read` reader (also one byte
//!   at a time, and with `Interrupted` and `WouldBlock` in between);
//! * the writers rebuild every stream byte for byte from its payloads, and big-endian prefixes
//!   round-trip; Godot 3.2.3's own big-endian captures (`corpus/probes/framing`) read back, and
//!   Godot's reader verdicts on odd prefixes (`verdicts.txt`) are matched;
//! * every truncation yields the frames before the cut, then `Incomplete` with the exact number
//!   of missing bytes; corrupt values are reported at their absolute offset without losing a
//!   frame; oversized and negative prefixes are refused before anything is read or allocated for
//!   them; zero-length frames; the slice writer reports a full output without writing.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[path = "../common/mod.rs"]
mod common;

use std::io::{self, Read, Write};
use std::path::Path;

use common::*;
use gdvariant::framing::{
    self, ByteOrder, DEFAULT_MAX_FRAME_SIZE, Frame, FrameError, FrameErrorKind, FrameReader,
    FrameWriter, LengthPrefix,
};
use gdvariant::{ErrorKind, Options, Version};
use serde_json::Value;

const VERSIONS: [Version; 2] = [Version::Godot3, Version::Godot4];

/// One stream capture of a corpus.
struct Stream {
    version: Version,
    name: String,
    bytes: Vec<u8>,
    prefix: LengthPrefix,
    options: Options,
    sizes: Vec<usize>,
    expected: Vec<Value>,
}

impl Stream {
    /// Offsets of the frames' prefixes, and the end of the stream.
    fn boundaries(&self) -> Vec<usize> {
        let mut at = vec![0];
        for size in &self.sizes {
            at.push(at.last().unwrap() + 4 + size);
        }
        at
    }

    /// The frames' payloads, cut by the manifest's sizes.
    fn payloads(&self) -> Vec<&[u8]> {
        let at = self.boundaries();
        self.sizes
            .iter()
            .zip(&at)
            .map(|(size, start)| &self.bytes[start + 4..start + 4 + size])
            .collect()
    }
}

/// The prefix Godot's API of a stream kind writes (no byte-order flag set).
fn prefix_of(kind: &str) -> LengthPrefix {
    match kind {
        "file_store_var" => LengthPrefix::store_var(false),
        "streampeer_put_var" => LengthPrefix::stream_peer(false),
        "packetpeerstream_put_var" => LengthPrefix::packet_peer_stream(),
        other => panic!("unknown stream kind {other}"),
    }
}

/// Every stream capture of both engines.
fn streams() -> Vec<Stream> {
    let mut out = Vec::new();
    for version in VERSIONS {
        for case in manifest(version).iter().filter(|c| c["type"] == "stream") {
            let name = case["name"].as_str().unwrap().to_owned();
            out.push(Stream {
                version,
                bytes: corpus(version, &name),
                prefix: prefix_of(case["kind"].as_str().unwrap()),
                options: options_for(version, case["full_objects"] == true),
                sizes: case["item_encoded_sizes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_u64().unwrap() as usize)
                    .collect(),
                expected: case["expected_items"].as_array().unwrap().clone(),
                name,
            });
        }
    }
    assert_eq!(out.len(), 7, "three stream kinds per engine, plus Godot 3's full-object stream");
    out
}

/// Checks the `i`-th frame read from a stream against the stream's bytes and manifest entry.
fn check_frame(stream: &Stream, how: &str, i: usize, frame: Frame<'_>) {
    let at = stream.boundaries();
    let what = format!("{:?} {} [{i}] ({how})", stream.version, stream.name);
    assert!(i < stream.sizes.len(), "{what}: more frames than the manifest");
    assert_eq!(frame.offset(), at[i] as u64, "{what}: offset");
    assert_eq!(frame.payload_offset(), at[i] as u64 + 4, "{what}: payload offset");
    assert_eq!(frame.payload().len(), stream.sizes[i], "{what}: frame length");
    assert_eq!(frame.raw_bytes(), &stream.bytes[at[i]..at[i + 1]], "{what}: raw bytes");
    assert_eq!(frame.element().len(), stream.sizes[i], "{what}: the value fills the frame");
    assert!(frame.trailing_bytes().is_empty(), "{what}: trailing bytes");
    let ours = describe(frame.value(), stream.version);
    let theirs = normalize(&stream.expected[i], stream.version);
    if let Some(difference) = first_difference(&ours, &theirs, &what) {
        panic!("{difference}");
    }
}

/// Checks all the frames read from a stream: [`check_frame`] on each, and their number.
fn check_frames<'a>(stream: &Stream, how: &str, frames: impl IntoIterator<Item = Frame<'a>>) {
    let mut count = 0;
    for (i, frame) in frames.into_iter().enumerate() {
        check_frame(stream, how, i, frame);
        count += 1;
    }
    assert_eq!(count, stream.sizes.len(), "{} ({how}): frame count", stream.name);
}

/// Checks frames copied out of a reader ([`read_all`]): laid back to back at their offsets,
/// they must read as the stream's frames.
fn check_owned_frames(stream: &Stream, how: &str, owned: &[(u64, Vec<u8>)]) {
    let mut joined = Vec::new();
    for (offset, bytes) in owned {
        assert_eq!(*offset, joined.len() as u64, "{} ({how}): frames are contiguous", stream.name);
        joined.extend_from_slice(bytes);
    }
    check_frames(
        stream,
        how,
        framing::frames(&joined, stream.prefix, stream.options).map(Result::unwrap),
    );
}

/// Collects a reader's frames as owned copies (prefix offset, frame bytes).
fn read_all<R: Read>(reader: &mut FrameReader<R>) -> Result<Vec<(u64, Vec<u8>)>, FrameError> {
    let mut out = Vec::new();
    while let Some(frame) = reader.next_frame() {
        let frame = frame?;
        out.push((frame.offset(), frame.raw_bytes().to_vec()));
    }
    Ok(out)
}

mod damaged;
mod errors;
mod godot3_captures;
mod hostile_lengths;
mod streams;
mod support;
mod writer_edges;
mod writers;

use support::*;
