//! The WebSocket proxy: one value per message, forwarded as the same message.

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

use crate::support::*;

#[test]
fn messages_godot_accepts_are_echoed_through_and_the_rest_are_dropped() {
    let upstream = websocket_echo();
    let proxy = Proxy::start(&["--websocket", "--upstream", &upstream.to_string(), "--godot", "4"]);
    let names = ["int_42", "dict_nested", "packed_vector4_basic", "string_utf8_mixed"];
    let good: Vec<Vec<u8>> = names.iter().map(|name| corpus("godot4", name)).collect();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let url = format!("ws://{}/", proxy.addr);
        let (mut socket, _) = tokio::time::timeout(PATIENCE, tokio_tungstenite::connect_async(url))
            .await
            .unwrap()
            .unwrap();
        for value in &good {
            socket.send(Message::Binary(vec![0xEE, 0, 0, 0].into())).await.unwrap();
            socket.send(Message::Binary(value.clone().into())).await.unwrap();
        }
        for value in &good {
            let message =
                tokio::time::timeout(PATIENCE, socket.next()).await.unwrap().unwrap().unwrap();
            assert_eq!(message, Message::Binary(value.clone().into()));
        }
        socket.close(None).await.unwrap();
    });
    let drops = proxy.wait_for("drop", 4);
    assert!(drops.iter().all(|d| d["reason"] == "invalid_value" && d["len"] == 4));
    let (status, events) = proxy.stop();
    assert!(status.success());
    let summary = summary(&events);
    assert_eq!(summary["forwarded"]["to_server"]["frames"], 4);
    assert_eq!(summary["forwarded"]["to_client"]["frames"], 4);
}
