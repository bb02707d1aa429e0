//! A guard in front of a Godot server: forwards what the server sends, and from clients only
//! the calls, syncs, spawns and raw packets the rules file allows (Godot's multiplayer over
//! ENet or WebSocket; the rules file's format is `gdvariant_multiplayer::rules`'). `cargo run
//! -p gdvariant-relay --example guard -- --upstream ADDR --transport enet --godot 3 --rules FILE
//! [--project DIR] [--listen ADDR] [--allow-objects]`
use std::sync::Arc;

use gdvariant_multiplayer::{project::Project, rules::Rules};
use gdvariant_relay::{Config, Guard, Log, LogWriter, Messages, Relay};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| args.iter().skip_while(|a| *a != name).nth(1).ok_or(name.to_owned());
    let (listen, upstream) =
        (arg("--listen").map_or("127.0.0.1:4000", |a| a).parse()?, arg("--upstream")?);
    let config =
        Config::new(arg("--godot")?.parse()?, arg("--transport")?.parse()?, listen, upstream)
            .allow_objects(args.iter().any(|a| a == "--allow-objects")); // as allow_object_decoding
    let project = arg("--project").ok().map(|dir| Project::read_index(dir.as_ref())).transpose()?;
    let mut rules = Rules::parse(&std::fs::read_to_string(arg("--rules")?)?)?;
    if let Some(project) = &project {
        rules = rules.with_project(project);
    }
    let relay = Relay::bind(config.messages(Messages::Multiplayer)).await?;
    eprintln!(r#"{{"event":"listening","addr":"{}"}}"#, relay.local_addr());
    let guard = Guard::new(rules).with_project(project.map(Arc::new));
    relay.run(guard, Log, tokio::signal::ctrl_c()).await?;
    LogWriter::stderr().flush(std::time::Duration::from_secs(1)); // the log lines still queued
    Ok(())
}
