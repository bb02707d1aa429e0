//! Which Godot a flow speaks, told per flow from what it carries (the format has no version
//! marker): the rules of the crate docs' "Detection" section, one function per kind of
//! payload. Each is O(the bytes it looks at): a value is validated under both versions
//! ([`gdvariant::detect`]), a multiplayer message's header read and its packet decoded under
//! both (no allocation). The [`Reader`](crate::Reader) applies them to at most
//! [`MAX_LOOKS`] payloads a flow, so detection adds a bounded cost per flow.

use gdvariant::detection::Verdict;
use gdvariant::{Options, Version};
use gdvariant_multiplayer::Direction;
use gdvariant_multiplayer::transport::{enet3, websocket3, websocket4};
use gdvariant_multiplayer::{godot3, godot4};

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
