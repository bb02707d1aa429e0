//! Forwards what Godot accepts both ways, logs what it drops, and drops a client's
//! `{"cmd": "shutdown_server"}` as the game reads it (unreadable: dropped too).
//! `cargo run -p gdvariant-relay --example relay -- --upstream ADDR [--transport enet] [--godot 3]`
use gdvariant_relay::{Config, Direction, Frame, Log, LogWriter, Relay, Verdict};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| args.iter().skip_while(|a| *a != name).nth(1);
    let listen = arg("--listen").map_or("127.0.0.1:4000", |a| a).parse()?;
    let upstream = arg("--upstream").ok_or("--upstream ADDR is required")?;
    let transport = arg("--transport").map_or("tcp", |a| a).parse()?;
    let godot = arg("--godot").map_or("4", |v| v).parse()?; // Godot 4 unless told otherwise
    let relay = Relay::bind(Config::new(godot, transport, listen, upstream)).await?;
    eprintln!(r#"{{"event":"listening","addr":"{}"}}"#, relay.local_addr());
    relay.run(drop_shutdown, Log, tokio::signal::ctrl_c()).await?;
    LogWriter::stderr().flush(std::time::Duration::from_secs(1)); // the log lines still queued
    Ok(())
}

fn drop_shutdown(frame: &Frame) -> Verdict {
    let dictionary = frame.value().and_then(|value| value.as_dictionary());
    let command = dictionary.is_some_and(|d| d.get_is("cmd", "shutdown_server").unwrap_or(true));
    if command && frame.direction() == Direction::ToServer {
        return Verdict::drop("shutdown", "a client's shutdown_server");
    }
    Verdict::Forward
}
