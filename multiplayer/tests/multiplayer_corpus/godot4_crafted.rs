//! Godot 4's crafted packets: the engine's verdict on each, and what only the game's state
//! refuses.

use super::*;

/// What this crate says of a crafted packet: `ok`, the kind that `decode` refuses it with, or
/// `validate:` and the kind `validate` finds; and what the engine did with it: acted (called,
/// spawned, despawned, emitted the bytes) and printed an error.
const GODOT4_CRAFTED: &[(&str, &str, bool, bool)] = &[
    ("rpc_cached_r1_int", "ok", true, false),
    ("rpc_trailing_bytes", "ok", true, false),
    ("rpc_bad_argument_type", "validate:unknown_type", true, true),
    ("rpc_argument_cut_short", "validate:truncated", true, true),
    ("rpc_fewer_arguments_than_count", "validate:truncated", true, true),
    ("rpc_count_missing", "truncated", false, true),
    ("rpc_command_bit3", "ok", true, false),
    ("rpc_node_compression_3", "bad_node_id_width", false, true),
    ("rpc_node_16bit", "ok", true, false),
    ("rpc_node_32bit", "ok", true, false),
    ("rpc_name_16bit", "ok", true, false),
    ("rpc_unknown_cache_id", "ok", false, true),
    ("rpc_unknown_method", "ok", false, true),
    ("rpc_path_offset_past_end", "path_offset", false, true),
    ("rpc_path_offset_into_header", "path_offset", false, true),
    ("rpc_path_world_player", "ok", true, false),
    ("rpc_path_dot_spelling", "ok", true, false),
    ("rpc_path_without_nul", "ok", true, false),
    ("rpc_bool_mode_bits", "ok", true, false),
    ("rpc_bool_true_mode_bits", "ok", true, false),
    ("rpc_float_with_mode_bits", "validate:value", true, true),
    ("rpc_int8_cut", "validate:truncated", true, true),
    ("rpc_int64_form_small_value", "ok", true, false),
    ("rpc_byte_only_to_r2", "ok", false, true),
    ("rpc_authority_method", "ok", false, true),
    ("raw_empty", "too_short", false, true),
    ("raw_flag_bits", "ok", true, false),
    ("empty_packet", "empty", false, true),
    ("unknown_sys", "unknown_sys_command", false, true),
    ("sys_add_peer_from_client", "ok", false, true),
    ("sys_short", "too_short", false, true),
    ("relay_empty_inner", "too_short", false, true),
    ("relay_sys_inside", "sys_in_relay", false, true),
    ("relay_nested", "sys_in_relay", false, true),
    ("relay_to_unknown_peer", "ok", false, false),
    ("relay_to_minus_one", "ok", false, false),
    ("simplify_byte33_not_nul", "ok", false, true),
    ("simplify_short", "too_short", false, true),
    ("simplify_duplicate_id", "ok", false, true),
    ("simplify_unknown_node", "ok", false, true),
    ("confirm_long", "wrong_length", false, true),
    ("confirm_unknown_id", "ok", false, false),
    ("spawn_short", "too_short", false, true),
    ("despawn_unknown", "ok", false, true),
    ("sync_short", "too_short", false, true),
    // Stricter than Godot, which skips the elements of synchronizers it does not know unread.
    ("sync_unknown_id", "validate:truncated", false, false),
    ("delta_unknown_id", "validate:truncated", false, true),
    ("spawn_valid_name", "ok", true, false),
    ("spawn_name_dot", "invalid_name", false, true),
    ("spawn_name_colon", "invalid_name", false, true),
    ("spawn_name_at", "invalid_name", false, true),
    ("spawn_name_slash", "invalid_name", false, true),
    ("spawn_name_quote", "invalid_name", false, true),
    ("spawn_name_percent", "invalid_name", false, true),
    ("spawn_name_space", "ok", true, false),
    ("spawn_name_only_nul", "ok", true, true),
    ("spawn_name_nul_inside", "ok", true, false),
    ("spawn_name_not_utf8", "ok", true, true),
    ("spawn_name_bom", "ok", true, false),
    ("spawn_name_without_nul", "ok", true, false),
    ("spawn_name_zero_length", "empty_name", false, true),
    ("spawn_same_name_again", "ok", false, true),
    ("spawn_same_net_id_again", "ok", false, true),
    ("spawn_without_state", "ok", true, false),
    ("spawn_without_sync_ids", "ok", true, true),
    ("spawn_extra_sync_id", "ok", true, true),
    // Stricter than Godot: the synchronizer reads only its properties' values.
    ("spawn_state_trailing_bytes", "validate:unknown_type", true, false),
    ("spawn_name_length_past_end", "bad_size", false, true),
    ("spawn_unknown_scene", "ok", false, true),
    ("custom_spawn_argument_ok", "ok", true, false),
    ("custom_spawn_argument_size_past_end", "bad_size", false, true),
    ("custom_spawn_argument_bad_type", "unknown_type", false, true),
    ("custom_spawn_argument_size_cut", "truncated", false, true),
    ("spawn_state_bad_type", "validate:unknown_type", true, true),
    ("despawn_spawned_by_probe", "ok", true, false),
    ("despawn_twice", "ok", false, true),
    // Godot 4.6's size check wraps in 32 bits: it reads 2^30 synchronizer ids past the packet
    // and the engine dies (the capture's last step).
    ("spawn_sync_count_wraps_32_bits", "bad_size", false, true),
];

/// The crate's verdict on a packet, as written in [`GODOT4_CRAFTED`].
fn verdict4(bytes: &[u8]) -> String {
    match godot4::decode(bytes, Options::godot4()) {
        Err(error) => error.name().to_string(),
        Ok(packet) => match packet.validate() {
            Ok(()) => "ok".to_string(),
            Err(error) => format!("validate:{}", error.name()),
        },
    }
}

#[test]
fn godot4_crafted_packets_get_the_engine_s_verdict() {
    let table: BTreeMap<&str, (&str, bool, bool)> =
        GODOT4_CRAFTED.iter().map(|&(n, v, acted, error)| (n, (v, acted, error))).collect();
    let mut seen = 0;
    for record in corpus::godot4().iter().filter(|r| !r["injected"].is_null()) {
        let note = record["note"].as_str().unwrap();
        let &(expected, acted, error) =
            table.get(note).unwrap_or_else(|| panic!("{note} not in the table"));
        let bytes = corpus::bytes(record);
        assert_eq!(verdict4(&bytes), expected, "{note}");
        let deliveries = record["deliveries"].as_array().unwrap();
        let engine_acted = deliveries.iter().any(|d| !d["effects"].as_array().unwrap().is_empty());
        let engine_error = deliveries.iter().any(|d| {
            d["errors"].as_array().unwrap().iter().any(|e| {
                let e = e.as_str().unwrap();
                e.starts_with("ERROR") || e.starts_with("Unicode")
            })
        });
        assert_eq!((engine_acted, engine_error), (acted, error), "{note}: the engine");
        // Whatever decode refuses, the engine refused: it never acted on such a packet.
        if !expected.starts_with("ok") && !expected.starts_with("validate") {
            assert!(!engine_acted, "{note}");
        }
        seen += 1;
    }
    assert_eq!(seen, GODOT4_CRAFTED.len());
}

#[test]
fn godot4_the_session_sees_what_only_the_game_s_state_refuses() {
    // Followed from the start, a session knows the ids the crafted packets get wrong.
    let methods = corpus::godot4_methods();
    let mut session = Session4::new(methods, Limits::default());
    let mut outcomes: BTreeMap<String, String> = BTreeMap::new();
    for record in corpus::godot4().iter().filter(|r| r["net"] == "main") {
        let bytes = corpus::bytes(record);
        let Ok(packet) = godot4::decode(&bytes, options4(record)) else { continue };
        let sender = record["from"].as_i64().unwrap() as i32;
        let receiver = record["to"][0].as_i64().unwrap_or(0) as i32;
        let observed = session.observe(sender, receiver, &packet);
        let Some(note) = record["note"].as_str() else {
            observed.unwrap();
            continue;
        };
        let outcome = match (&packet, observed) {
            (_, Err(error)) => format!("{error:?}"),
            (Godot4Packet::Rpc(rpc), Ok(())) => {
                let call = session.rpc(Route::direct(sender, receiver), rpc);
                format!("{:?} {:?}", call.path, call.method)
            }
            (_, Ok(())) => "ok".to_string(),
        };
        outcomes.insert(note.to_string(), outcome);
    }
    for (note, expected) in [
        ("rpc_cached_r1_int", r#"Some("World/Player") Some("r1")"#),
        ("rpc_unknown_cache_id", "None None"),
        ("rpc_unknown_method", r#"Some("World/Player") None"#),
        ("rpc_path_dot_spelling", r#"Some("./World/./Player") None"#),
        ("rpc_authority_method", r#"Some("World/Player") Some("auth1")"#),
        ("simplify_duplicate_id", "DuplicateId { id: 1 }"),
        ("despawn_unknown", "UnknownNetId { net_id: 99 }"),
        ("spawn_same_net_id_again", "DuplicateNetId { net_id: 101 }"),
        ("despawn_twice", "UnknownNetId { net_id: 101 }"),
    ] {
        assert_eq!(outcomes[note], expected, "{note}");
    }
    assert!(!gdvariant_multiplayer::session::is_canonical_path("./World/./Player"));
    assert!(gdvariant_multiplayer::session::is_canonical_path("World/Player"));
}
