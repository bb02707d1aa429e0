//! `gdvariant`: dump, validate, re-encode, scan and query Godot Variant bytes from the command
//! line. Every behaviour lives in the `gdvariant` library; this crate parses arguments, opens
//! files and prints.
//!
//! Exit codes: 0 success; 1 the input is refused (invalid bytes, a bad frame, a path that finds
//! nothing, an unreadable file); 2 a usage error (bad arguments, a malformed path, an output
//! that is the input); 128 + N stopped by signal N (SIGINT, SIGTERM, SIGHUP) while writing a
//! file, which is then left as it was.

#![deny(unsafe_code)]

mod detect;
mod dump;
#[cfg(feature = "export")]
mod export;
mod failure;
mod filter;
mod frames;
mod get;
mod input;
mod interrupt;
mod multiplayer;
mod options;
mod output;
mod parallel;
mod pcap;
mod proxy;
mod records;
mod reencode;
mod render;
mod validate;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Read, check and write Godot Engine's Variant binary serialization (Godot 3.x and 4.x).
///
/// FILE may be `-` for standard input. Exit codes: 0 success, 1 the input is refused, 2 usage
/// error, 128+N stopped by signal N while writing a file (left as it was).
#[derive(Parser, Debug)]
#[command(name = "gdvariant", version, about, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print a value (or every frame's value with --frames).
    Dump(dump::DumpArgs),
    /// Check files as Godot's decoder does; print `FILE: <what> at byte offset N` for each
    /// refused file.
    Validate(validate::ValidateArgs),
    /// Decode and write the canonical bytes, as Godot's encoder writes the value.
    Reencode(reencode::ReencodeArgs),
    /// Walk a store_var dump or stream capture frame by frame.
    Frames(frames::FramesArgs),
    /// Print the value at a path such as `players/3/pos` (or in every frame with --frames).
    Get(get::GetArgs),
    /// Write a dump's frames as rows of a Parquet, Arrow, CSV or JSON Lines file.
    #[cfg(feature = "export")]
    Export(export::ExportArgs),
    /// Tell whether bytes are Godot 3 or Godot 4, and why.
    Detect(detect::DetectArgs),
    /// Forward Godot traffic (TCP, UDP, WebSocket or ENet), dropping every frame Godot would refuse.
    Proxy(proxy::ProxyArgs),
    /// Print a multiplayer capture (`proxy --capture`) decoded, with per-call statistics.
    Multiplayer(multiplayer::MultiplayerArgs),
    /// Print the Godot values in a tcpdump or Wireshark capture (pcap, pcapng): put_var frames
    /// over TCP, PacketPeerUDP datagrams.
    Pcap(pcap::PcapArgs),
}

/// The Godot version the bytes are read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Godot {
    /// Godot 3.x.
    #[value(name = "3")]
    Three,
    /// Godot 4.x.
    #[value(name = "4")]
    Four,
    /// Detected from the bytes.
    Auto,
}

/// Options of every command that decodes.
#[derive(Args, Debug, Clone, Copy)]
pub struct DecodeArgs {
    /// Godot version of the bytes; `auto` detects it (an explicit version always wins).
    #[arg(long, value_enum, default_value = "auto")]
    pub godot: Godot,
    /// Accept full objects (class and properties), as `bytes_to_var_with_objects` does.
    #[arg(long)]
    pub allow_objects: bool,
}

/// The length prefix of framed input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PrefixKind {
    /// `FileAccess.store_var` / `File.store_var` (unsigned u32).
    StoreVar,
    /// `StreamPeer.put_var` (signed i32).
    StreamPeer,
    /// `PacketPeerStream` (always little-endian).
    PacketPeerStream,
}

/// Options of framed input.
#[derive(Args, Debug, Clone, Copy)]
pub struct FrameArgs {
    /// The length prefix in front of each value.
    #[arg(long, value_enum, default_value = "store-var")]
    pub prefix: PrefixKind,
    /// The prefix is big-endian (the file's or peer's `big_endian` was set).
    #[arg(long)]
    pub big_endian: bool,
    /// Largest frame accepted, in bytes (the value; the 4-byte prefix is not counted): a larger
    /// length prefix is refused before anything is read for it.
    #[arg(long, value_name = "BYTES", default_value_t = gdvariant::framing::DEFAULT_MAX_FRAME_SIZE)]
    pub max_frame_len: u32,
}

/// How a value is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Godot's `var_to_str` / `var2str` text.
    Text,
    /// Lossless JSON (schema in the `gdvariant::json` docs).
    Json,
    /// Natural JSON: dictionaries as objects, numbers as numbers, math values as small objects.
    Natural,
}

/// A file argument: a path, or `-` for standard input.
pub type FileArg = PathBuf;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Dump(args) => dump::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Reencode(args) => reencode::run(args),
        Command::Frames(args) => frames::run(args),
        Command::Get(args) => get::run(args),
        #[cfg(feature = "export")]
        Command::Export(args) => export::run(args),
        Command::Detect(args) => detect::run(args),
        Command::Proxy(args) => proxy::run(args),
        Command::Multiplayer(args) => multiplayer::run(args),
        Command::Pcap(args) => pcap::run(args),
    };
    match result {
        Ok(code) => code,
        Err(failure) => failure.report(),
    }
}
