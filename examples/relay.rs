//! A validating relay for Godot's `StreamPeer.put_var` traffic over TCP, on tokio, built on
//! `gdvariant::net::FrameCodec`: every frame Godot's `get_var` accepts is forwarded byte for
//! byte, in both directions; refused frames are logged (absolute offset, length, reason) and
//! dropped; a client's `{"cmd": "shutdown_server"}` is dropped too, as an example of looking
//! into a value the way the game reads it (`DictionaryRef::get_is`), failing closed.
//!
//! ```sh
//! cargo run --example relay --features tokio -- --listen 127.0.0.1:4000 --upstream 127.0.0.1:5000
//! ```
//!
//! Options: `--godot 3` (default 4). The first line on standard error is
//! `{"event":"listening","addr":"..."}`.

#![allow(clippy::arithmetic_side_effects)]

use futures_util::{SinkExt, StreamExt};
use gdvariant::Options;
use gdvariant::framing::LengthPrefix;
use gdvariant::net::{FrameCodec, Packet, SendError};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::{FramedRead, FramedWrite};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1));
    let listen = arg("--listen").map_or("127.0.0.1:4000", |a| a.as_str());
    let upstream = arg("--upstream").ok_or("--upstream ADDR is required")?.clone();
    let options = match arg("--godot").map(|a| a.as_str()) {
        Some("3") => Options::godot3(),
        _ => Options::godot4(),
    };
    let listener = TcpListener::bind(listen).await?;
    eprintln!(r#"{{"event":"listening","addr":"{}"}}"#, listener.local_addr()?);
    loop {
        let (client, peer) = listener.accept().await?;
        let upstream = upstream.clone();
        tokio::spawn(async move {
            let Ok(server) = TcpStream::connect(&upstream).await else {
                eprintln!("{peer}: cannot connect to {upstream}");
                return;
            };
            let (client_read, client_write) = client.into_split();
            let (server_read, server_write) = server.into_split();
            let up = relay(client_read, server_write, options, true);
            let down = relay(server_read, client_write, options, false);
            let (up, down) = tokio::join!(up, down);
            if let Err(e) = up.and(down) {
                eprintln!("{peer}: {e}");
            }
        });
    }
}

/// Forwards the frames of `from` that Godot accepts to `to`, until `from` closes.
async fn relay(
    from: impl AsyncRead + Unpin,
    to: impl AsyncWrite + Unpin,
    options: Options,
    from_client: bool,
) -> Result<(), SendError> {
    let codec = FrameCodec::new(LengthPrefix::stream_peer(false), options);
    let mut frames = FramedRead::new(from, codec.clone());
    let mut out = FramedWrite::new(to, codec);
    while let Some(item) = frames.next().await {
        match item? {
            Ok(packet) if from_client && is_shutdown_command(&packet) => {
                eprintln!("dropped a shutdown command at byte {}", packet.offset());
            }
            // The same bytes go out: the codec writes the payload under the same prefix.
            Ok(packet) => out.send(packet).await?,
            Err(bad) => eprintln!(
                r#"{{"event":"drop","offset":{},"len":{},"reason":"{}"}}"#,
                bad.offset(),
                bad.len(),
                bad.reason()
            ),
        }
    }
    // Every frame was flushed by `send`: close our side of `to`.
    Ok(out.into_inner().shutdown().await?)
}

/// Whether the value is a dictionary whose `cmd` the game reads as `"shutdown_server"`: the last
/// `cmd` when the key repeats, its text as Godot reads it (a Godot 3 peer may spell it with
/// overlong forms, a BOM, or junk after a NUL; a Godot 4 one as a StringName). A dictionary
/// that cannot be read counts as one (fail closed). O(the dictionary).
fn is_shutdown_command(packet: &Packet) -> bool {
    let Some(dictionary) = packet.value().as_dictionary() else { return false };
    dictionary.get_is("cmd", "shutdown_server").unwrap_or(true)
}
