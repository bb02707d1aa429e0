//! From arguments to the library's options: the Godot version (explicit, or detected), and the
//! length prefix of framed input; and the words for input that is not what the command reads
//! (empty, another kind of file, a single value given as a dump).

use gdvariant::detection::{Detection, Foreign, Verdict};
use gdvariant::framing::{ByteOrder, FrameError, FrameErrorKind, LengthPrefix};
use gdvariant::{Options, VariantType, Version};

use crate::failure::{self, Failure};
use crate::{DecodeArgs, FrameArgs, Godot, PrefixKind};

/// The options to decode `bytes` with: the explicit version, or the detected one. Empty input
/// is refused with the same words either way.
pub fn decode_options(args: DecodeArgs, name: &str, bytes: &[u8]) -> Result<Options, Failure> {
    if bytes.is_empty() {
        return Err(Failure::input(name, Foreign::Empty));
    }
    let version = match args.godot {
        Godot::Three => Version::Godot3,
        Godot::Four => Version::Godot4,
        Godot::Auto => detected(name, bytes)?,
    };
    Ok(Options::new(version).with_allow_objects(args.allow_objects))
}

/// Checks one value as Godot's decoder does; when it is refused and the bytes look like
/// something else (a PNG, text, ...), the refusal says what (a value Godot reads is never
/// looked at).
/// When the other version reads the bytes, a hint line follows ([`version_hint`]).
pub fn check_value(name: &str, bytes: &[u8], options: Options) -> Result<(), Failure> {
    gdvariant::validate(bytes, options).map_err(|error| {
        let mut message = refusal(name, bytes, error);
        if let Some(hint) = version_hint("these bytes", bytes, options) {
            message.push('\n');
            message.push_str(&hint);
        }
        Failure::Input(message)
    })
}

/// [`check_value`] without the hint: one line (`validate`, whose output is a line per refused
/// file, against the version it was asked about).
pub fn check_value_alone(name: &str, bytes: &[u8], options: Options) -> Result<(), Failure> {
    gdvariant::validate(bytes, options).map_err(|error| Failure::Input(refusal(name, bytes, error)))
}

/// `NAME: why` for bytes refused with `error`: what they look like when that can be told, else
/// the error.
fn refusal(name: &str, bytes: &[u8], error: gdvariant::Error) -> String {
    match gdvariant::detection::foreign(bytes) {
        Some(foreign) => format!("{name}: {foreign}"),
        None => format!("{name}: {error}"),
    }
}

/// `hint: WHAT read as Godot N: try --godot N`, when `options` refuse `bytes` and the other
/// version accepts them ([`gdvariant::detection::other_version`]).
fn version_hint(what: &str, bytes: &[u8], options: Options) -> Option<String> {
    let other = gdvariant::detection::other_version(bytes, options)?;
    let argument = match other {
        Version::Godot3 => "3",
        Version::Godot4 => "4",
    };
    Some(format!("hint: {what} read as {other}: try --godot {argument}"))
}

/// The version that accepts one value's bytes (Godot 4 when both do and the bytes cannot tell),
/// or why neither does: what the bytes look like when they are another kind of file or text;
/// else one reason when both versions give the same one, else each version's, the one whose
/// reading got further first ([`gdvariant::detection::Detection::refusals`]).
fn detected(name: &str, bytes: &[u8]) -> Result<Version, Failure> {
    let detection = gdvariant::detect(bytes);
    if let Some(version) = detection.version() {
        return Ok(version);
    }
    if let Some(foreign) = detection.foreign() {
        return Err(Failure::input(name, foreign));
    }
    Err(match detection.refusals() {
        Some([(_, first), (_, second)]) if first == second => Failure::input(name, first),
        Some([(first, first_error), (second, second_error)]) => Failure::input(
            name,
            format_args!(
                "invalid as {first} bytes: {first_error}; invalid as {second} bytes: \
                 {second_error}"
            ),
        ),
        None => Failure::input(name, detection),
    })
}

/// Frames that `--godot auto` looks at to settle the version of a dump.
const DETECTION_FRAMES: usize = 64;

/// The options for framed input: the explicit version, or the one the first frames settle: the
/// first of the first [`DETECTION_FRAMES`] complete frames that only one version accepts, else
/// the version detected for the first frame either accepts (Godot 4 when the bytes mean the
/// same in both), else Godot 4 (a damaged first prefix, frames neither version accepts: each
/// bad frame is then reported where it is, with its absolute offset).
///
/// Input that is not framed is refused first ([`not_framed`]), and a first frame that looks
/// like a single value read as a frame gets a warning ([`first_frame_warning`]).
pub fn frame_options(
    args: DecodeArgs,
    frames: FrameArgs,
    name: &str,
    bytes: &[u8],
) -> Result<Options, Failure> {
    let prefix = prefix(frames);
    not_framed(frames, prefix, name, bytes)?;
    let options = if args.godot == Godot::Auto {
        let version = detected_in_frames(bytes, prefix).unwrap_or(Version::Godot4);
        Options::new(version).with_allow_objects(args.allow_objects)
    } else {
        decode_options(args, name, bytes)?
    };
    if let Some(warning) = first_frame_warning(bytes, prefix, options) {
        failure::error_line(format_args!("{name}: warning: {warning}"));
    }
    if args.godot != Godot::Auto
        && let Ok((first, _)) = gdvariant::framing::split_frame(bytes, prefix)
        && let Some(hint) = version_hint("frame 0's bytes", first.payload(), options)
    {
        failure::error_line(format_args!("{name}: {hint}"));
    }
    Ok(options)
}

/// The version the first frames settle (see [`frame_options`]), if any.
fn detected_in_frames(bytes: &[u8], prefix: LengthPrefix) -> Option<Version> {
    let mut rest = bytes;
    let mut first_accepted = None;
    for _ in 0..DETECTION_FRAMES {
        let Ok((frame, len)) = gdvariant::framing::split_frame(rest, prefix) else { break };
        let detection = gdvariant::detect(frame.payload());
        match detection.verdict() {
            Verdict::Godot3Only | Verdict::Godot4Only => return detection.version(),
            _ => first_accepted = first_accepted.or(detection.version()),
        }
        rest = rest.get(len.max(1)..).unwrap_or(&[]);
    }
    first_accepted
}

/// What framed input is called in messages, by its prefix.
fn framed_kind(frames: FrameArgs) -> &'static str {
    match frames.prefix {
        PrefixKind::StoreVar => "a store_var dump",
        PrefixKind::StreamPeer => "a StreamPeer put_var stream",
        PrefixKind::PacketPeerStream => "a PacketPeerStream stream",
    }
}

/// Refuses input that is not framed at all: empty input (no frames), and input whose first frame
/// is already bad (a length prefix no frame can follow: longer than the input or the limit, or
/// negative; or a value neither version accepts) when the bytes look like another kind of file
/// or text, or are exactly one whole Godot value. Input refused here would have been refused at
/// its first frame anyway; only the words differ (and `--skip-bad` does not look for frames in
/// it). O(first frame), plus O(n) (one detection) when the first frame is bad.
fn not_framed(
    frames: FrameArgs,
    prefix: LengthPrefix,
    name: &str,
    bytes: &[u8],
) -> Result<(), Failure> {
    if bytes.is_empty() {
        return Err(Failure::input(name, "empty input: no frames"));
    }
    let stops = match gdvariant::framing::split_frame(bytes, prefix) {
        Err(_) => true,
        Ok((first, _)) => gdvariant::detect(first.payload()).version().is_none(),
    };
    if !stops {
        return Ok(());
    }
    let kind = framed_kind(frames);
    if let Some(foreign) = gdvariant::detection::foreign(bytes) {
        let hint = foreign.hint().map(|hint| format!(" ({hint})")).unwrap_or_default();
        return Err(Failure::input(
            name,
            format_args!("not {kind}: this looks like {}{hint}", foreign.what()),
        ));
    }
    if let Some((version, ty)) = whole_value(bytes, &gdvariant::detect(bytes)) {
        return Err(Failure::input(
            name,
            format_args!(
                "not {kind}: the bytes are one {version} {ty} value, as var_to_bytes writes it \
                 (`gdvariant dump` without --frames reads it)"
            ),
        ));
    }
    Ok(())
}

/// The version and type of the one value `bytes` hold, when a version reads them as exactly one
/// value (every byte, none left over: Godot ignores what follows a value, so a prefix of the
/// input being a value says little). `detection` is `bytes`' own. O(n).
fn whole_value(bytes: &[u8], detection: &Detection) -> Option<(Version, &'static str)> {
    let version = detection.version()?;
    let options = Options::new(version).with_allow_objects(true);
    let value = gdvariant::parse_prefix(bytes, options).ok()?;
    (value.len() == bytes.len()).then(|| (version, type_name(version, detection.type_id())))
}

/// The name of type `id` in `version`, or `value`.
fn type_name(version: Version, id: Option<u8>) -> &'static str {
    id.and_then(|id| VariantType::from_id(version, u32::from(id)))
        .map_or("value", |ty| ty.name(version))
}

/// A warning when the first frame looks like something else read as a frame: its value ends
/// before the frame does (`store_var` and `put_var` write the value's exact length; Godot
/// ignores such bytes, and so do the commands). The warning says what the input looks like
/// instead: another kind of file, or one value whose header was read as a length (then which
/// value the whole input reads as). `None` for real dumps.
/// O(1) unless the first frame has such bytes (then O(n): one detection).
fn first_frame_warning(bytes: &[u8], prefix: LengthPrefix, options: Options) -> Option<String> {
    let (raw, _) = gdvariant::framing::split_frame(bytes, prefix).ok()?;
    let frame = raw.decode(options).ok()?;
    let trailing = frame.trailing_bytes().len();
    if trailing == 0 {
        return None;
    }
    let ty = frame.variant_type().name(options.version());
    let mut warning = format!(
        "frame 0 ends {trailing} bytes after its value ({ty}), which store_var and put_var never \
         write"
    );
    if let Some(foreign) = gdvariant::detection::foreign(bytes) {
        warning.push_str(&format!(": the input looks like {}, not a dump", foreign.what()));
        return Some(warning);
    }
    let detection = gdvariant::detect(bytes);
    let header = if prefix.byte_order() == ByteOrder::LittleEndian {
        let id = detection.type_id().unwrap_or(0);
        format!(" (its header, type id {id}, was read as the frame's length)")
    } else {
        String::new()
    };
    if let Some((version, whole)) = whole_value(bytes, &detection) {
        warning.push_str(&format!(
            ": the input is one {version} {whole} value, not a dump{header}; `gdvariant dump` \
             without --frames reads it"
        ));
    } else if let Some([(version, error), _]) = detection.refusals()
        && detection.type_id().and_then(|id| VariantType::from_id(version, u32::from(id))).is_some()
    {
        let whole = type_name(version, detection.type_id());
        warning.push_str(&format!(
            ": the input looks like one {version} {whole} value cut short, not a dump{header}; \
             as one value: {error}"
        ));
    }
    Some(warning)
}

/// A frame error in words; a length over the limit names the option that sets it.
pub fn frame_error(error: &FrameError) -> String {
    match error.kind() {
        FrameErrorKind::TooLarge { .. } => format!("{error} (set by --max-frame-len)"),
        _ => error.to_string(),
    }
}

/// The length prefix the arguments name, with their frame limit.
pub fn prefix(args: FrameArgs) -> LengthPrefix {
    let prefix = match args.prefix {
        PrefixKind::StoreVar => LengthPrefix::store_var(args.big_endian),
        PrefixKind::StreamPeer => LengthPrefix::stream_peer(args.big_endian),
        PrefixKind::PacketPeerStream => LengthPrefix::packet_peer_stream(),
    };
    prefix.with_max_frame_size(args.max_frame_len)
}
