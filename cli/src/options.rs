//! From arguments to the library's options: the Godot version (explicit, or detected), and the
//! length prefix of framed input.

use gdvariant::detect::Verdict;
use gdvariant::framing::LengthPrefix;
use gdvariant::{Options, Version};

use crate::failure::Failure;
use crate::{DecodeArgs, FrameArgs, Godot, PrefixKind};

/// The options to decode `bytes` with: the explicit version, or the detected one.
pub fn decode_options(args: DecodeArgs, name: &str, bytes: &[u8]) -> Result<Options, Failure> {
    let version = match args.godot {
        Godot::Three => Version::Godot3,
        Godot::Four => Version::Godot4,
        Godot::Auto => detected(name, bytes)?,
    };
    Ok(Options::new(version).with_allow_objects(args.allow_objects))
}

/// The version that accepts one value's bytes (Godot 4 when both do and the bytes cannot tell),
/// or why neither does: one reason when both versions give the same one (an empty file is
/// refused with the same words with or without `--godot`), else each version's.
fn detected(name: &str, bytes: &[u8]) -> Result<Version, Failure> {
    let detection = gdvariant::detect(bytes);
    if let Some(version) = detection.version() {
        return Ok(version);
    }
    Err(match (detection.godot3_error(), detection.godot4_error()) {
        (Some(godot3), Some(godot4)) if godot3 == godot4 => Failure::input(name, godot3),
        (Some(godot3), Some(godot4)) => Failure::input(
            name,
            format_args!("invalid as Godot 3 bytes: {godot3}; invalid as Godot 4 bytes: {godot4}"),
        ),
        _ => Failure::input(name, detection),
    })
}

/// Frames that `--godot auto` looks at to settle the version of a dump.
const DETECTION_FRAMES: usize = 64;

/// The options for framed input: the explicit version, or the one the first frames settle: the
/// first of the first [`DETECTION_FRAMES`] complete frames that only one version accepts, else
/// the version detected for the first frame either accepts (Godot 4 when the bytes mean the
/// same in both), else Godot 4 (an empty dump, a damaged first prefix, frames neither version
/// accepts: each bad frame is then reported where it is, with its absolute offset).
pub fn frame_options(
    args: DecodeArgs,
    frames: FrameArgs,
    name: &str,
    bytes: &[u8],
) -> Result<Options, Failure> {
    if args.godot != Godot::Auto {
        return decode_options(args, name, bytes);
    }
    let prefix = prefix(frames);
    let mut rest = bytes;
    let mut first_accepted = None;
    for _ in 0..DETECTION_FRAMES {
        let Ok((frame, len)) = gdvariant::framing::split_frame(rest, prefix) else { break };
        let detection = gdvariant::detect(frame.payload());
        match detection.verdict() {
            Verdict::Godot3Only | Verdict::Godot4Only => {
                first_accepted = detection.version();
                break;
            }
            _ => first_accepted = first_accepted.or(detection.version()),
        }
        rest = rest.get(len.max(1)..).unwrap_or(&[]);
    }
    let version = first_accepted.unwrap_or(Version::Godot4);
    Ok(Options::new(version).with_allow_objects(args.allow_objects))
}

/// The length prefix the arguments name.
pub fn prefix(args: FrameArgs) -> LengthPrefix {
    match args.prefix {
        PrefixKind::StoreVar => LengthPrefix::store_var(args.big_endian),
        PrefixKind::StreamPeer => LengthPrefix::stream_peer(args.big_endian),
        PrefixKind::PacketPeerStream => LengthPrefix::packet_peer_stream(),
    }
}
