//! `gdvariant pcap FILE`: the Godot values in a tcpdump or Wireshark capture (pcap, pcapng),
//! one line per value (Godot's text, or JSON with the value's bytes), a refused frame as a
//! line with its error; `--flows` and `--stats` list the flows instead. Everything is read by
//! the `gdvariant-pcap` library; this file parses the arguments and prints. What was not read
//! (gaps, retransmissions, evicted flows, packets of other kinds) is counted on standard error
//! at the end. WebSocket flows: `websocket.rs`; ENet flows: `enet.rs`; `--multiplayer`
//! (trackers, `--rules`, `--project`, per-method `--stats`): `multiplayer.rs`; `--to-capture`
//! writes the multiplayer capture format (`gdvariant_pcap::write_capture`). `--jobs N` reads
//! the flows on N threads (`gdvariant_pcap::Sharded::try_each`: the items in capture order, as
//! with one, the next window read while this one is printed) and renders the value lines of
//! each batch of items on N threads, printed in order: the output is the same.

mod enet;
mod multiplayer;
mod websocket;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use gdvariant::{Options, Version};
use gdvariant_pcap::{Carrier, Config, FlowInfo, Item, Sharded, Totals};
use rayon::prelude::*;

use crate::failure::{self, Failure};
use crate::multiplayer::project::Names;
use crate::multiplayer::values;
use crate::output::{self, Out};
use crate::{FileArg, Format, FrameArgs, PrefixKind, input, options};

/// The Godot version of the values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PcapGodot {
    /// Godot 3.x.
    #[value(name = "3")]
    Three,
    /// Godot 4.x.
    #[value(name = "4")]
    Four,
}

/// Arguments of `pcap`.
#[derive(Args, Debug)]
pub struct PcapArgs {
    /// The capture file (pcap or pcapng; `-`: standard input).
    file: FileArg,
    /// The Godot version of every flow. Without it, each flow's is told from what it carries
    /// (`--flows` says how), Godot 4 where nothing tells.
    #[arg(long, value_enum)]
    godot: Option<PcapGodot>,
    /// How to print each value: Godot's text on one line, or one JSON object per line
    /// (`{"time", "flow", "direction", "hex", "value"}`, the value as lossless JSON; `natural`:
    /// as natural JSON); a refused frame has `error` instead of `value`.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// List every flow (endpoints, what it carries and why) instead of the values.
    #[arg(long)]
    flows: bool,
    /// Print per-flow counts instead of the values (with `--multiplayer`, also per flow,
    /// direction and called method: messages, bytes, refusals).
    #[arg(long)]
    stats: bool,
    /// What a port carries, whatever detection says: `PORT=tcp` (`put_var` frames), `PORT=udp`
    /// (one value per datagram), `PORT=websocket` (WebSocket over TCP), `PORT=enet` (ENet) or
    /// `PORT=ignore`. Repeatable.
    #[arg(long, value_name = "PORT=tcp|udp|websocket|enet|ignore", value_parser = parse_port)]
    port: Vec<(u16, Carrier)>,
    /// Values may hold full objects (`allow_objects`).
    #[arg(long)]
    allow_objects: bool,
    /// The length prefix of TCP frames: `stream-peer` (`StreamPeer.put_var`, signed),
    /// `packet-peer-stream`, or `store-var` (unsigned).
    #[arg(long, value_enum, default_value = "stream-peer")]
    prefix: PrefixKind,
    /// The prefix is big-endian (the peer's `big_endian` was set).
    #[arg(long)]
    big_endian: bool,
    /// Largest frame accepted, in bytes (the value; the 4-byte prefix is not counted).
    #[arg(long, value_name = "BYTES", default_value_t = gdvariant::framing::DEFAULT_MAX_FRAME_SIZE)]
    max_frame_len: u32,
    /// ENet messages and WebSocket binary messages are Godot's high-level multiplayer packets
    /// (Godot 3's 8-byte ENet or 9-byte WebSocket header; Godot 4's packets, over WebSocket with
    /// the client's id first), printed as `gdvariant multiplayer` prints them (from, to, the
    /// call and its arguments; ENet messages with their channel and transfer mode), instead of
    /// one value each.
    #[arg(long)]
    multiplayer: bool,
    /// With `--multiplayer`: a rules file whose `methods` lines name Godot 4 RPC method ids (as
    /// `gdvariant multiplayer --rules`).
    #[arg(long, value_name = "FILE", requires = "multiplayer")]
    rules: Option<PathBuf>,
    /// With `--multiplayer`: the game's Godot 4 project folder (the one holding
    /// `project.godot`), naming RPC methods and what SPAWN and SYNC carry (as `gdvariant
    /// multiplayer --project`).
    #[arg(long, value_name = "DIR", requires = "multiplayer")]
    project: Option<PathBuf>,
    /// Write the WebSocket and ENet flows' multiplayer messages to OUT in the multiplayer
    /// capture format (`gdvariant multiplayer OUT` reads it) instead of printing; a capture
    /// whose flows need two of its headers (versions, ENet and WebSocket) is refused.
    #[arg(long, value_name = "OUT", conflicts_with = "multiplayer")]
    to_capture: Option<PathBuf>,
    /// Threads reading the flows and rendering the lines (0: one per core). The output is the
    /// same whatever the number (items in capture order), but past the reader's limits on
    /// flows and bytes held at once, whose share each thread's flows have (which flows are
    /// evicted may then differ). `--to-capture` reads on one.
    #[arg(long, value_name = "N", default_value_t = 1)]
    jobs: usize,
}

fn parse_port(text: &str) -> Result<(u16, Carrier), String> {
    let (port, kind) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}`: expected PORT=tcp|udp|websocket|enet|ignore"))?;
    let port: u16 = port.parse().map_err(|_| format!("`{port}` is not a port number"))?;
    let carrier = match kind {
        "tcp" => Carrier::PutVar,
        "udp" => Carrier::Datagrams,
        "websocket" => Carrier::WebSocket,
        "enet" => Carrier::Enet,
        "ignore" => Carrier::Other,
        _ => return Err(format!("`{kind}`: expected tcp, udp, websocket, enet or ignore")),
    };
    Ok((port, carrier))
}

/// Runs `pcap`.
pub fn run(args: &PcapArgs) -> Result<ExitCode, Failure> {
    if let Some(path) = &args.to_capture {
        output::check_not_input(&[("--to-capture", path)], &[&args.file])?;
    }
    let name = input::name(&args.file);
    let bytes = input::open(&args.file)?;
    let version = match args.godot {
        Some(PcapGodot::Three) => Version::Godot3,
        Some(PcapGodot::Four) | None => Version::Godot4,
    };
    let mut config = Config::new(Options::new(version).with_allow_objects(args.allow_objects));
    config.detect_version = args.godot.is_none();
    for (port, carrier) in &args.port {
        config = config.with_port(*port, *carrier);
    }
    config.prefix = options::prefix(FrameArgs {
        prefix: args.prefix,
        big_endian: args.big_endian,
        max_frame_len: args.max_frame_len,
    });
    if let Some(path) = &args.to_capture {
        return to_capture(&name, &bytes, config, path);
    }
    config.websocket_raw = args.multiplayer;
    let mut multiplayer = if args.multiplayer {
        let names = Names::read(args.rules.as_deref(), args.project.as_deref())?;
        let natural = args.format == Format::Natural;
        Some(multiplayer::Multiplayer::new(args.allow_objects, names, natural))
    } else {
        None
    };
    let mut reader =
        Sharded::new(&bytes, config, args.jobs).map_err(|e| Failure::input(&name, e))?;
    let mut out = Out::stdout();
    let list = !args.flows && !args.stats;
    let json = args.format != Format::Text;
    let enet = enet::Printer::new(args.format, args.allow_objects);
    let pool = (list && reader.threads() > 1)
        .then(|| rayon::ThreadPoolBuilder::new().num_threads(reader.threads()).build().ok())
        .flatten();
    // Prints an item (`line`: its line rendered already).
    let mut print = |item: Item<'_>, line: Option<String>| -> Result<(), Failure> {
        match item {
            Item::Value(value) => {
                if list {
                    let line = line.unwrap_or_else(|| value_line(&value, args.format));
                    out.line(&line)?;
                }
            }
            Item::Refused(refused) => {
                if list {
                    let line = line.unwrap_or_else(|| refused_line(&refused, args.format));
                    out.line(&line)?;
                }
            }
            Item::Enet(message) => {
                if list {
                    out.line(&enet.line(&message, multiplayer.as_mut()))?;
                } else if let Some(multiplayer) = multiplayer.as_mut() {
                    // `--flows` / `--stats`: the tracker still follows the flow and counts the
                    // message (a refusal too) in its per-method statistics; nothing is printed
                    // or described.
                    multiplayer.count_enet(&message);
                }
            }
            Item::Gap(gap) => failure::error_line(format!(
                "{name}: {} {}: {} bytes missing at stream byte {}, {} bytes passed over{}",
                gap.flow,
                gap.direction.name(),
                gap.missing,
                gap.offset,
                gap.skipped,
                if gap.resynced { "" } else { " (no frame found again)" }
            )),
            Item::Cut(cut) => failure::error_line(format!(
                "{name}: {} {}: ended inside a frame ({} bytes of it, {} more needed)",
                cut.flow,
                cut.direction.name(),
                cut.held,
                cut.needed
            )),
            Item::Evicted { flow, .. } => {
                if let Some(multiplayer) = multiplayer.as_mut() {
                    multiplayer.end(flow);
                }
                failure::error_line(format!(
                    "{name}: {flow}: evicted (too many flows or bytes held at once)"
                ))
            }
            Item::WebSocket(ws) => {
                websocket::item(&ws, &name, args.format, list, multiplayer.as_mut(), &mut out)?
            }
        }
        Ok(())
    };
    match &pool {
        None => reader.try_each(|item| print(item, None))?,
        Some(pool) => {
            // Batches of items, their value lines rendered on the pool, printed in order.
            let mut batch = Vec::with_capacity(BATCH);
            let mut flush = |batch: &mut Vec<Item<'_>>| -> Result<(), Failure> {
                let lines = render(pool, batch, args.format);
                batch.drain(..).zip(lines).try_for_each(|(item, line)| print(item, line))
            };
            reader.try_each(|item| {
                batch.push(item);
                if batch.len() >= BATCH { flush(&mut batch) } else { Ok(()) }
            })?;
            flush(&mut batch)?;
        }
    }
    let flows = reader.flows();
    if args.flows {
        for flow in &flows {
            out.line(&flow_line(flow, json))?;
        }
    }
    if args.stats {
        for flow in &flows {
            out.line(&stats_line(flow, json))?;
        }
        if let Some(multiplayer) = &multiplayer {
            for line in multiplayer.stats_lines(json) {
                out.line(&line)?;
            }
        }
    }
    out.finish()?;
    if let Some(multiplayer) = &multiplayer {
        multiplayer.finish();
    }
    summary(&name, &reader.totals(), &flows);
    Ok(match &reader.totals().file_error {
        Some(_) => ExitCode::from(failure::REFUSED),
        None => ExitCode::SUCCESS,
    })
}

/// `--to-capture`: the WebSocket and ENet flows' messages written to `path` (beside, then
/// renamed).
fn to_capture(
    name: &str,
    bytes: &[u8],
    config: Config,
    path: &std::path::Path,
) -> Result<ExitCode, Failure> {
    let mut encoded = Vec::new();
    let written =
        gdvariant_pcap::write_capture(bytes, config, &mut encoded).map_err(|e| match e {
            gdvariant_pcap::WriteError::Mixed(_) => Failure::input(
                name,
                format!("{e}: nothing written; leave flows out with --port PORT=ignore"),
            ),
            e => Failure::input(name, e),
        })?;
    let mut out = Out::create(path)?;
    out.bytes(&encoded)?;
    out.finish()?;
    let carrying = |carrier| written.flows.iter().filter(|f| f.carrier == Some(carrier)).count();
    failure::error_line(format!(
        "{name}: {} messages of {} WebSocket and {} ENet flows written to {} ({} {})",
        written.records,
        carrying(Carrier::WebSocket),
        carrying(Carrier::Enet),
        path.display(),
        written.version,
        gdvariant_pcap::capture::framing_name(written.framing),
    ));
    summary(name, &written.totals, &written.flows);
    Ok(match &written.totals.file_error {
        Some(_) => ExitCode::from(failure::REFUSED),
        None => ExitCode::SUCCESS,
    })
}

/// Items rendered at once on the pool.
const BATCH: usize = 4096;

/// The lines of a batch's values and refused frames, rendered on the pool (`None`: an item
/// printed as it comes).
fn render(pool: &rayon::ThreadPool, batch: &[Item<'_>], format: Format) -> Vec<Option<String>> {
    pool.install(|| {
        batch
            .par_iter()
            .map(|item| match item {
                Item::Value(value) => Some(value_line(value, format)),
                Item::Refused(refused) => Some(refused_line(refused, format)),
                _ => None,
            })
            .collect()
    })
}

fn refused_line(refused: &gdvariant_pcap::Refused<'_>, format: Format) -> String {
    let error = refused.refusal.to_string();
    if format != Format::Text {
        format!(
            r#"{{"time":{},"flow":"{}","direction":"{}","hex":"{}","error":{}}}"#,
            refused.time,
            refused.flow,
            refused.direction.name(),
            values::hex(&refused.bytes),
            json_string(&error)
        )
    } else {
        format!("{}\t{}\t{}\terror: {error}", refused.time, refused.flow, refused.direction.name())
    }
}

fn json_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_owned())
}

fn value_line(value: &gdvariant_pcap::Value<'_>, format: Format) -> String {
    let version = value.options.version();
    let parsed = value.value();
    match format {
        Format::Text => {
            let text = match &parsed {
                Ok(v) => values::text(*v, version),
                Err(error) => format!("<{error}>"),
            };
            format!("{}\t{}\t{}\t{text}", value.time, value.flow, value.direction.name())
        }
        Format::Json | Format::Natural => {
            let rendered = parsed.and_then(|v| crate::render::render(v, format, version));
            let field = match rendered {
                Ok(json) => format!(r#""value":{json}"#),
                Err(error) => format!(r#""error":{}"#, json_string(&error.to_string())),
            };
            format!(
                r#"{{"time":{},"flow":"{}","direction":"{}","hex":"{}",{field}}}"#,
                value.time,
                value.flow,
                value.direction.name(),
                values::hex(&value.bytes)
            )
        }
    }
}

fn carrier_name(flow: &FlowInfo) -> &'static str {
    flow.carrier.map_or("none", Carrier::name)
}

/// 3 or 4.
fn godot(version: Version) -> u8 {
    match version {
        Version::Godot3 => 3,
        Version::Godot4 => 4,
    }
}

fn flow_line(flow: &FlowInfo, json: bool) -> String {
    if json {
        serde_json::json!({
            "flow": flow.id.to_string(), "protocol": flow.protocol.name(),
            "client": flow.client.to_string(), "server": flow.server.to_string(),
            "server_why": flow.server_why, "carries": carrier_name(flow), "why": flow.why,
            "first": flow.first.to_string(), "last": flow.last.to_string(),
            "packets": flow.packets, "evicted": flow.evicted,
            "godot": godot(flow.version), "godot_why": flow.version_why,
        })
        .to_string()
    } else {
        format!(
            "{}\t{}\t{} -> {}\t{}\t{}\t(server: {})\tgodot {} ({}){}",
            flow.id,
            flow.protocol.name(),
            flow.client,
            flow.server,
            carrier_name(flow),
            if flow.why.is_empty() { "no data" } else { &flow.why },
            flow.server_why,
            godot(flow.version),
            flow.version_why,
            if flow.evicted { "\tevicted" } else { "" }
        )
    }
}

fn stats_line(flow: &FlowInfo, json: bool) -> String {
    let [to_server, to_client] = flow.tcp;
    if json {
        serde_json::json!({
            "flow": flow.id.to_string(), "packets": flow.packets, "values": flow.values,
            "refused": flow.refused, "gaps": flow.gaps, "skipped_bytes": flow.skipped_bytes,
            "ignored_bytes": flow.ignored_bytes, "datagrams": flow.datagrams,
            "retransmitted_segments": [to_server.retransmitted_segments, to_client.retransmitted_segments],
            "reordered_segments": [to_server.reordered_segments, to_client.reordered_segments],
            "overlap_bytes": [to_server.overlap_bytes, to_client.overlap_bytes],
            "gap_bytes": [to_server.gap_bytes, to_client.gap_bytes],
        })
        .to_string()
    } else {
        format!(
            "{}\tpackets {}\tvalues {}/{}\trefused {}/{}\tgaps {}/{}\tretransmitted {}/{}\treordered {}/{}\tignored bytes {}\t(to_server/to_client)",
            flow.id,
            flow.packets,
            flow.values[0],
            flow.values[1],
            flow.refused[0],
            flow.refused[1],
            flow.gaps[0],
            flow.gaps[1],
            to_server.retransmitted_segments,
            to_client.retransmitted_segments,
            to_server.reordered_segments,
            to_client.reordered_segments,
            flow.ignored_bytes
        )
    }
}

/// The counts of what was not read, on standard error.
fn summary(name: &str, totals: &Totals, flows: &[FlowInfo]) {
    let sum = |f: &dyn Fn(&FlowInfo) -> u64| flows.iter().map(f).fold(0u64, u64::saturating_add);
    let values = sum(&|f| f.values.iter().sum());
    let refused = sum(&|f| f.refused.iter().sum());
    let gaps = sum(&|f| f.tcp.iter().map(|h| h.gaps).sum());
    let gap_bytes = sum(&|f| f.tcp.iter().map(|h| h.gap_bytes).sum());
    let retransmitted = sum(&|f| f.tcp.iter().map(|h| h.retransmitted_segments).sum());
    let skipped = sum(&|f| f.skipped_bytes.iter().sum());
    let skipped_packets: u64 = totals.skipped.values().sum();
    failure::error_line(format!(
        "{name}: {} packets, {} flows, {values} values, {refused} refused; gaps {gaps} ({gap_bytes} bytes missing, {skipped} bytes passed over); retransmitted segments {retransmitted}; evicted flows {}; packets not read {skipped_packets}",
        totals.packets, totals.flows, totals.evicted
    ));
    for (why, count) in &totals.skipped {
        failure::error_line(format!("{name}:   {count} packets: {}", why.name()));
    }
    let enet = sum(&|f| f.enet.iter().map(|h| h.commands).sum());
    if enet > 0 {
        failure::error_line(format!(
            "{name}: ENet: {enet} commands, {} reliable ones seen again (counted once), {} fragments, {} reliable messages held until an earlier one came (ENet's order)",
            sum(&|f| f.enet.iter().map(|h| h.duplicates).sum()),
            sum(&|f| f.enet.iter().map(|h| h.fragments).sum()),
            sum(&|f| f.enet.iter().map(|h| h.reordered).sum())
        ));
    }
    if totals.flows_not_kept > 0 {
        failure::error_line(format!(
            "{name}: {} finished flows not listed (too many to keep)",
            totals.flows_not_kept
        ));
    }
    if let Some(error) = &totals.file_error {
        failure::error_line(format!("{name}: {error}"));
    }
}
