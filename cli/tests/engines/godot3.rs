//! Godot 3.2.3 peers through the proxy and the example relays, over TCP and UDP.

use std::net::UdpSocket;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::godot::{Engine, free_port, free_udp_port};
use crate::support::*;

/// Values each peer sends (`values()` of peer.gd: every Godot 3 type, a 100 kB PoolByteArray
/// and an array of 5000 ints over TCP).
const TCP_VALUES: &str = "46 values";
const UDP_VALUES: &str = "44 values";

/// A Godot server, a Godot client, and `relay` between them; returns the relay for its report.
fn godot_tcp_session(relay: impl FnOnce(u16) -> Proxy, flood_it: bool) -> Proxy {
    let server_port = free_port();
    let server = Engine::godot3("tcp_server", server_port, 0);
    server.wait_ready();
    let relay = relay(server_port);
    let stop = Arc::new(AtomicBool::new(false));
    let workers = if flood_it { flood(relay.addr, &stop) } else { Vec::new() };
    let client = Engine::godot3("tcp_client", relay.addr.port(), 0);
    let client_result = client.result();
    assert!(client_result.starts_with(TCP_VALUES), "{client_result}");
    stop.store(true, Ordering::Relaxed);
    for worker in workers {
        worker.join().unwrap();
    }
    let server_result = server.result();
    assert!(server_result.starts_with(TCP_VALUES), "{server_result}");
    relay
}

#[test]
#[ignore = "needs godot3-server (.ci/run installs it)"]
fn godot3_tcp_through_the_proxy_while_hostile_clients_flood_it() {
    let mut proxy = godot_tcp_session(
        |port| {
            Proxy::start(&[
                "--upstream",
                &format!("127.0.0.1:{port}"),
                "--godot",
                "3",
                "--max-connections",
                "128",
                "--idle-timeout",
                "5",
            ])
        },
        true,
    );
    assert!(proxy.is_running());
    let (status, events) = proxy.stop();
    assert!(status.success());
    let summary = summary(&events);
    // The Godot client's own refused frames (a full object, an unknown type) were dropped, and
    // every type of both lists crossed.
    let drops = &summary["drops"];
    assert!(drops["invalid_value"].as_u64().unwrap() >= 2, "{summary}");
    for ty in [
        "Nil",
        "bool",
        "int",
        "float",
        "String",
        "Vector2",
        "Rect2",
        "Vector3",
        "Transform2D",
        "Plane",
        "Quat",
        "AABB",
        "Basis",
        "Transform",
        "Color",
        "NodePath",
        "RID",
        "Object",
        "Dictionary",
        "Array",
        "PoolByteArray",
        "PoolIntArray",
        "PoolRealArray",
        "PoolStringArray",
        "PoolVector2Array",
        "PoolVector3Array",
        "PoolColorArray",
    ] {
        assert!(summary["by_type"][ty]["frames"].as_u64().unwrap_or(0) >= 2, "{ty}: {summary}");
    }
}

#[test]
#[ignore = "needs godot3-server (.ci/run installs it)"]
fn godot3_tcp_through_the_example_relays() {
    for name in ["relay", "relay_std"] {
        let binary = example(name);
        let relay = godot_tcp_session(
            |port| {
                Proxy::start_binary(
                    &binary,
                    &[],
                    &["--upstream", &format!("127.0.0.1:{port}"), "--godot", "3"],
                )
            },
            false,
        );
        // Two frames the Godot client sent are refused by Godot: the relay logged both.
        let drops = relay.wait_for("drop", 2);
        assert_eq!(drops.len(), 2, "{name}: {drops:?}");
    }
}

#[test]
#[ignore = "needs godot3-server (.ci/run installs it)"]
fn godot3_udp_through_the_proxy_while_hostile_packets_arrive() {
    let server_port = free_udp_port();
    let server = Engine::godot3("udp_server", server_port, 0);
    server.wait_ready();
    let proxy =
        Proxy::start(&["--udp", "--upstream", &format!("127.0.0.1:{server_port}"), "--godot", "3"]);
    // Hostile packets from other addresses meanwhile: garbage, truncated values, valid ones;
    // about 1,000 a second, which the proxy's socket buffer absorbs (a UDP flood beyond what a
    // receiver reads is lost in the kernel, before any proxy sees it).
    let stop = Arc::new(AtomicBool::new(false));
    let hostile = {
        let stop = Arc::clone(&stop);
        let addr = proxy.addr;
        std::thread::spawn(move || {
            let sockets: Vec<UdpSocket> =
                (0..20).map(|_| UdpSocket::bind("127.0.0.1:0").unwrap()).collect();
            let mut round = 0u32;
            while !stop.load(Ordering::Relaxed) {
                for (i, socket) in sockets.iter().enumerate() {
                    let packet = match i % 4 {
                        0 => vec![0xAB; 64],
                        1 => vec![4, 0, 0, 0, 200, 0, 0, 0],
                        2 => vec![],
                        _ => seq(round)[4..].to_vec(),
                    };
                    let _ = socket.send_to(&packet, addr);
                }
                round += 1;
                std::thread::sleep(Duration::from_millis(20));
            }
        })
    };
    let client = Engine::godot3("udp_client", proxy.addr.port(), free_udp_port());
    let client_result = client.result();
    assert!(client_result.starts_with(UDP_VALUES), "{client_result}");
    let server_result = server.result();
    assert!(server_result.starts_with(UDP_VALUES), "{server_result}");
    stop.store(true, Ordering::Relaxed);
    hostile.join().unwrap();
    let (status, events) = proxy.stop();
    assert!(status.success());
    let summary = summary(&events);
    assert!(summary["connections"].as_u64().unwrap() >= 21, "{summary}");
    assert!(summary["drops"]["invalid_value"].as_u64().unwrap() > 2, "{summary}");
}
