//! `gdvariant multiplayer FILE`: a multiplayer capture (`gdvariant proxy --capture`) decoded,
//! one line per message (Godot's text of the arguments, or JSON), then per-call statistics.
//! `connection.rs` decodes and follows each connection (shared with the proxy), `rules.rs` reads
//! the rules file (Godot 4 method lists, the proxy's allow-list), `stats.rs` counts.

pub mod connection;
mod exact_json;
pub mod rules;
pub mod stats;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use gdvariant_multiplayer::capture;
use serde_json::json;

use crate::failure::Failure;
use crate::output::Out;
use crate::{FileArg, Format, input};
use connection::Connection;
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
    /// RPC arguments may hold full objects (`allow_object_decoding`).
    #[arg(long)]
    allow_objects: bool,
    /// Print only the statistics.
    #[arg(long)]
    stats: bool,
}

/// Runs `multiplayer`.
pub fn run(args: &MultiplayerArgs) -> Result<ExitCode, Failure> {
    let methods = match &args.rules {
        Some(path) => rules::Rules::read(path)?.methods,
        None => Arc::default(),
    };
    let name = input::name(&args.file);
    let bytes = input::open(&args.file)?;
    let header = capture::header(&bytes)
        .map_err(|e| Failure::input(&name, format!("not a capture: {e}")))?;
    let mut connections: BTreeMap<u32, Connection> = BTreeMap::new();
    let mut stats = Stats::default();
    let mut out = Out::stdout();
    for record in capture::records(&bytes) {
        let record = record.map_err(|e| Failure::input(&name, e))?;
        let head = record.head;
        let connection = connections.entry(head.connection).or_insert_with(|| {
            Connection::new(
                header.version,
                header.transport,
                args.allow_objects,
                Arc::clone(&methods),
            )
            .with_natural_json(args.format == Format::Natural)
        });
        let seconds = head.micros as f64 / 1e6;
        let decoded = connection.message(head.direction, head.channel, record.bytes);
        let hex: String = record.bytes.iter().map(|b| format!("{b:02x}")).collect();
        let dropped = head.flags & capture::DROPPED != 0;
        match decoded {
            Ok(message) => {
                match &message.call {
                    Some(call) => stats.call(call.key(), record.bytes.len()),
                    None => stats.command(
                        message.json.get("command").and_then(|c| c.as_str()).unwrap_or("?"),
                        record.bytes.len(),
                    ),
                }
                if args.stats {
                    continue;
                }
                match args.format {
                    Format::Text => out.line(&format!(
                        "{seconds:.6}\tc{}\t{}\t{} -> {}\t{}{}",
                        head.connection,
                        head.direction.name(),
                        message.from,
                        message.to,
                        message.text,
                        if dropped { "\t(dropped by the proxy)" } else { "" }
                    ))?,
                    Format::Json | Format::Natural => out.line(&exact_json::to_line(&json!({
                        "time": seconds, "connection": head.connection, "direction": head.direction.name(),
                        "channel": head.channel, "mode": head.mode, "dropped": dropped,
                        "from": message.from, "to": message.to, "hex": hex, "message": message.json,
                    })))?,
                }
            }
            Err(refusal) => {
                stats.refused(refusal.reason);
                if args.stats {
                    continue;
                }
                match args.format {
                    Format::Text => out.line(&format!(
                        "{seconds:.6}\tc{}\t{}\trefused ({}): {}",
                        head.connection, head.direction.name(), refusal.reason, refusal.detail
                    ))?,
                    Format::Json | Format::Natural => out.line(&json!({
                        "time": seconds, "connection": head.connection, "direction": head.direction.name(),
                        "channel": head.channel, "mode": head.mode, "dropped": dropped, "hex": hex,
                        "refused": refusal.reason, "detail": refusal.detail,
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
    Ok(ExitCode::SUCCESS)
}
