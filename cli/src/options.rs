//! From arguments to the library's options: the Godot version (explicit, or detected), and the
//! length prefix of framed input.

use gdvariant::framing::LengthPrefix;
use gdvariant::{Options, Version};

use crate::failure::Failure;
use crate::{DecodeArgs, FrameArgs, Godot, PrefixKind};

/// The options to decode `bytes` with: the explicit version, or the detected one.
pub fn decode_options(args: DecodeArgs, name: &str, bytes: &[u8]) -> Result<Options, Failure> {
    let version = match args.godot {
        Godot::Three => Version::Godot3,
        Godot::Four => Version::Godot4,
        Godot::Auto => detected(bytes).ok_or_else(|| {
            Failure::input(name, "cannot tell Godot 3 from Godot 4 bytes; give --godot 3 or 4")
        })?,
    };
    Ok(Options::new(version).with_allow_objects(args.allow_objects))
}

/// The version detected from one value's bytes.
fn detected(bytes: &[u8]) -> Option<Version> {
    gdvariant::detect(bytes).version()
}

/// The options for framed input: the explicit version, or the one detected from the first
/// frame's value.
pub fn frame_options(
    args: DecodeArgs,
    frames: FrameArgs,
    name: &str,
    bytes: &[u8],
) -> Result<Options, Failure> {
    if args.godot != Godot::Auto {
        return decode_options(args, name, bytes);
    }
    let payload = gdvariant::framing::split_frame(bytes, prefix(frames))
        .map(|(frame, _)| frame.payload())
        .unwrap_or(&[]);
    decode_options(args, name, payload)
}

/// The length prefix the arguments name.
pub fn prefix(args: FrameArgs) -> LengthPrefix {
    match args.prefix {
        PrefixKind::StoreVar => LengthPrefix::store_var(args.big_endian),
        PrefixKind::StreamPeer => LengthPrefix::stream_peer(args.big_endian),
        PrefixKind::PacketPeerStream => LengthPrefix::packet_peer_stream(),
    }
}
