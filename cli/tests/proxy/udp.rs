//! The UDP proxy: one value per datagram, each client address its own upstream socket.

use std::net::UdpSocket;

use crate::support::*;

#[test]
fn datagrams_godot_accepts_go_through_in_order_and_the_rest_are_dropped() {
    let upstream = udp_echo();
    let proxy = Proxy::start(&["--udp", "--upstream", &upstream.to_string(), "--godot", "3"]);
    let client = UdpSocket::bind("127.0.0.1:0").unwrap();
    client.set_read_timeout(Some(PATIENCE)).unwrap();
    // Godot 3.2.3: var2bytes of values of many types, as PacketPeerUDP.put_var sends them.
    let names =
        ["int_42", "string_utf8_mixed", "dict_nested", "pool_vector3_basic", "transform2d_rotated"];
    let good: Vec<Vec<u8>> = names.iter().map(|name| corpus("godot3", name)).collect();
    let bad: Vec<Vec<u8>> =
        vec![vec![], vec![0xEE, 0, 0, 0], good[1][..good[1].len() - 1].to_vec()];
    let mut offset = 0u64;
    let mut expected_drops = Vec::new();
    for (i, datagram) in good.iter().enumerate() {
        if let Some(bad) = bad.get(i) {
            client.send_to(bad, proxy.addr).unwrap();
            expected_drops.push((offset, bad.len() as u64));
            offset += bad.len() as u64;
        }
        client.send_to(datagram, proxy.addr).unwrap();
        offset += datagram.len() as u64;
        // Each valid datagram comes back, before the next is sent: in order, none lost.
        let mut buffer = [0u8; 65536];
        let (n, from) = client.recv_from(&mut buffer).unwrap();
        assert_eq!(from, proxy.addr);
        assert_eq!(&buffer[..n], &datagram[..], "{}", names[i]);
    }
    let drops = proxy.wait_for("drop", 3);
    let seen: Vec<(u64, u64)> =
        drops.iter().map(|d| (d["offset"].as_u64().unwrap(), d["len"].as_u64().unwrap())).collect();
    assert_eq!(seen, expected_drops);
    assert!(drops.iter().all(|d| d["reason"] == "invalid_value" && d["direction"] == "to_server"));
    let (status, events) = proxy.stop();
    assert!(status.success());
    let summary = summary(&events);
    assert_eq!(summary["forwarded"]["to_server"]["frames"], 5);
    assert_eq!(summary["forwarded"]["to_client"]["frames"], 5);
    assert_eq!(summary["connections"], 1, "one client address, one session");
}

#[test]
fn each_client_address_gets_its_own_session_up_to_the_limit() {
    let upstream = udp_echo();
    let proxy =
        Proxy::start(&["--udp", "--upstream", &upstream.to_string(), "--max-connections", "2"]);
    let value = corpus("godot4", "int_42");
    let clients: Vec<UdpSocket> = (0..3).map(|_| UdpSocket::bind("127.0.0.1:0").unwrap()).collect();
    for client in &clients[..2] {
        client.set_read_timeout(Some(PATIENCE)).unwrap();
        client.send_to(&value, proxy.addr).unwrap();
        let mut buffer = [0u8; 64];
        let (n, _) = client.recv_from(&mut buffer).unwrap();
        assert_eq!(&buffer[..n], &value[..]);
    }
    // The third address is over the limit: its datagram is not forwarded.
    let third = &clients[2];
    third.set_read_timeout(Some(std::time::Duration::from_millis(300))).unwrap();
    third.send_to(&value, proxy.addr).unwrap();
    let mut buffer = [0u8; 64];
    assert!(third.recv_from(&mut buffer).is_err(), "no reply over the limit");
    let (_, events) = proxy.stop();
    let summary = summary(&events);
    assert_eq!(
        (summary["connections"].as_u64(), summary["refused_connections"].as_u64()),
        (Some(2), Some(1))
    );
}
