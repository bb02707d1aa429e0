//! `gdvariant multiplayer FILE`: a multiplayer capture (`gdvariant proxy --capture`) decoded,
//! one line per message (Godot's text of the arguments, or JSON), then per-call statistics.
//! Each connection is followed by the library's tracker (`gdvariant_multiplayer::track`);
//! `describe.rs` prints what it read (shared with the proxy), `project.rs` reads the rules file
//! and the game's project (`--project`: method lists, spawn and sync property names) with their
//! warnings, `stats.rs` counts.

pub mod describe;
pub mod exact_json;
pub mod project;
pub mod stats;
pub mod values;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use gdvariant_multiplayer::capture;
use gdvariant_multiplayer::track::Tracker;
use serde_json::json;

use crate::failure::Failure;
use crate::output::Out;
use crate::{FileArg, Format, input};
use describe::describe;
use stats::Stats;

/// Arguments of `multiplayer`.
#[derive(Args, Debug)]
pub struct MultiplayerArgs {
    /// The capture file (`-`: standard input).
    file: FileArg,
    /// How to print each message: text (an argument as Godot's `var2str` / `var_to_str` on one
    /// line, string escapes `\n` `\t` `\r`; a Godot 3 RID, which Godot prints as nothing, as
    /// `RID()`), or one JSON object per line: each value a message carries as
    /// `{"value": lossless JSON, "hex": its bytes in the packet}` (`natural`: the values as
    /// natural JSON).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// A rules file whose `methods` lines name Godot 4 RPC method ids.
    #[arg(long, value_name = "FILE")]
    rules: Option<PathBuf>,
    /// The game's Godot 4 project folder (the one holding `project.godot`): its scripts and
    /// scenes name RPC methods and the properties SPAWN and SYNC carry (a rules file's method
    /// lines win for the nodes they name).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// RPC arguments may hold full objects (`allow_object_decoding`).
    #[arg(long)]
    allow_objects: bool,
    /// Print only the statistics.
    #[arg(long)]
    stats: bool,
}

/// Runs `multiplayer`.
pub fn run(args: &MultiplayerArgs) -> Result<ExitCode, Failure> {
    let names = project::Names::read(args.rules.as_deref(), args.project.as_deref())?;
    let (methods, index) = (names.methods(), names.index());
    let name = input::name(&args.file);
    let bytes = input::open(&args.file)?;
    let header = capture::header(&bytes)
        .map_err(|e| Failure::input(&name, format!("not a capture: {e}")))?;
    if header.version == gdvariant::Version::Godot3 {
        names.warn_godot3("a Godot 3 capture");
    }
    let mut called: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let mut connections: BTreeMap<u32, Tracker> = BTreeMap::new();
    let mut stats = Stats::default();
    let mut out = Out::stdout();
    let natural = args.format == Format::Natural;
    for record in capture::records(&bytes) {
        let record = record.map_err(|e| Failure::input(&name, e))?;
        let head = record.head;
        let tracker = connections.entry(head.connection).or_insert_with(|| {
            Tracker::new(header.version, header.framing, Arc::clone(&methods))
                .with_allow_objects(args.allow_objects)
                .with_project(index.clone())
        });
        let seconds = head.micros as f64 / 1e6;
        let decoded = tracker
            .message(head.direction, head.channel, record.bytes)
            .map_err(|refusal| (refusal.reason(), refusal.to_string()));
        let decoded = decoded.and_then(|message| {
            let described = describe(&message, natural)
                .map_err(|error| ("invalid_packet", error.to_string()))?;
            let call = message
                .call
                .as_ref()
                .map(|call| (call.to_string(), call.node.as_deref().map(String::from)));
            Ok((message.from, message.to, call, described))
        });
        let hex: String = record.bytes.iter().map(|b| format!("{b:02x}")).collect();
        let dropped = head.flags & capture::DROPPED != 0;
        match decoded {
            Ok((from, to, call, message)) => {
                if let Some((key, node)) = &call {
                    if let Some(node) = node.as_ref().filter(|n| !called.contains(*n)) {
                        called.insert(node.clone());
                    }
                    stats.call(key.clone(), record.bytes.len());
                } else {
                    stats.command(
                        message.json.get("command").and_then(|c| c.as_str()).unwrap_or("?"),
                        record.bytes.len(),
                    );
                }
                if args.stats {
                    continue;
                }
                match args.format {
                    Format::Text => out.line(&format!(
                        "{seconds:.6}\tc{}\t{}\t{} -> {}\t{}{}",
                        head.connection,
                        head.direction.name(),
                        from,
                        to,
                        message.text,
                        if dropped { "\t(dropped by the proxy)" } else { "" }
                    ))?,
                    Format::Json | Format::Natural => out.line(&exact_json::to_line(&json!({
                        "time": seconds, "connection": head.connection, "direction": head.direction.name(),
                        "channel": head.channel, "mode": head.mode, "dropped": dropped,
                        "from": from, "to": to, "hex": hex, "message": message.json,
                    })))?,
                }
            }
            Err((reason, detail)) => {
                stats.refused(reason);
                if args.stats {
                    continue;
                }
                match args.format {
                    Format::Text => out.line(&format!(
                        "{seconds:.6}\tc{}\t{}\trefused ({}): {}",
                        head.connection, head.direction.name(), reason, detail
                    ))?,
                    Format::Json | Format::Natural => out.line(&json!({
                        "time": seconds, "connection": head.connection, "direction": head.direction.name(),
                        "channel": head.channel, "mode": head.mode, "dropped": dropped, "hex": hex,
                        "refused": reason, "detail": detail,
                    }).to_string())?,
                }
            }
        }
    }
    match args.format {
        Format::Text => {
            if !args.stats {
                out.line("")?;
            }
            for line in stats.lines() {
                out.line(&line)?;
            }
        }
        Format::Json | Format::Natural => out.line(&stats.json().to_string())?,
    }
    out.finish()?;
    // A rules key that names no node of the project or of the capture is likely misspelled.
    names.warn_unmatched(
        called.iter().map(String::as_str).chain(connections.values().flat_map(Tracker::paths_seen)),
    );
    Ok(ExitCode::SUCCESS)
}
