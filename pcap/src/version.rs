//! Which Godot a flow speaks, told per flow from what it carries (the format has no version
//! marker): the rules of the crate docs' "Detection" section, one function per kind of
//! payload. Each is O(the bytes it looks at): a value is validated under both versions
//! ([`gdvariant::detect`]), a multiplayer message's header read and its packet decoded under
//! both (no allocation). The [`Reader`](crate::Reader) applies them to at most
//! [`MAX_LOOKS`] payloads a flow, so detection adds a bounded cost per flow.

use std::borrow::Cow;
use std::collections::VecDeque;

use gdvariant::detection::Verdict;
use gdvariant::framing::{FrameError, FrameErrorKind, LengthPrefix};
use gdvariant::{Options, Version};
use gdvariant_multiplayer::Direction;
use gdvariant_multiplayer::transport::{enet3, websocket3, websocket4};
use gdvariant_multiplayer::{godot3, godot4};

use crate::flows::FlowInfo;
use crate::{Item, Refusal, Refused, Value, WsEvent};

/// Why a flow keeps the default version when its first multiplayer message is neither
/// version's.
pub const NEITHER: &str = "the default: the first message is neither version's";

/// Payloads of a flow looked at before its version is left at the default (values: the first
/// ones only one version accepts decide; ENet and multiplayer WebSocket: the first message).
pub const MAX_LOOKS: u32 = 16;

/// The version of a value's bytes (a `put_var` frame's payload, a datagram, a WebSocket
/// message read as a value), when only one version reads them ([`gdvariant::detect`]), with
/// why; `None` when both read them (the same value or two) or neither does.
pub fn of_value(bytes: &[u8]) -> Option<(Version, String)> {
    let detection = gdvariant::detect(bytes);
    match detection.verdict() {
        Verdict::Godot3Only => Some((Version::Godot3, detection.to_string())),
        Verdict::Godot4Only => Some((Version::Godot4, detection.to_string())),
        _ => None,
    }
}

/// The version of an ENet message going `direction` on `channel` (`client_id`: the CONNECT's
/// data, Godot's client id), with why: Godot 3's 8-byte header (a client's message starting
/// with its own id, a server's naming the client, everyone or the server as sender, and a
/// Godot 3 multiplayer packet after it; or a system message on channel 0), else a Godot 4
/// packet; `None` when neither reads it.
pub fn of_enet(
    direction: Direction,
    channel: u8,
    bytes: &[u8],
    client_id: Option<u32>,
) -> Option<(Version, String)> {
    let options3 = Options::new(Version::Godot3).with_allow_objects(true);
    match enet3::decode(bytes, channel) {
        Ok(enet3::EnetPacket::System { message, peer })
            if direction == Direction::ToClient && bytes.len() == 8 && message.number() <= 1 =>
        {
            return Some((
                Version::Godot3,
                format!(
                    "the first message is a Godot 3 system message on channel 0 ({} {peer})",
                    if message.number() == 0 { "peer joined" } else { "peer left" }
                ),
            ));
        }
        Ok(enet3::EnetPacket::Data { source, target, payload }) => {
            let header = match direction {
                Direction::ToServer => client_id == Some(source),
                Direction::ToClient => {
                    source == 1 || target == 0 || client_id.is_some_and(|id| target == id as i32)
                }
            };
            if header && godot3::decode(payload, options3).is_ok() {
                return Some((
                    Version::Godot3,
                    format!(
                        "the first message has Godot 3's 8-byte header (from {source} to {target}) and a Godot 3 packet"
                    ),
                ));
            }
        }
        _ => {}
    }
    of_packet4(bytes)
}

/// The version of a WebSocket binary message carrying multiplayer traffic, with why: Godot 4's
/// client id (the server's 4-byte first message), Godot 3's 9-byte header (a system message,
/// or a Godot 3 packet after it), else a Godot 4 packet; `None` when neither reads it.
pub fn of_websocket(direction: Direction, bytes: &[u8]) -> Option<(Version, String)> {
    if direction == Direction::ToClient {
        if let Ok(id) = websocket4::peer_id(bytes) {
            return Some((
                Version::Godot4,
                format!("the server's first message is 4 bytes, a client id ({id}): Godot 4"),
            ));
        }
    }
    let options3 = Options::new(Version::Godot3).with_allow_objects(true);
    if let Ok(message) = websocket3::decode(bytes) {
        let header = match message.kind {
            websocket3::MessageType::Payload => godot3::decode(message.payload, options3).is_ok(),
            _ => bytes.len() == websocket3::HEADER.saturating_add(4),
        };
        if header {
            return Some((
                Version::Godot3,
                format!(
                    "the first message has Godot 3's 9-byte header (type {}, from {} to {})",
                    message.kind.byte(),
                    message.from,
                    message.to
                ),
            ));
        }
    }
    of_packet4(bytes)
}

/// A Godot 4 multiplayer packet.
fn of_packet4(bytes: &[u8]) -> Option<(Version, String)> {
    let options4 = Options::new(Version::Godot4).with_allow_objects(true);
    godot4::decode(bytes, options4).ok().map(|packet| {
        (
            Version::Godot4,
            format!("the first message is a Godot 4 packet ({})", packet.command().name()),
        )
    })
}

/// A flow's version, as the reader decides it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Looks {
    /// Payloads looked at.
    pub(crate) count: u32,
    /// Decided (or given, or given up on).
    pub(crate) done: bool,
}

impl Looks {
    /// Whether to look at one more payload (counted).
    pub(crate) fn next(&mut self) -> bool {
        if self.done || self.count >= MAX_LOOKS {
            return false;
        }
        self.count = self.count.saturating_add(1);
        true
    }
}

/// Records what a look at a payload told of a flow's version (`None`: nothing; after
/// [`MAX_LOOKS`] looks the default stays).
pub(crate) fn settle(info: &mut FlowInfo, looks: &mut Looks, told: Option<(Version, String)>) {
    if let Some((version, why)) = told {
        info.version = version;
        info.version_why = why;
        looks.done = true;
    } else if looks.count >= MAX_LOOKS {
        info.version_why = format!(
            "the default: none of the first {} payloads told the versions apart",
            looks.count
        );
        looks.done = true;
    }
}

/// Looks at a TCP flow's new items (from `start`) while its version is not told: the queue
/// index of the item that told it (the version is then in `info`), if one did. A WebSocket
/// flow's (`websocket`) message that tells nothing as a value may be multiplayer traffic read
/// without [`Config::websocket_raw`](crate::Config::websocket_raw): its framing is looked at.
pub(crate) fn look(
    info: &mut FlowInfo,
    looks: &mut Looks,
    queue: &VecDeque<Item<'_>>,
    start: usize,
    websocket: bool,
) -> Option<usize> {
    if looks.done {
        return None;
    }
    let before = info.version;
    for (index, item) in queue.range(start..).enumerate() {
        let told = match item {
            Item::Value(value) if looks.next() => of_value(&value.bytes).or_else(|| {
                websocket.then(|| of_websocket(value.direction, &value.bytes)).flatten()
            }),
            Item::Refused(refused) if looks.next() => match &refused.refusal {
                Refusal::Frame(_) => of_value(refused.bytes.get(4..).unwrap_or(&[])),
                Refusal::Message(_) => of_value(&refused.bytes)
                    .or_else(|| of_websocket(refused.direction, &refused.bytes)),
                _ => None,
            },
            Item::WebSocket(ws) => match &ws.event {
                WsEvent::Binary(bytes) if looks.next() => {
                    looks.done = true;
                    of_websocket(ws.direction, bytes).or_else(|| Some((before, NEITHER.into())))
                }
                _ => None,
            },
            _ => None,
        };
        settle(info, looks, told);
        if looks.done {
            return Some(start.saturating_add(index));
        }
    }
    None
}

/// An item read again with `options` (its flow's version was told on it or before it): a
/// value the version refuses becomes a refused frame (`prefix`: a `put_var` flow's) or message,
/// a refused frame or message it accepts a value. O(the item's bytes).
pub(crate) fn reread(item: &mut Item<'_>, options: Options, prefix: Option<LengthPrefix>) {
    match item {
        Item::Value(value) if value.options != options => {
            let Err(error) = gdvariant::validate(&value.bytes, options) else {
                value.options = options;
                return;
            };
            let (bytes, refusal) = match prefix.map(|p| p.encode(value.bytes.len())) {
                Some(Ok(head)) => {
                    let kind = FrameErrorKind::Value(error.offset_by(4));
                    let error = FrameError::new(0, kind).offset_by(value.offset);
                    (Cow::Owned([&head[..], &value.bytes].concat()), Refusal::Frame(error))
                }
                _ => (value.bytes.clone(), Refusal::Message(error)),
            };
            *item = Item::Refused(Refused {
                flow: value.flow,
                direction: value.direction,
                time: value.time,
                offset: value.offset,
                bytes,
                refusal,
            });
        }
        Item::Refused(refused) => {
            let payload = match &refused.refusal {
                Refusal::Frame(error) if matches!(error.kind(), FrameErrorKind::Value(_)) => 4,
                Refusal::Message(_) => 0,
                _ => return,
            };
            let Some(bytes) = refused.bytes.get(payload..) else { return };
            if gdvariant::validate(bytes, options).is_err() {
                return;
            }
            let bytes = match &refused.bytes {
                Cow::Borrowed(all) => Cow::Borrowed(all.get(payload..).unwrap_or(&[])),
                Cow::Owned(all) => Cow::Owned(all.get(payload..).unwrap_or(&[]).to_vec()),
            };
            *item = Item::Value(Value {
                flow: refused.flow,
                direction: refused.direction,
                time: refused.time,
                offset: refused.offset,
                bytes,
                options,
            });
        }
        Item::WebSocket(ws) => ws.version = options.version(),
        _ => {}
    }
}
