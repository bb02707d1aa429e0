//! `relay_checks`: the relay's per-message checks over its message transports (WebSocket, UDP,
//! ENet; `gdvariant_relay::checks`) never panic, stay within a bounded amount of work per
//! byte, and say what the core says: a message passes the value check exactly when it is
//! within the size limit and Godot's `get_var` (the core's `validate_at`) accepts it, and Godot
//! 3's ENet header check refuses exactly a client's packet on the system channel, a packet
//! shorter than the header, and a client's packet whose source is not the client.
//!
//! The first byte is the settings: bit 0 Godot 3, bit 1 objects allowed, bit 2 from the
//! server, bits 3-4 the ENet channel, bits 5-6 the size limit (16, 256, 4096 bytes, none).
//! Each input is checked twice, as a WebSocket or UDP message and as an ENet packet (Godot 3:
//! the header first, then the value after it, the client being the header's own source or
//! not by bit 7).

use gdvariant::Options;
use gdvariant::view::Element;
use gdvariant_relay::{Detail, Direction, checks};

/// Units of work allowed per input byte (one validation of the message, twice).
pub const UNITS_PER_BYTE: u64 = 64;

/// Units allowed for any input.
pub const UNITS_BASE: u64 = 1024;

/// The target.
pub fn check(data: &[u8]) {
    let Some((&settings, message)) = data.split_first() else { return };
    let version =
        if settings & 1 == 0 { gdvariant::Version::Godot4 } else { gdvariant::Version::Godot3 };
    let options = Options::new(version).with_allow_objects(settings & 2 != 0);
    let direction = if settings & 4 == 0 { Direction::ToServer } else { Direction::ToClient };
    let channel = (settings >> 3) & 3;
    let max = [16, 256, 4096, u32::MAX][usize::from((settings >> 5) & 3)];
    let (_, units) = gdvariant::work::measure(|| {
        value(message, options, max);
        if version == gdvariant::Version::Godot3 {
            enet3(message, direction, channel, settings & 0x80 != 0, options, max);
        }
    });
    let bound = UNITS_PER_BYTE * data.len() as u64 + UNITS_BASE;
    assert!(units <= bound, "{units} units of work on {} bytes (bound {bound})", data.len());
}

/// The value check agrees with the size limit and the core's verdict.
fn value(message: &[u8], options: Options, max: u32) {
    let core = Element::validate_at(message, 0, options);
    match checks::value(message, options, max, 0) {
        Ok(element) => {
            assert!(message.len() as u64 <= u64::from(max), "passed over the limit");
            let core = core.expect("passed what the core refuses");
            assert_eq!(element.raw_bytes(), core.raw_bytes());
            assert!(message.starts_with(element.raw_bytes()));
        }
        Err(refused) => {
            short(&refused.detail);
            match refused.reason {
                "too_large" => assert!(message.len() as u64 > u64::from(max)),
                "invalid_value" => {
                    assert!(message.len() as u64 <= u64::from(max));
                    assert!(core.is_err(), "refused what the core accepts");
                }
                other => panic!("unknown reason {other}"),
            }
        }
    }
}

/// Godot 3's ENet header check, then the value after the header, as the ENet relay reads a
/// values packet.
fn enet3(
    message: &[u8],
    direction: Direction,
    channel: u8,
    honest: bool,
    options: Options,
    max: u32,
) {
    let source = message.get(..4).map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]));
    let client = match (honest, source) {
        (true, Some(source)) => source,
        (_, source) => source.unwrap_or(0).wrapping_add(1),
    };
    let verdict = checks::enet3_header(direction, channel, message, client);
    let from_client = direction == Direction::ToServer;
    let expected_refusal = (from_client && channel == 0)
        || message.len() < 8
        || (from_client && source != Some(client));
    assert_eq!(verdict.is_err(), expected_refusal, "{verdict:?}");
    if let Err(refused) = verdict {
        assert_eq!(refused.reason, "invalid_packet");
        short(&refused.detail);
        return;
    }
    if channel != 0 {
        value(message.get(8..).unwrap_or(&[]), options, max);
    }
}

/// A detail fits its inline capacity.
fn short(detail: &Detail) {
    assert!(detail.len() <= Detail::CAPACITY);
}
