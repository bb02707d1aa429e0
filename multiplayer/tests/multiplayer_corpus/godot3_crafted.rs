//! Godot 3.2.3's crafted packets over ENet and WebSocket: the engine's verdict on each.

use super::*;

/// What this crate says of a crafted Godot 3 packet, and what Godot 3.2.3 did (acted,
/// printed an error).
const GODOT3_CRAFTED: &[(&str, &str, bool, bool)] = &[
    ("call_cached", "ok", true, false),
    ("call_trailing_bytes", "ok", true, false),
    ("call_bad_argument_type", "validate:value", false, true),
    ("call_argument_cut_short", "validate:value", false, true),
    ("call_second_argument_missing", "validate:truncated", false, true),
    ("call_invalid_utf8_name", "invalid_name", false, true),
    ("call_bom_name", "ok", true, false),
    ("call_node_path_padding_garbage", "ok", true, false),
    ("call_no_nul_after_name", "unterminated", false, true),
    ("call_short", "too_short", false, true),
    // The count says no argument: Godot calls r1 with none (and the call fails).
    ("call_argc_zero", "ok", false, true),
    ("call_argc_missing", "truncated", false, true),
    ("call_unknown_cache_id", "ok", false, true),
    ("call_path_world_player", "ok", true, false),
    ("call_path_offset_past_end", "path_offset", false, true),
    ("call_path_unknown_node", "ok", false, true),
    ("call_not_rpc", "ok", false, true),
    // "r1" spelled with an overlong form of "r": Godot 3.2.3 calls r1.
    ("call_overlong_name", "ok", true, false),
    ("set_cached", "ok", true, false),
    ("set_bad_value", "validate:value", false, true),
    ("set_unknown_property", "ok", false, true),
    ("simplify_short", "too_short", false, true),
    ("simplify_new_id", "ok", false, false),
    ("call_new_id", "ok", true, false),
    ("confirm_short", "too_short", false, true),
    ("confirm_unknown_path", "ok", false, true),
    ("raw_short", "too_short", false, true),
    ("raw_bytes", "ok", true, false),
    // Godot 3.2.3 ignores unknown commands without a word.
    ("unknown_command", "unknown_command", false, false),
    ("command_with_high_bits", "unknown_command", false, false),
];

fn godot3_crafted_packets_get_the_engine_s_verdict(transport: &str) {
    let table: BTreeMap<&str, (&str, bool, bool)> =
        GODOT3_CRAFTED.iter().map(|&(n, v, acted, error)| (n, (v, acted, error))).collect();
    let mut seen = 0;
    for record in corpus::godot3(transport).iter().filter(|r| !r["injected"].is_null()) {
        let name = record["injected"].as_str().unwrap();
        let &(expected, acted, error) = table.get(name).unwrap_or_else(|| panic!("{name}"));
        let (_, _, payload) = corpus::payload3(transport, record).unwrap();
        let verdict = match godot3::decode(&payload, Options::godot3()) {
            Err(e) => e.name().to_string(),
            Ok(packet) => match packet.validate() {
                Ok(()) => "ok".to_string(),
                Err(e) => format!("validate:{}", e.name()),
            },
        };
        assert_eq!(verdict, expected, "{name}");
        let engine_acted = !record["engine"]["effects"].as_array().unwrap().is_empty();
        let engine_error = record["engine"]["errors"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e.as_str().unwrap().starts_with("ERROR"));
        assert_eq!((engine_acted, engine_error), (acted, error), "{name}: the engine");
        if expected != "ok" {
            assert!(!engine_acted, "{name}");
        }
        seen += 1;
    }
    assert_eq!(seen, GODOT3_CRAFTED.len());
}

#[test]
fn godot3_enet_crafted_packets_get_the_engine_s_verdict() {
    godot3_crafted_packets_get_the_engine_s_verdict("enet");
}

#[test]
fn godot3_websocket_crafted_packets_get_the_engine_s_verdict() {
    godot3_crafted_packets_get_the_engine_s_verdict("websocket");
}
