//! The multiplayer decoders, encoders and sessions do work linear in their input (n log n for
//! a session's tables): work counted (feature `work-counter`) on generated worst cases at two
//! sizes, within a constant factor of `validate`'s on the values the packets carry; and a
//! game project (scripts, scenes, settings) is read and indexed in work linear in its text.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use common::work::units;
use gdvariant::{EncodeOptions, Options, Writer};
use gdvariant_multiplayer::godot3;
use gdvariant_multiplayer::godot4::{self, Godot4Packet, write};
use gdvariant_multiplayer::session::{Limits, MethodList, Route, RpcMethods, Session4};

/// Runs `op` on `make(size)` for `size` = `small` and `4 * small`, and asserts that the work
/// grows no faster than the bytes (with room for a log factor) and stays within `per_byte`
/// units per byte, plus 10,000.
fn assert_linear(
    name: &str,
    small: usize,
    per_byte: u64,
    make: impl Fn(usize) -> (Vec<u8>, Options),
    op: impl Fn(&[u8], Options),
) {
    let measure = |size: usize| {
        let (bytes, options) = make(size);
        let units = units(|| op(&bytes, options));
        assert!(
            units <= per_byte * bytes.len() as u64 + 10_000,
            "{name}: {units} units on {} bytes",
            bytes.len()
        );
        (units, bytes.len())
    };
    let (a, a_bytes) = measure(small);
    let (b, b_bytes) = measure(small * 4);
    assert!(b_bytes >= a_bytes * 3, "{name}: the generator does not scale");
    let growth = b as f64 / a.max(1) as f64;
    let bytes_growth = b_bytes as f64 / a_bytes as f64;
    assert!(
        growth <= bytes_growth * 1.5,
        "{name}: work grew {growth:.2}x for {bytes_growth:.2}x the bytes ({a} then {b})"
    );
}

/// A Godot 4 value of about `n` bytes: arrays nested `depth` deep around a wide array.
fn value(n: usize, depth: usize) -> Vec<u8> {
    let mut writer = Writer::new(Vec::new(), EncodeOptions::godot4());
    for _ in 0..depth {
        writer.begin_array(1).unwrap();
    }
    let width = n / 8;
    writer.begin_array(width).unwrap();
    for i in 0..width {
        writer.int(i as i64).unwrap();
    }
    writer.finish().unwrap()
}

/// Decodes, validates and walks a Godot 4 packet whole.
fn read4(bytes: &[u8], options: Options) {
    let packet = godot4::decode(bytes, options).unwrap();
    packet.validate().unwrap();
    if let Godot4Packet::Rpc(rpc) = packet {
        assert!(rpc.arguments().all(|a| a.is_ok()));
    }
}

/// An RPC of `args` arguments of about `n` bytes each, nested `depth` deep.
fn rpc(n: usize, args: usize, depth: usize) -> Vec<u8> {
    let one = value(n / args.max(1), depth);
    let elements: Vec<_> =
        (0..args).map(|_| gdvariant::parse_prefix(&one, Options::godot4()).unwrap()).collect();
    let args: Vec<write::Arg<'_>> = elements.into_iter().map(write::Arg::Element).collect();
    let mut out = Vec::new();
    write::rpc(&mut out, write::Target::Path("World/Player"), 3, &args, EncodeOptions::godot4())
        .unwrap();
    out
}

#[test]
fn rpcs_of_wide_and_deep_arguments_decode_in_linear_work() {
    assert_linear(
        "rpc with 255 wide arguments",
        20_000,
        8,
        |n| (rpc(n, 255, 0), Options::godot4()),
        read4,
    );
    assert_linear(
        "rpc with one deep argument",
        20_000,
        8,
        |n| (rpc(n, 1, (n / 64).min(1000)), Options::godot4()),
        read4,
    );
    // Within a constant of validate's units on the values alone: the packet adds a constant.
    let one = value(50_000, 0);
    let bytes = rpc(50_000 * 255, 255, 0);
    let validate = common::work::validate_units(&one, Options::godot4()) * 255;
    assert!(units(|| read4(&bytes, Options::godot4())) <= 2 * validate + 10_000);
}

#[test]
fn syncs_spawns_and_relays_decode_in_linear_work() {
    let sync = |n: usize| {
        let values: Vec<write::Arg<'_>> = (0..8).map(|i| write::Arg::Int(i * 1000)).collect();
        let elements: Vec<(u32, &[write::Arg<'_>])> =
            (0..n / 40).map(|i| (i as u32, values.as_slice())).collect();
        let mut out = Vec::new();
        write::sync(&mut out, 7, &elements, EncodeOptions::godot4()).unwrap();
        (out, Options::godot4())
    };
    assert_linear("full sync of many elements", 10_000, 8, sync, read4);
    let delta = |n: usize| {
        let values: Vec<write::Arg<'_>> = (0..8).map(|i| write::Arg::Bool(i % 2 == 0)).collect();
        let elements: Vec<(u32, u64, &[write::Arg<'_>])> =
            (0..n / 32).map(|i| (i as u32, 0xFF, values.as_slice())).collect();
        let mut out = Vec::new();
        write::delta_sync(&mut out, &elements, EncodeOptions::godot4()).unwrap();
        (out, Options::godot4())
    };
    assert_linear("delta sync of many elements", 10_000, 8, delta, read4);
    let spawn = |n: usize| {
        let ids: Vec<u32> = (0..n as u32 / 8).collect();
        let state: Vec<write::Arg<'_>> = (0..n / 8).map(|i| write::Arg::Int(i as i64)).collect();
        let fields = write::SpawnFields {
            scene: 0,
            spawner: 1,
            net_id: 2,
            sync_ids: &ids,
            name: "Hero",
            argument: None,
            state: &state,
        };
        let mut out = Vec::new();
        write::spawn(&mut out, &fields, EncodeOptions::godot4()).unwrap();
        (out, Options::godot4())
    };
    assert_linear("spawn with many synchronizers", 10_000, 8, spawn, |b, o| {
        let Godot4Packet::Spawn(spawn) = godot4::decode(b, o).unwrap() else { panic!() };
        assert!(spawn.sync_ids().count() > 0 && spawn.state().all(|v| v.is_ok()));
    });
    let relay = |n: usize| {
        let mut out = Vec::new();
        write::relay(&mut out, 5, &rpc(n, 64, 0)).unwrap();
        (out, Options::godot4())
    };
    assert_linear("relay of a large rpc", 20_000, 8, relay, read4);
}

#[test]
fn godot3_calls_decode_in_linear_work() {
    let call = |n: usize| {
        let one = {
            let mut writer = Writer::new(Vec::new(), EncodeOptions::godot3());
            writer.begin_array(n / 2048).unwrap();
            for i in 0..n / 2048 {
                writer.int(i as i64).unwrap();
            }
            writer.finish().unwrap()
        };
        let elements: Vec<_> =
            (0..255).map(|_| gdvariant::parse_prefix(&one, Options::godot3()).unwrap()).collect();
        let args: Vec<godot3::write::Arg<'_>> =
            elements.into_iter().map(godot3::write::Arg::Element).collect();
        let mut out = Vec::new();
        godot3::write::call(
            &mut out,
            godot3::write::Target::Path("World/Player"),
            "jump",
            &args,
            EncodeOptions::godot3(),
        )
        .unwrap();
        (out, Options::godot3())
    };
    assert_linear("godot 3 call with 255 arguments", 100_000, 8, call, |b, o| {
        godot3::decode(b, o).unwrap().validate().unwrap();
    });
}

/// A stream of `count` SIMPLIFY_PATH packets with distinct ids and long paths, then as many RPCs
/// naming them, followed by a session: its units of work.
fn session_units(count: usize) -> (u64, usize) {
    let mut methods = RpcMethods::new();
    let list = MethodList::script(["a", "b"]);
    let checksum = *list.checksum();
    methods.node("World/**", list);
    let mut session = Session4::new(
        std::sync::Arc::new(methods),
        Limits { max_entries: usize::MAX, max_path: 4096, max_bytes: usize::MAX },
    );
    let mut packets = Vec::new();
    for id in 0..count as u32 {
        let mut p = Vec::new();
        write::simplify_path(
            &mut p,
            &checksum,
            id.wrapping_mul(2_654_435_761) & 0x7FFF_FFFF,
            &format!("World/{}/N{id}", "x".repeat(40)),
        )
        .unwrap();
        packets.push(p);
    }
    for id in 0..count as u32 {
        let mut p = Vec::new();
        write::rpc(
            &mut p,
            write::Target::Cached(id.wrapping_mul(2_654_435_761) & 0x7FFF_FFFF),
            1,
            &[write::Arg::Int(1)],
            EncodeOptions::godot4(),
        )
        .unwrap();
        packets.push(p);
    }
    let bytes = packets.iter().map(Vec::len).sum();
    let units = units(|| {
        for p in &packets {
            let packet = godot4::decode(p, Options::godot4()).unwrap();
            session.observe(7, 1, &packet).unwrap();
            if let Godot4Packet::Rpc(rpc) = packet {
                assert_eq!(session.rpc(Route::direct(7, 1), &rpc).method, Some("b"));
            }
        }
    });
    (units, bytes)
}

#[test]
fn a_session_follows_n_announcements_in_n_log_n_work() {
    let (a, a_bytes) = session_units(2_000);
    let (b, b_bytes) = session_units(8_000);
    let growth = b as f64 / a as f64;
    let bytes_growth = b_bytes as f64 / a_bytes as f64;
    assert!(
        growth <= bytes_growth * 1.5,
        "work grew {growth:.2}x for {bytes_growth:.2}x the bytes ({a} then {b})"
    );
    assert!(b <= 2 * b_bytes as u64, "{b} units for {b_bytes} bytes");
}

/// A generated Godot 4 project of about `n` bytes, as `path\0text\0` records: a chain of 32
/// scripts each extending the one before (every one with `@rpc` functions, annotations with
/// arguments, comments and strings that look like annotations, `rpc_config` calls), and a scene
/// of nested nodes (each with a script) with a synchronizer whose config has many properties.
fn project_bundle(n: usize) -> (Vec<u8>, Options) {
    let mut files: Vec<(String, String)> = Vec::new();
    let per_script = n / 2 / 32;
    for s in 0..32 {
        let mut text = if s == 0 {
            "extends Node\n".to_string()
        } else {
            format!("extends \"res://s{}.gd\"\n", s - 1)
        };
        let mut f = 0;
        while text.len() < per_script {
            text.push_str(&format!(
                "# @rpc(\"any_peer\") fake_{f}\n@rpc(\"any_peer\", \"call_local\", \"reliable\", {f})\nfunc m{s}_{f}(a, b):\n\tvar t = \"@rpc func no_{f}()\"\n\trpc_config(&\"c{f}\", {{\"rpc_mode\": 1}})\n"
            ));
            f += 1;
        }
        files.push((format!("res://s{s}.gd"), text));
    }
    let mut scene = String::from(
        "[gd_scene format=3]\n\n[ext_resource type=\"Script\" path=\"res://s31.gd\" id=\"1\"]\n\n[sub_resource type=\"SceneReplicationConfig\" id=\"cfg\"]\n",
    );
    let mut p = 0;
    while scene.len() < n / 4 {
        scene.push_str(&format!(
            "properties/{p}/path = NodePath(\".:p{p}\")\nproperties/{p}/spawn = true\nproperties/{p}/replication_mode = 1\n"
        ));
        p += 1;
    }
    scene.push_str("\n[node name=\"Root\" type=\"Node\"]\nscript = ExtResource(\"1\")\n");
    let mut parent = ".".to_string();
    let mut k = 0;
    while scene.len() < n / 2 {
        scene.push_str(&format!(
            "\n[node name=\"N{k}\" type=\"Node\" parent=\"{parent}\"]\nscript = ExtResource(\"1\")\n"
        ));
        parent = if parent == "." { format!("N{k}") } else { format!("{parent}/N{k}") };
        if k % 16 == 15 {
            parent = ".".to_string();
        }
        k += 1;
    }
    scene.push_str("\n[node name=\"Sync\" type=\"MultiplayerSynchronizer\" parent=\".\"]\nroot_path = NodePath(\"..\")\nreplication_config = SubResource(\"cfg\")\n");
    files.push(("res://main.tscn".to_string(), scene));
    let settings = "[application]\nrun/main_scene=\"res://main.tscn\"\n";
    files.push(("res://project.godot".to_string(), settings.to_string()));
    let mut bundle = Vec::new();
    for (path, text) in files {
        bundle.extend(path.as_bytes());
        bundle.push(0);
        bundle.extend(text.as_bytes());
        bundle.push(0);
    }
    (bundle, Options::godot4())
}

#[test]
fn a_project_is_read_and_indexed_in_linear_work() {
    use gdvariant_multiplayer::project::Project;
    assert_linear("project", 100_000, 8, project_bundle, |bundle, _| {
        let text = std::str::from_utf8(bundle).unwrap();
        let parts: Vec<&str> = text.split('\0').collect();
        let mut project = Project::new();
        for pair in parts.chunks_exact(2) {
            project.add_file(pair[0], pair[1]);
        }
        let index = project.index();
        assert!(index.node_paths().count() > 10);
    });
}

/// Rules of `lines` allow lines with long path patterns (none matching until the last), as a
/// guard's worst case: every call is compared with every line.
fn many_rules(lines: usize) -> gdvariant_multiplayer::rules::Rules {
    let mut methods = RpcMethods::new();
    methods.node("World/**", MethodList::script(["a", "b"]));
    let mut rules = gdvariant_multiplayer::rules::Rules::new().with_methods(methods);
    for i in 0..lines {
        rules =
            rules.allow(&format!("World/{}/Other{i}/**", "y".repeat(40)), "jump", Some(1_000_000));
    }
    rules.allow("World/**", "*", Some(1_000_000))
}

/// The library's guard path on `n` bytes of client traffic: a tracker (decode, validate,
/// follow, name) and the rules' decision, per message.
fn guard_units(
    packets: &[Vec<u8>],
    version: gdvariant::Version,
    framing: gdvariant_multiplayer::Framing,
) -> u64 {
    use gdvariant_multiplayer::Direction;
    use gdvariant_multiplayer::rules::Rates;
    use gdvariant_multiplayer::track::Tracker;
    let rules = many_rules(64);
    let mut tracker = Tracker::new(version, framing, std::sync::Arc::clone(rules.methods()))
        .with_limits(Limits { max_entries: usize::MAX, max_path: 4096, max_bytes: usize::MAX })
        .with_client(7);
    let mut rates = Rates::default();
    units(|| {
        for packet in packets {
            let message = tracker.message(Direction::ToServer, 1, packet).unwrap();
            assert!(rules.judge(&mut rates, &message).passes());
        }
    })
}

#[test]
fn the_guard_path_tracks_and_judges_in_linear_work() {
    // Godot 4: announcements of long paths, then calls of wide and deep arguments naming them.
    let godot4 = |n: usize| {
        let count = n / 2_000;
        let mut packets = Vec::new();
        let list = MethodList::script(["a", "b"]);
        for id in 0..count as u32 {
            let mut p = Vec::new();
            let path = format!("World/{}/N{id}", "x".repeat(40));
            write::simplify_path(
                &mut p,
                list.checksum(),
                id.wrapping_mul(2_654_435_761) & 0x7FFF_FFFF,
                &path,
            )
            .unwrap();
            packets.push(p);
        }
        for id in 0..count as u32 {
            let one = value(1_500, (id as usize) % 40);
            let element = gdvariant::parse_prefix(&one, Options::godot4()).unwrap();
            let mut p = Vec::new();
            let target = write::Target::Cached(id.wrapping_mul(2_654_435_761) & 0x7FFF_FFFF);
            write::rpc(&mut p, target, 1, &[write::Arg::Element(element)], EncodeOptions::godot4())
                .unwrap();
            packets.push(p);
        }
        packets
    };
    // Godot 3 over ENet: calls with their long paths inline, wide arguments.
    let godot3 = |n: usize| {
        (0..n / 2_000)
            .map(|i| {
                let mut writer = Writer::new(Vec::new(), EncodeOptions::godot3());
                writer.begin_array(200).unwrap();
                for j in 0..200 {
                    writer.int(j).unwrap();
                }
                let one = writer.finish().unwrap();
                let element = gdvariant::parse_prefix(&one, Options::godot3()).unwrap();
                let mut p = vec![7, 0, 0, 0, 1, 0, 0, 0];
                let path = format!("World/{}/N{i}", "z".repeat(200));
                godot3::write::call(
                    &mut p,
                    godot3::write::Target::Path(&path),
                    "jump",
                    &[godot3::write::Arg::Element(element)],
                    EncodeOptions::godot3(),
                )
                .unwrap();
                p
            })
            .collect::<Vec<_>>()
    };
    type Make = dyn Fn(usize) -> Vec<Vec<u8>>;
    let cases: [(&str, &Make, gdvariant::Version, gdvariant_multiplayer::Framing); 2] = [
        (
            "godot 4 calls",
            &godot4,
            gdvariant::Version::Godot4,
            gdvariant_multiplayer::Framing::Packets,
        ),
        (
            "godot 3 enet calls",
            &godot3,
            gdvariant::Version::Godot3,
            gdvariant_multiplayer::Framing::Enet3,
        ),
    ];
    for (name, make, version, framing) in cases {
        let measure = |n: usize| {
            let packets = make(n);
            let bytes: usize = packets.iter().map(Vec::len).sum();
            let units = guard_units(&packets, version, framing);
            assert!(units <= 16 * bytes as u64 + 10_000, "{name}: {units} units on {bytes} bytes");
            (units, bytes)
        };
        let (a, a_bytes) = measure(400_000);
        let (b, b_bytes) = measure(1_600_000);
        let growth = b as f64 / a as f64;
        let bytes_growth = b_bytes as f64 / a_bytes as f64;
        assert!(bytes_growth >= 3.0, "{name}: the generator does not scale");
        assert!(
            growth <= bytes_growth * 1.5,
            "{name}: work grew {growth:.2}x for {bytes_growth:.2}x the bytes ({a} then {b})"
        );
    }
}
