//! Godot 4's captures: every packet the engine sent decodes, validates and re-encodes byte for
//! byte, and means what the receiving engine did.

use super::*;

/// Writes `packet` again with the encoder, from owned values (so every choice of form and
/// width is the encoder's own).
fn reencode4(packet: &Godot4Packet<'_>, options: Options) -> Vec<u8> {
    let mut out = Vec::new();
    let owned_all = |values: &mut dyn Iterator<Item = Result<Value<'_>, _>>| -> Vec<Variant> {
        values.map(|v| owned(&v.unwrap(), options)).collect()
    };
    match packet {
        Godot4Packet::Rpc(rpc) => {
            let target = match rpc.node() {
                NodeAddress::Cached(id) if rpc.node_width() == IdWidth::U32 => {
                    write::Target::CachedWide(id)
                }
                NodeAddress::Cached(id) => write::Target::Cached(id),
                NodeAddress::Path { path, .. } => write::Target::Path(path.to_str().unwrap()),
            };
            let args = owned_all(&mut rpc.arguments());
            let args: Vec<write::Arg<'_>> = args.iter().map(write::Arg::Variant).collect();
            write::rpc(
                &mut out,
                target,
                rpc.method_id(),
                &args,
                EncodeOptions::godot4().with_full_objects(options.allow_objects()),
            )
            .unwrap();
        }
        Godot4Packet::SimplifyPath(simplify) => {
            let checksum: [u8; 32] = simplify.checksum().try_into().unwrap();
            let path = simplify.path().to_str().unwrap();
            write::simplify_path(&mut out, &checksum, simplify.id(), path).unwrap();
        }
        Godot4Packet::ConfirmPath(confirm) => {
            write::confirm_path(&mut out, confirm.checksum_valid(), confirm.id()).unwrap();
        }
        Godot4Packet::Raw(payload) => write::raw(&mut out, payload).unwrap(),
        Godot4Packet::Spawn(spawn) => {
            let argument = spawn.argument().map(|a| owned(&a, options));
            let state = owned_all(&mut spawn.state());
            let state: Vec<write::Arg<'_>> = state.iter().map(write::Arg::Variant).collect();
            let sync_ids: Vec<u32> = spawn.sync_ids().collect();
            let fields = write::SpawnFields {
                scene: spawn.scene(),
                spawner: spawn.spawner(),
                net_id: spawn.net_id(),
                sync_ids: &sync_ids,
                name: spawn.name().to_str().unwrap(),
                argument: argument.as_ref().map(write::Arg::Variant),
                state: &state,
            };
            write::spawn(&mut out, &fields, EncodeOptions::godot4()).unwrap();
        }
        Godot4Packet::Despawn(despawn) => write::despawn(&mut out, despawn.net_id()).unwrap(),
        Godot4Packet::Sync(sync) => {
            let elements: Vec<(u32, Vec<Variant>)> = sync
                .elements()
                .map(|e| {
                    let e = e.unwrap();
                    (e.net_id(), owned_all(&mut e.values()))
                })
                .collect();
            let args: Vec<(u32, Vec<write::Arg<'_>>)> = elements
                .iter()
                .map(|(id, values)| (*id, values.iter().map(write::Arg::Variant).collect()))
                .collect();
            let refs: Vec<(u32, &[write::Arg<'_>])> =
                args.iter().map(|(id, a)| (*id, a.as_slice())).collect();
            write::sync(&mut out, sync.time(), &refs, EncodeOptions::godot4()).unwrap();
        }
        Godot4Packet::DeltaSync(delta) => {
            let elements: Vec<(u32, u64, Vec<Variant>)> = delta
                .elements()
                .map(|e| {
                    let e = e.unwrap();
                    (e.net_id(), e.mask(), owned_all(&mut e.values()))
                })
                .collect();
            let args: Vec<(u32, u64, Vec<write::Arg<'_>>)> = elements
                .iter()
                .map(|(id, mask, values)| {
                    (*id, *mask, values.iter().map(write::Arg::Variant).collect())
                })
                .collect();
            let refs: Vec<(u32, u64, &[write::Arg<'_>])> =
                args.iter().map(|(id, mask, a)| (*id, *mask, a.as_slice())).collect();
            write::delta_sync(&mut out, &refs, EncodeOptions::godot4()).unwrap();
        }
        Godot4Packet::Sys(Sys::Auth(data)) => write::auth(&mut out, data).unwrap(),
        Godot4Packet::Sys(Sys::AddPeer(peer)) => write::peer(&mut out, true, *peer).unwrap(),
        Godot4Packet::Sys(Sys::DelPeer(peer)) => write::peer(&mut out, false, *peer).unwrap(),
        Godot4Packet::Sys(Sys::Relay(relay)) => {
            let inner = reencode4(&relay.packet().unwrap(), options);
            write::relay(&mut out, relay.peer(), &inner).unwrap();
        }
        _ => unreachable!(),
    }
    out
}

#[test]
fn godot4_every_packet_the_engine_sent_decodes_validates_and_reencodes_byte_for_byte() {
    let records = corpus::godot4();
    let mut by_command: BTreeMap<&str, usize> = BTreeMap::new();
    let mut relayed: BTreeMap<&str, usize> = BTreeMap::new();
    for record in records.iter().filter(|r| sent_by_the_engine(r)) {
        let bytes = corpus::bytes(record);
        let options = options4(record);
        let packet = godot4::decode(&bytes, options)
            .unwrap_or_else(|e| panic!("seq {}: {e}: {}", record["seq"], record["hex"]));
        packet.validate().unwrap_or_else(|e| panic!("seq {}: {e}", record["seq"]));
        assert_eq!(reencode4(&packet, options), bytes, "seq {}", record["seq"]);
        *by_command.entry(packet.command().name()).or_default() += 1;
        if let Godot4Packet::Sys(Sys::Relay(relay)) = packet {
            *relayed.entry(relay.packet().unwrap().command().name()).or_default() += 1;
        }
    }
    // Every command the engine has, and relayed RPCs, path announcements, confirmations, raw.
    for command in
        ["rpc", "simplify_path", "confirm_path", "raw", "spawn", "despawn", "sync", "sys"]
    {
        assert!(by_command.get(command).copied().unwrap_or(0) > 0, "{command}: {by_command:?}");
    }
    for command in ["rpc", "simplify_path", "confirm_path", "raw"] {
        assert!(relayed.get(command).copied().unwrap_or(0) > 0, "{command}: {relayed:?}");
    }
    assert!(by_command.values().sum::<usize>() > 1200, "{by_command:?}");
}

/// Every call, spawn, sync and raw packet the receivers reported, checked against the packet
/// that carried it; returns how many of each were checked.
#[test]
fn godot4_packets_mean_what_the_receiving_engine_did() {
    let records = corpus::godot4();
    let methods = corpus::godot4_methods();
    let mut sessions: BTreeMap<String, Session4> = BTreeMap::new();
    let mut checked: BTreeMap<&str, usize> = BTreeMap::new();
    let mut widths = (0, 0, 0, 0);
    for record in records.iter().filter(|r| sent_by_the_engine(r)) {
        let bytes = corpus::bytes(record);
        let options = options4(record);
        let packet = godot4::decode(&bytes, options).unwrap();
        let sender = record["from"].as_i64().unwrap() as i32;
        let receiver = record["to"][0].as_i64().unwrap_or(0) as i32;
        let session = sessions
            .entry(record["net"].as_str().unwrap().to_string())
            .or_insert_with(|| Session4::new(methods.clone(), Limits::default()));
        session
            .observe(sender, receiver, &packet)
            .unwrap_or_else(|e| panic!("seq {}: {e}", record["seq"]));
        // The packet the receiver acts on: a relay from the server carries another peer's.
        // The packet the receiver acts on: what a relay carries (from the server: another
        // peer's packet; from a client to everyone: the server's own copy).
        let (route, inner) = Route::of(sender, receiver, &packet).unwrap();
        let origin = route.sender;
        for delivery in record["deliveries"].as_array().unwrap() {
            for effect in delivery["effects"].as_array().unwrap() {
                match (effect["kind"].as_str().unwrap(), &inner) {
                    ("call", Godot4Packet::Rpc(rpc)) => {
                        let call = session.rpc(route, rpc);
                        assert_eq!(call.path, effect["node"].as_str(), "seq {}", record["seq"]);
                        if effect["node"] == "World/Mismatch" {
                            // The server's list: the client called what its own list names.
                            assert_eq!(call.checksum, Checksum::Verified);
                        } else {
                            assert_eq!(
                                call.method,
                                effect["method"].as_str(),
                                "seq {}",
                                record["seq"]
                            );
                        }
                        assert_eq!(effect["from"].as_i64().unwrap() as i32, origin);
                        let expected = effect["args"].as_array().unwrap();
                        let got: Vec<_> = rpc.arguments().collect();
                        if got.iter().any(Result::is_err) {
                            panic!("seq {}: {got:?}", record["seq"]);
                        }
                        assert_eq!(got.len(), expected.len(), "seq {}", record["seq"]);
                        for (value, desc) in got.iter().zip(expected) {
                            let value = owned(value.as_ref().unwrap(), options);
                            assert!(
                                matches_description(&value, desc, gdvariant::Version::Godot4),
                                "seq {}: {value:?} vs {desc}",
                                record["seq"]
                            );
                        }
                        match rpc.node() {
                            NodeAddress::Path { .. } => widths.3 += 1,
                            _ => match rpc.node_width() {
                                IdWidth::U8 => widths.0 += 1,
                                IdWidth::U16 => widths.1 += 1,
                                IdWidth::U32 => widths.2 += 1,
                            },
                        }
                        *checked.entry("call").or_default() += 1;
                    }
                    ("spawned", Godot4Packet::Spawn(spawn)) => {
                        let name = effect["node"].as_str().unwrap().rsplit('/').next().unwrap();
                        assert_eq!(spawn.name().to_str().unwrap(), name);
                        let (kept, spawner) = session.spawned(route, spawn.net_id()).unwrap();
                        assert_eq!((kept, spawner), (name, Some("World/Spawner")));
                        // Spawn properties of spawned.tscn, in configuration order.
                        let state: Vec<Variant> =
                            spawn.state().map(|v| owned(&v.unwrap(), options)).collect();
                        for (value, property) in
                            state.iter().zip(["position", "hp", "label", "inventory"])
                        {
                            assert!(
                                matches_description(
                                    value,
                                    &effect["state"][property],
                                    gdvariant::Version::Godot4
                                ),
                                "{property}"
                            );
                        }
                        assert_eq!(state.len(), 4);
                        *checked.entry("spawn").or_default() += 1;
                    }
                    ("custom_spawn", Godot4Packet::Spawn(spawn)) => {
                        let argument = owned(&spawn.argument().unwrap(), options);
                        assert!(matches_description(
                            &argument,
                            &effect["data"],
                            gdvariant::Version::Godot4
                        ));
                        *checked.entry("custom_spawn").or_default() += 1;
                    }
                    ("despawned", Godot4Packet::Despawn(_)) => {
                        *checked.entry("despawn").or_default() += 1
                    }
                    (kind @ ("sync" | "delta_sync"), _) => {
                        let node = effect["node"].as_str().unwrap();
                        let mut found = false;
                        let mut check =
                            |net_id: u32, values: Vec<Variant>, properties: Vec<&str>| {
                                let target = session.synchronizer(route, net_id).unwrap();
                                let path = match target {
                                    SyncTarget::Path(path) => {
                                        path.trim_end_matches("/StateSync").to_string()
                                    }
                                    SyncTarget::Spawned { name, .. } => {
                                        format!("World/Spawned/{name}")
                                    }
                                };
                                if path != node {
                                    return;
                                }
                                found = true;
                                assert_eq!(values.len(), properties.len(), "{node}");
                                for (value, property) in values.iter().zip(properties) {
                                    assert!(
                                        matches_description(
                                            value,
                                            &effect["state"][property],
                                            gdvariant::Version::Godot4
                                        ),
                                        "{node} {property}"
                                    );
                                }
                            };
                        match &inner {
                            Godot4Packet::Sync(sync) => {
                                for element in sync.elements() {
                                    let element = element.unwrap();
                                    let values = element
                                        .values()
                                        .map(|v| owned(&v.unwrap(), options))
                                        .collect();
                                    let properties = if element.net_id() & godot4::PATH_ID != 0 {
                                        vec!["score"]
                                    } else {
                                        vec!["position", "flag"]
                                    };
                                    check(element.net_id(), values, properties);
                                }
                            }
                            Godot4Packet::DeltaSync(delta) => {
                                for element in delta.elements() {
                                    let element = element.unwrap();
                                    let values = element
                                        .values()
                                        .map(|v| owned(&v.unwrap(), options))
                                        .collect();
                                    let watched = if element.net_id() & godot4::PATH_ID != 0 {
                                        vec!["motd"]
                                    } else {
                                        vec!["hp", "label"]
                                    };
                                    let properties =
                                        element.indexes().map(|i| watched[i as usize]).collect();
                                    check(element.net_id(), values, properties);
                                }
                            }
                            other => panic!("{kind} from {other:?}"),
                        }
                        assert!(found, "seq {}: {node}", record["seq"]);
                        *checked.entry(kind).or_default() += 1;
                    }
                    ("raw", Godot4Packet::Raw(payload)) => {
                        assert_eq!(*payload, common::unhex(effect["hex"].as_str().unwrap()));
                        *checked.entry("raw").or_default() += 1;
                    }
                    ("auth", _) => {
                        let Godot4Packet::Sys(Sys::Auth(data)) = inner else { panic!("{inner:?}") };
                        assert_eq!(data, common::unhex(effect["hex"].as_str().unwrap()));
                        *checked.entry("auth").or_default() += 1;
                    }
                    ("peer_connected" | "peer_disconnected", _) => {
                        *checked.entry("peers").or_default() += 1;
                    }
                    (kind, other) => panic!("seq {}: {kind} from {other:?}", record["seq"]),
                }
            }
        }
    }
    for (kind, minimum) in [
        ("call", 540),
        ("spawn", 5),
        ("custom_spawn", 2),
        ("despawn", 4),
        ("sync", 8),
        ("delta_sync", 8),
        ("raw", 8),
        ("auth", 2),
    ] {
        assert!(checked.get(kind).copied().unwrap_or(0) >= minimum, "{kind}: {checked:?}");
    }
    // Node ids in 8 and 16 bits, 32-bit ids while a target has not confirmed, and paths.
    assert!(widths.0 > 100 && widths.1 > 0 && widths.2 > 0 && widths.3 > 300, "{widths:?}");
}
