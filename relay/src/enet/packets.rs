//! What is read of an ENet packet before its content: the flags rusty_enet does not report
//! right ([`flags`]) and the Godot transfer mode they mean ([`mode_of`]); Godot 3's header is
//! checked by `crate::checks::enet3_header`. Costs: O(1); [`flags`] formats the
//! packet's `Debug` (a few numbers and the data's address, not the data), so it is called only
//! when a filter or a report asks for the transfer mode.

use rusty_enet::Packet;

use crate::filter::TransferMode;

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
}
