//! The relay of `examples/relay.rs` with blocking sockets and two threads per connection, on
//! `gdvariant::framing::receive`: frames Godot's `get_var` accepts go through byte for byte;
//! a refused frame is skipped by its length (a frame over the size limit as its bytes arrive,
//! without keeping them) and logged with its absolute offset; a client's
//! `{"cmd": "shutdown_server"}` is dropped, read as the game reads it and failing closed (see
//! `is_shutdown_command`). Linear in the bytes relayed: each read is compacted once, each frame
//! checked once.
//!
//! ```sh
//! cargo run --example relay_std -- --listen 127.0.0.1:4000 --upstream 127.0.0.1:5000
//! ```
//!
//! Options: `--godot 3` (default 4). The first line on standard error is
//! `{"event":"listening","addr":"..."}`.

#![allow(clippy::arithmetic_side_effects, clippy::indexing_slicing, clippy::expect_used)]

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};

use gdvariant::framing::{self, LengthPrefix, Received};
use gdvariant::{Options, VariantRef};

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1));
    let listen = arg("--listen").map_or("127.0.0.1:4000", |a| a.as_str());
    let upstream = arg("--upstream").expect("--upstream ADDR is required").clone();
    let options = match arg("--godot").map(|a| a.as_str()) {
        Some("3") => Options::godot3(),
        _ => Options::godot4(),
    };
    let listener = TcpListener::bind(listen)?;
    eprintln!(r#"{{"event":"listening","addr":"{}"}}"#, listener.local_addr()?);
    for client in listener.incoming() {
        let client = client?;
        let Ok(server) = TcpStream::connect(&upstream) else {
            eprintln!("cannot connect to {upstream}");
            continue;
        };
        let _ = (client.set_nodelay(true), server.set_nodelay(true));
        let (client2, server2) = (client.try_clone()?, server.try_clone()?);
        std::thread::spawn(move || relay(client, server, options, true));
        std::thread::spawn(move || relay(server2, client2, options, false));
    }
    Ok(())
}

/// Forwards the frames of `from` that Godot accepts to `to`, until `from` closes.
fn relay(mut from: TcpStream, mut to: TcpStream, options: Options, from_client: bool) {
    let prefix = LengthPrefix::stream_peer(false);
    let mut buffer = Vec::new();
    let mut offset = 0u64; // stream offset of buffer[0]
    let mut skip = 0u64; // bytes of a refused frame still to arrive
    let mut chunk = vec![0u8; 64 << 10];
    while let Ok(n @ 1..) = from.read(&mut chunk) {
        let mut data = &chunk[..n];
        let skipped = skip.min(n as u64) as usize;
        (skip, offset, data) = (skip - skipped as u64, offset + skipped as u64, &data[skipped..]);
        buffer.extend_from_slice(data);
        let mut used = 0;
        while used < buffer.len() {
            let at = offset + used as u64;
            match framing::receive(&buffer[used..], at, prefix, options) {
                Received::Frame(frame) if from_client && is_shutdown_command(frame.value()) => {
                    eprintln!("dropped a shutdown command at byte {at}");
                    used += frame.len();
                }
                Received::Frame(frame) => {
                    if to.write_all(frame.raw_bytes()).is_err() {
                        return;
                    }
                    used += frame.len();
                }
                Received::Bad { error, len } => {
                    eprintln!(r#"{{"event":"drop","offset":{at},"len":{len},"reason":"{error}"}}"#);
                    let here = (buffer.len() - used) as u64;
                    let take = len.min(here);
                    skip = len - take;
                    used += take as usize;
                }
                Received::Incomplete { .. } => break,
            }
        }
        buffer.drain(..used); // once per read
        offset += used as u64;
    }
    let _ = to.shutdown(Shutdown::Write);
}

/// Whether the value is a dictionary whose `cmd` the game reads as `"shutdown_server"` (the last
/// `cmd`, its text as Godot reads it); a dictionary that cannot be read counts as one (fail
/// closed). O(the dictionary).
fn is_shutdown_command(value: VariantRef<'_>) -> bool {
    let Some(dictionary) = value.as_dictionary() else { return false };
    dictionary.get_is("cmd", "shutdown_server").unwrap_or(true)
}
