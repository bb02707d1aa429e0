//! Godot 4's checksums: the MD5 of the engine's sorted method lists, and a differing list
//! detected.

use super::*;

#[test]
fn godot4_checksums_are_the_md5_of_the_engine_s_sorted_method_lists() {
    let methods = corpus::godot4_methods();
    let mut session = Session4::new(methods, Limits::default());
    let (mut verified, mut empty) = (0, 0);
    for record in corpus::godot4().iter().filter(|r| sent_by_the_engine(r) && r["net"] == "main") {
        let bytes = corpus::bytes(record);
        let packet = godot4::decode(&bytes, Options::godot4()).unwrap();
        let sender = record["from"].as_i64().unwrap() as i32;
        session.observe(sender, record["to"][0].as_i64().unwrap() as i32, &packet).unwrap();
        let receiver = record["to"][0].as_i64().unwrap() as i32;
        let (route, Godot4Packet::SimplifyPath(simplify)) =
            Route::of(sender, receiver, &packet).unwrap()
        else {
            continue;
        };
        let path = simplify.path().to_str().unwrap();
        if path.ends_with("Spawner") || path.ends_with("StateSync") {
            // Nodes without RPC methods: the MD5 of nothing.
            assert_eq!(simplify.checksum(), gdvariant_multiplayer::checksum_of([]));
            empty += 1;
            continue;
        }
        // Every list is the server's: the clients' World/Mismatch differs, which their
        // confirmations say (checksum_valid false) while the server's own list verifies.
        assert_eq!(session.checksum(route, simplify.id()), Some(Checksum::Verified), "{path}");
        verified += 1;
    }
    assert!(verified > 300 && empty > 0, "{verified} {empty}");
}

#[test]
fn godot4_a_method_list_that_differs_from_the_peer_s_is_detected() {
    // The clients' script of World/Mismatch lacks "beta" and has "gamma": given as the list of
    // that node, the server's checksum does not match, and its ids stay unnamed.
    let mut methods = gdvariant_multiplayer::session::RpcMethods::new();
    methods.node(
        "World/Mismatch",
        gdvariant_multiplayer::session::MethodList::script(["alpha", "gamma"]),
    );
    let mut session = Session4::new(std::sync::Arc::new(methods), Limits::default());
    let mut seen = 0;
    for record in corpus::godot4().iter().filter(|r| r["step"] == "rpc_method_list_mismatch") {
        let bytes = corpus::bytes(record);
        let packet = godot4::decode(&bytes, Options::godot4()).unwrap();
        let sender = record["from"].as_i64().unwrap() as i32;
        session.observe(sender, record["to"][0].as_i64().unwrap() as i32, &packet).unwrap();
        match packet {
            Godot4Packet::Rpc(rpc) => {
                let call = session
                    .rpc(Route::direct(sender, record["to"][0].as_i64().unwrap() as i32), &rpc);
                assert_eq!(
                    (call.path, call.method, call.checksum),
                    (Some("World/Mismatch"), None, Checksum::Mismatch)
                );
                seen += 1;
            }
            Godot4Packet::ConfirmPath(confirm) => assert!(!confirm.checksum_valid()),
            _ => {}
        }
    }
    assert_eq!(seen, 2);
}
