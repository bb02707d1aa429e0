//! The checks the relay makes on one message of a datagram or message transport (UDP,
//! WebSocket, ENet) before a filter sees it, as functions a program or a fuzz target can call
//! on bytes: [`value`] (the size limit, then Godot's `get_var`) and [`enet3_header`] (Godot 3's
//! ENet header). TCP's frames are cut and checked by `gdvariant::framing::receive`, which
//! applies the same limit and validation as it finds each frame.
//!
//! Each is O(the message's bytes) at most, and a refusal allocates nothing (its detail is a
//! [`Detail`]).

use gdvariant::Options;
use gdvariant::framing::{FrameError, FrameErrorKind};
use gdvariant::view::Element;
use gdvariant_multiplayer::transport::enet3;

use crate::detail::Detail;
use crate::filter::Direction;

/// Why the relay refuses a message before the filter: a short reason (`too_large`,
/// `invalid_value`, `invalid_packet`) and what exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused {
    /// The reason, as drop reports count it.
    pub reason: &'static str,
    /// What and where.
    pub detail: Detail,
}

/// A message that should hold one value (`Messages::Values`): refused when it is longer than
/// `max_frame` bytes (`too_large`, before anything is read) or when Godot's `get_var` refuses
/// it with `options` (`invalid_value`, the error's offset counted from `offset`, where the
/// message starts in its direction's bytes); else the value, validated (every string's text
/// included). Bytes after the value are ignored, as `get_var` ignores them. O(message).
///
/// ```
/// use gdvariant::Options;
/// use gdvariant_relay::checks;
///
/// let five = [2, 0, 0, 0, 5, 0, 0, 0];
/// assert_eq!(checks::value(&five, Options::godot4(), 1024, 0)?.value().as_int(), Some(5));
/// assert_eq!(checks::value(&five, Options::godot4(), 4, 0).unwrap_err().reason, "too_large");
/// assert_eq!(checks::value(&five[..6], Options::godot4(), 1024, 0).unwrap_err().reason, "invalid_value");
/// # Ok::<(), gdvariant_relay::checks::Refused>(())
/// ```
#[allow(clippy::result_large_err)] // the detail is inline, so that a refusal allocates nothing
pub fn value(
    message: &[u8],
    options: Options,
    max_frame: u32,
    offset: u64,
) -> Result<Element<'_>, Refused> {
    if message.len() > usize::try_from(max_frame).unwrap_or(usize::MAX) {
        return Err(Refused {
            reason: "too_large",
            detail: Detail::new(format_args!(
                "datagram of {} bytes over the limit of {max_frame}",
                message.len()
            )),
        });
    }
    Element::validate_at(message, 0, options).map_err(|error| {
        let base = usize::try_from(offset).unwrap_or(usize::MAX);
        let kind = FrameErrorKind::Value(error.offset_by(base));
        Refused { reason: "invalid_value", detail: Detail::new(FrameError::new(offset, kind)) }
    })
}

/// Godot 3's ENet transport, before what a packet carries is read: a client's packet on the
/// system channel (only the server sends those), one shorter than the 8-byte header, or one
/// whose source is not the sending client's peer id `client` (Godot's server checks it) is
/// refused (`invalid_packet`). O(1).
///
/// ```
/// use gdvariant_relay::{Direction, checks};
///
/// // Client 77's packet for the server (peer 1) on channel 1, then one claiming to be from 5.
/// let honest = [77, 0, 0, 0, 1, 0, 0, 0, 0xAB];
/// assert!(checks::enet3_header(Direction::ToServer, 1, &honest, 77).is_ok());
/// let spoofed = [5, 0, 0, 0, 1, 0, 0, 0, 0xAB];
/// assert_eq!(checks::enet3_header(Direction::ToServer, 1, &spoofed, 77).unwrap_err().reason, "invalid_packet");
/// ```
#[allow(clippy::result_large_err)] // the detail is inline, so that a refusal allocates nothing
pub fn enet3_header(
    direction: Direction,
    channel: u8,
    data: &[u8],
    client: u32,
) -> Result<(), Refused> {
    let refused = |detail: Detail| Err(Refused { reason: "invalid_packet", detail });
    if direction == Direction::ToServer && channel == enet3::SYSTEM_CHANNEL {
        return refused(Detail::new(
            "a client's packet on channel 0, which only the server sends on",
        ));
    }
    match enet3::decode(data, channel) {
        Err(_) => refused(Detail::new(format_args!(
            "{} bytes, shorter than the 8-byte header",
            data.len()
        ))),
        Ok(enet3::EnetPacket::Data { source, .. })
            if direction == Direction::ToServer && source != client =>
        {
            refused(Detail::new(format_args!(
                "header source {source} is not the client's peer id {client}"
            )))
        }
        Ok(_) => Ok(()),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn godot3_transport_checks() {
        let mut packet = 77u32.to_le_bytes().to_vec();
        packet.extend(1i32.to_le_bytes());
        packet.push(0);
        let up = Direction::ToServer;
        let detail = |r: Result<(), Refused>| r.unwrap_err().detail;
        assert_eq!(enet3_header(up, 1, &packet, 77), Ok(()));
        assert!(detail(enet3_header(up, 1, &packet, 78)).contains("source 77"));
        assert!(detail(enet3_header(up, 0, &packet, 77)).contains("channel 0"));
        assert!(detail(enet3_header(up, 1, &packet[..7], 77)).contains("8-byte"));
        assert_eq!(enet3_header(Direction::ToClient, 0, &packet[..8], 77), Ok(()));
        assert_eq!(enet3_header(Direction::ToClient, 1, &packet, 5), Ok(()));
    }
}
