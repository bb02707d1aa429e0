//! The WebSocket proxy: one value per message, forwarded as the same message.

use std::net::SocketAddr;

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

use crate::support::*;

/// A WebSocket server on loopback that echoes every data message, on a runtime of its own.
pub fn websocket_echo() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let Ok(mut socket) = tokio_tungstenite::accept_async(stream).await else {
                        return;
                    };
                    while let Some(Ok(message)) = socket.next().await {
                        if message.is_binary() || message.is_text() {
                            if socket.send(message).await.is_err() {
                                break;
                            }
                        } else if message.is_close() {
                            break;
                        }
                    }
                });
            }
        });
    });
    addr
}

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
    assert_eq!(summary["forwarded"]["to_upstream"]["frames"], 4);
    assert_eq!(summary["forwarded"]["to_client"]["frames"], 4);
}
