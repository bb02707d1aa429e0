//! What is read of an ENet packet before its content: the flags rusty_enet does not report
//! right ([`flags`]), the Godot transfer mode they mean ([`mode_of`]), and why Godot 3's
//! transport refuses a packet ([`enet3_refusal`]).
//!
//! What it validates: Godot 3's header (8 bytes, a source that is the sending client's peer id)
//! and that clients do not send on the system channel. Costs: O(1); [`flags`] formats the
//! packet's `Debug` (a few numbers and the data's address, not the data), so it is called only
//! when a filter or a report asks for the transfer mode.

use gdvariant_multiplayer::transport::enet3;
use rusty_enet::Packet;

use crate::filter::{Direction, TransferMode};

/// ENet's packet flags (reliable 1, unsequenced 2, unreliable fragment 8). rusty_enet 0.4.1's
/// `Packet::kind` ORs where it should mask, and so always says reliable; the flags themselves
/// are right, and are shown by its `Debug`. Forwarding does not need them (it sends the packet
/// itself, flags and all).
fn flags(packet: &Packet) -> u32 {
    let shown = format!("{packet:?}");
    shown
        .split_once("flags: ")
        .and_then(|(_, rest)| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|digits| digits.parse().ok())
        .unwrap_or(1)
}

/// The Godot transfer mode of a packet: reliable, unsequenced (Godot's
/// `TRANSFER_MODE_UNRELIABLE`), or plain unreliable (`UNRELIABLE_ORDERED`).
pub(super) fn mode_of(packet: &Packet) -> TransferMode {
    let flags = flags(packet);
    if flags & 1 != 0 {
        TransferMode::Reliable
    } else if flags & 2 != 0 {
        TransferMode::Unreliable
    } else {
        TransferMode::UnreliableOrdered
    }
}

/// Why Godot 3 refuses a packet before reading what it carries: a client's packet on the
/// system channel (only the server sends those), one shorter than the header, or one whose
/// source is not the sending client's id (Godot's server checks it).
pub(super) fn enet3_refusal(
    direction: Direction,
    channel: u8,
    data: &[u8],
    id: u32,
) -> Option<String> {
    if direction == Direction::ToServer && channel == enet3::SYSTEM_CHANNEL {
        return Some("a client's packet on channel 0, which only the server sends on".into());
    }
    match enet3::decode(data, channel) {
        Err(_) => Some(format!("{} bytes, shorter than the 8-byte header", data.len())),
        Ok(enet3::EnetPacket::Data { source, .. })
            if direction == Direction::ToServer && source != id =>
        {
            Some(format!("header source {source} is not the client's peer id {id}"))
        }
        Ok(_) => None,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use rusty_enet::PacketKind;

    #[test]
    fn flags_and_modes_of_every_kind() {
        let cases = [
            (PacketKind::Reliable, 1, TransferMode::Reliable),
            (PacketKind::Unreliable { sequenced: false }, 2, TransferMode::Unreliable),
            (PacketKind::Unreliable { sequenced: true }, 0, TransferMode::UnreliableOrdered),
            (PacketKind::AlwaysUnreliable { sequenced: true }, 8, TransferMode::UnreliableOrdered),
            (PacketKind::AlwaysUnreliable { sequenced: false }, 10, TransferMode::Unreliable),
        ];
        for (kind, expected_flags, mode) in cases {
            let packet = Packet::new(vec![1u8, 2, 3], kind);
            // Packets made here also carry NO_ALLOCATE (4); received ones do not.
            assert_eq!(flags(&packet) & !4, expected_flags, "{kind:?}");
            assert_eq!(mode_of(&packet), mode, "{kind:?}");
        }
    }

    #[test]
    fn godot3_transport_checks() {
        let mut packet = 77u32.to_le_bytes().to_vec();
        packet.extend(1i32.to_le_bytes());
        packet.push(0);
        let up = Direction::ToServer;
        assert_eq!(enet3_refusal(up, 1, &packet, 77), None);
        assert!(enet3_refusal(up, 1, &packet, 78).unwrap().contains("source 77"));
        assert!(enet3_refusal(up, 0, &packet, 77).unwrap().contains("channel 0"));
        assert!(enet3_refusal(up, 1, &packet[..7], 77).unwrap().contains("8-byte"));
        assert_eq!(enet3_refusal(Direction::ToClient, 0, &packet[..8], 77), None);
        assert_eq!(enet3_refusal(Direction::ToClient, 1, &packet, 5), None);
    }
}
