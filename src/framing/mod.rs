//! Length-prefixed frames: `FileAccess.store_var` / `get_var`, `StreamPeer.put_var` /
//! `get_var`, `PacketPeerStream`.
//!
//! A frame is a u32 length, then that many bytes holding one encoded value (the bytes of
//! `var_to_bytes`). The length's byte order and sign depend on the Godot API (see
//! [`LengthPrefix`]); the value bytes are always little-endian. `var_to_bytes` and
//! `PacketPeer.put_var` write no prefix: read those with [`crate::parse`] directly.
//!
//! ```
//! use gdvariant::framing::{self, LengthPrefix};
//! use gdvariant::Options;
//!
//! // Godot 4.6: FileAccess.store_var(v) for 1, "hello", Vector2(1, 2), [1, 2, 3], ...
//! let dump = include_bytes!("../../corpus/godot4/stream_file_store_var.bin");
//!
//! let mut frames = framing::frames(dump, LengthPrefix::store_var(false), Options::godot4());
//! let first = frames.next().unwrap()?;
//! assert_eq!((first.offset(), first.value().as_int()), (0, Some(1)));
//! let second = frames.next().unwrap()?;
//! assert_eq!(second.offset(), 4 + 8);
//! assert_eq!(second.value().as_gd_str().unwrap().to_str()?, "hello");
//! assert_eq!(frames.count(), 9);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## What is checked where
//!
//! | step | checks | when it fails |
//! | --- | --- | --- |
//! | the prefix | 4 bytes present; not negative ([`LengthPrefix::stream_peer`]); at most [`LengthPrefix::max_frame_size`] | [`FrameErrorKind::Incomplete`], [`FrameErrorKind::NegativeLength`], [`FrameErrorKind::TooLarge`]: the input cannot go on, iteration ends |
//! | the payload | all the declared bytes present | [`FrameErrorKind::Incomplete`] with the bytes missing, iteration ends |
//! | the value ([`Frame`] only, not [`RawFrame`]) | everything [`crate::validate`] checks, within the payload | [`FrameErrorKind::Value`], iteration goes on with the next frame |
//!
//! The limit is checked first, before anything is read or allocated for the payload.
//! A payload longer than its value is accepted (Godot ignores the trailing bytes:
//! [`Frame::trailing_bytes`]); one shorter than its value, or empty, fails as a value.
//! Every error carries the absolute offset of the frame (its prefix) in the buffer or stream,
//! and a [`FrameErrorKind::Value`] error's inner [`Error`](crate::Error) the absolute offset of
//! the problem.
//!
//! ## Operations and costs
//!
//! | you have | call | cost |
//! | --- | --- | --- |
//! | a whole dump in memory | [`frames`] (checked) / [`raw_frames`] | O(frame) / O(1) per frame, no allocation |
//! | a dump that may be damaged, read past every bad frame | [`scan`] (and [`resync`]; [`raw_scan`] leaves each value to check, on any thread) | O(frame) per good frame; the searches after bad prefixes O(n) in all |
//! | counts per type, largest and deepest frames | [`FrameStats`] | O(1) per frame, fixed size |
//! | a receive buffer that may hold part of a frame | [`read_frame`] (checked) / [`split_frame`] | O(frame) / O(1) |
//! | the same, at an absolute stream offset, with how many bytes a bad frame takes | [`receive`] | O(1) while incomplete, O(frame) once complete |
//! | a file or socket larger than memory (`std`) | [`FrameReader`] | O(frame) per frame; one buffer of at most [`LengthPrefix::max_frame_size`] + 4 bytes |
//! | values to frame | [`write_frame`] (a slice), [`append_frame`] (a `Vec`, `alloc`), [`FrameWriter`] (an `io::Write`, `std`) | O(payload) |
//! | a value to build straight into a frame (prefix reserved, then patched) | [`write_frame_with`] (a slice), [`append_frame_with`] (a `Vec`, `alloc`) | O(bytes written) |
//! | async streams and datagrams (tokio) | `gdvariant::net` (feature `tokio`) | as [`receive`] |
//!
//! Writers frame bytes that are already encoded, and do not check them.
//!
//! ## Differences from Godot's readers
//!
//! Godot's `get_var` allocates whatever the prefix says (up to 4 GiB); here a prefix over
//! [`LengthPrefix::max_frame_size`] (default [`DEFAULT_MAX_FRAME_SIZE`], 16 MiB) is refused.
//! After a negative length, `StreamPeer.get_var` has consumed the prefix and a further call reads
//! the next bytes as a new frame; here iteration ends. Godot 3.2.3's `File.get_var` still
//! decodes a final frame that the file cuts short (shown by the probe in
//! `corpus/probes/framing`); here it is [`FrameErrorKind::Incomplete`].

mod build;
mod error;
mod frame;
mod frames;
mod prefix;
#[cfg(feature = "std")]
mod reader;
mod receive;
mod scan;
mod stats;
mod write;
#[cfg(feature = "std")]
mod writer;

#[cfg(feature = "alloc")]
pub use build::append_frame_with;
pub use build::{WriteError, write_frame_with};
pub use error::{FrameError, FrameErrorKind};
pub use frame::{Frame, RawFrame};
pub use frames::{Frames, RawFrames, frames, raw_frames, read_frame, split_frame};
pub use prefix::{ByteOrder, DEFAULT_MAX_FRAME_SIZE, LengthPrefix, PREFIX_LEN};
#[cfg(feature = "std")]
pub use reader::FrameReader;
pub use receive::{Received, receive};
pub use scan::{RawScan, Scan, Skipped, raw_scan, resync, scan};
pub use stats::{FrameStats, FrameSummary, LARGEST_KEPT, TypeCount};
#[cfg(feature = "alloc")]
pub use write::append_frame;
pub use write::{frame_len, write_frame};
#[cfg(feature = "std")]
pub use writer::FrameWriter;
