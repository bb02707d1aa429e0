//! # gdvariant-pcap
//!
//! Godot Variant traffic read from the captures people already hold: `tcpdump` and Wireshark
//! files (pcap and pcapng), memory-mapped or read by the caller and handed over as one byte
//! slice. Each packet is read down to TCP or UDP, packets are grouped into flows (both
//! directions of a 5-tuple), TCP is put back in order, and what a flow carries is read as
//! Godot reads it: `StreamPeer.put_var` frames over TCP (the core's [`gdvariant::framing`]),
//! one `PacketPeerUDP` value per UDP datagram. Every value comes out with its flow, its
//! [`Direction`], its capture time and its bytes, borrowed from the capture where one packet
//! holds the whole frame; every frame Godot refuses is an item of its own with Godot's reason.
//!
//! ```
//! use gdvariant_pcap::{Config, Item, Reader};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let capture = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/captures/godot3_tcp_put_var.pcap"))?;
//! let config = Config::new(gdvariant::Options::godot3());
//! let mut values = 0;
//! for item in Reader::new(&capture, config)? {
//!     if let Item::Value(value) = item {
//!         let _text = gdvariant::text::to_text_as(value.value()?, gdvariant::Version::Godot3)?;
//!         values += 1;
//!     }
//! }
//! assert_eq!(values, 81);
//! # Ok(())
//! # }
//! ```
//!
//! # What is validated where
//!
//! | layer | module | checks | a failure |
//! | --- | --- | --- | --- |
//! | the file | [`file`](mod@file) (`pcap-parser`) | magic, record and block lengths, pcapng sections, interfaces and timestamp units | the packets read so far stand; [`Totals::file_error`] says where the file stops |
//! | link, IP, TCP, UDP | [`net`] (`etherparse`) | link headers (Ethernet with up to 4 VLAN tags, Linux SLL and SLL2, raw IP, BSD null / loop), IPv4 and IPv6 headers and lengths (a packet captured shorter than sent is refused), IPv4 and IPv6 fragments (reassembled within [`FragmentLimits`]; a duplicate dropped alone, an overlap drops the datagram, as Linux decides), TCP and UDP headers | the packet is counted by [`Skip`] reason in [`Totals::skipped`] |
//! | flows | this module | 5-tuples, both directions paired; at most [`Config::max_flows`] at once | the oldest flow is finished and an [`Item::Evicted`] says so |
//! | TCP order | [`tcp`] | sequence numbers: retransmissions counted once, reordering within a window, overlaps (the first received wins), holes | [`Item::Gap`], per-flow counters |
//! | what a flow carries | this module | `--port` overrides, else the first data ([`Carrier`], [`FlowInfo::why`]) | a flow not read as Godot's is counted, never framed |
//! | frames | [`stream`] (the core's `framing::receive`) | prefix, size limit, the value as Godot's `get_var` reads it | [`Item::Refused`] with the core's error; a stream ending mid-frame is an [`Item::Cut`] |
//! | WebSocket | [`websocket`] | the HTTP upgrade, frame headers, masking, fragments, the message size ([`WsLimits`]); each binary message's value as Godot's `get_var` reads it | an [`Item::WebSocket`] with a [`WsError`], the direction not read further; a TCP gap: an [`Item::Gap`] that never resyncs; a refused value: [`Item::Refused`] |
//! | ENet | [`enet`] | the header, every command's size and fields, reliable sequence numbers per channel (sent again: counted once; ahead of one not yet captured: held, handed out in sequence order), fragments within [`enet::EnetLimits`] | [`Item::Refused`] with [`Refusal::Enet`] |
//! | the Godot version | [`version`](mod@version) | the first values under both versions, the first multiplayer message's transport header and packet | the default version, [`FlowInfo::version_why`] says so |
//! | multiplayer | [`multiplayer`] (the multiplayer crate's tracker) | each message's header and packet, its ids in the session | a refusal, counted by [`MethodStats`] |
//!
//! # Costs
//!
//! | operation | cost |
//! | --- | --- |
//! | [`Reader::new`] | O(1) (the file header) |
//! | each packet | O(its bytes) to read headers and frames (values by the core's `validate`: linear); O(1) to find its flow (a hash map, `foldhash` seeded at random); a TCP segment O(log pieces + the waiting pieces it overlaps, at most [`TcpLimits::max_pending_segments`]); a frame spanning packets is copied once into its flow's buffer; an IP fragment is copied (O(fragment + the fragments held of its datagram, at most [`FragmentLimits::max_fragments`])), its datagram put together in O(datagram) |
//! | the end of the capture | O(flows + bytes still waiting) |
//! | [`Sharded`] (`jobs` threads) | a [`Reader`]'s work shared out by flow (the headers and the merge stay on the calling thread), plus O(1) per packet and O(log shards) per item; the same items in the same order; [`Config::max_flows`] and [`Config::max_held_bytes`] divided among the shards, plus one window's packets and items ([`shard`]) |
//! | memory | per flow: the waiting TCP pieces (borrowed: the capture holds their bytes, at most [`TcpLimits::max_pending_bytes`] counted), a partial frame (at most the prefix's `max_frame_size`); in all at most [`Config::max_held_bytes`] (the oldest flows are evicted past it), [`Config::max_flows`] flows, the fragment limits ([`FragmentLimits`]), and [`Config::max_flow_records`] finished flows' records; per ENet direction its reliable windows (528 bytes a channel used), held reliable messages (at most [`enet::MAX_HELD`] and `max_waiting` bytes) and waiting fragments ([`enet::EnetLimits`]) |
//!
//! No input panics; work is linear in the capture (a test counts it with the core's counter,
//! feature `work-counter`, on generated worst cases at two sizes, read by one [`Reader`] and by
//! [`Sharded`] on 3 threads, whose units are summed on the calling thread).
//!
//! # Several threads
//!
//! [`Sharded::new`]`(file, config, jobs)` reads a capture on `jobs` threads: packets are read
//! down to TCP or UDP on the calling thread (fragments put together there) and handed to shards
//! by a hash of their 5-tuple (both directions alike), each shard's flows are read on a
//! `rayon` pool, and the items are merged back into capture order by packet number, the flows
//! numbered as one [`Reader`] numbers them. Within the limits the items, flows and totals are a
//! [`Reader`]'s (tested on every corpus capture and on many-flow captures); see [`shard`].
//!
//! # Which side is the server
//!
//! The side that answered the SYN (sent the SYN-ACK) is the server, the one that sent the
//! SYN the client. For a flow whose handshake was not captured, and for UDP: the side on a
//! port given in [`Config::ports`], else the side with the lower port (the other when both are
//! equal). A direction whose start was not captured is read from the first segment that starts
//! a frame (as after a gap; the bytes passed over are reported as an [`Item::Gap`] of 0
//! missing bytes).
//!
//! # Detection
//!
//! What a flow carries is given by [`Config::ports`] (either port of the flow), else decided
//! once, on the flow's first data:
//!
//! * TCP: the client's first data starts `GET ` and has an `Upgrade: websocket` header:
//!   WebSocket ([`Carrier::WebSocket`], read by [`websocket`]).
//! * TCP, else: the first 4 bytes are a length prefix between 1 and the prefix's `max_frame_size`,
//!   and (when 8 bytes were captured) the next 4 bytes' low byte is a type id of the
//!   configured Godot version: `put_var` frames ([`Carrier::PutVar`]). Else the flow is
//!   [`Carrier::Other`].
//! * UDP: the first datagram is an ENet CONNECT ([`Carrier::Enet`]; the side it was sent to
//!   is the server), else a value Godot accepts ([`Carrier::Datagrams`]); else
//!   [`Carrier::Other`].
//!
//! [`FlowInfo::why`] says which rule decided and on what bytes.
//!
//! The Godot version is told per flow too ([`Config::detect_version`], on by default; off:
//! [`Config::options`]' version for every flow), from what the flow carries
//! ([`version`](mod@version) has one function per kind), and kept in [`FlowInfo::version`]
//! with [`FlowInfo::version_why`]:
//!
//! * values (`put_var` frames, datagrams, WebSocket messages read as values): the first value
//!   only one version reads ([`gdvariant::detect`]: Godot 4's type ids 27 to 38, a payload of
//!   another size or layout in the other version) tells. Values before it read the same in
//!   both (type ids 0 to 5) or were refused by both; they keep the default version. Once
//!   told, the flow's items from the one that told on are read again as that version (a frame
//!   the default refused becomes a value, a value the told version refuses a refused frame),
//!   and its frames read on with it. A WebSocket message that tells nothing as a value is
//!   looked at as multiplayer traffic (below).
//! * ENet: the first message. Godot 3's 8-byte header (a client's message starting with its
//!   own id from the CONNECT, a server's naming the client, everyone or itself, followed by a
//!   Godot 3 packet; or a system message on channel 0) is Godot 3; a Godot 4 packet is Godot 4.
//! * WebSocket read raw ([`Config::websocket_raw`], the multiplayer layer): the first binary
//!   message. The server's 4-byte client id is Godot 4; Godot 3's 9-byte header (a system
//!   message, or a Godot 3 packet after it) is Godot 3; a Godot 4 packet is Godot 4.
//!
//! A flow none of whose first [`version::MAX_LOOKS`] values tells (an ENet or raw WebSocket
//! flow whose first message tells nothing) keeps the default, and its `version_why` says so.
//! The looks cost two validations of a value each (O(its bytes)), at most
//! [`version::MAX_LOOKS`] a flow. Items carry the version they were read with
//! ([`Value::options`], [`EnetMessage::version`], [`WebSocket::version`]).
//!
//! # Multiplayer
//!
//! [`Sessions`] follows each flow's ENet and raw WebSocket messages with one
//! `gdvariant_multiplayer::track::Tracker` per flow (the flow's version and framing, Godot 4
//! methods named by the game's method lists and project); [`MethodStats`] counts them per
//! flow, direction and called method, with a bound on distinct keys; [`write_capture`] writes
//! them in the multiplayer capture format (one version and framing a file).
//!
//! # Later
//!
//! Not read yet: Godot 4's WebSocket traffic is checked on a real capture
//! (`corpus/captures/godot4_websocket_mp.pcap`, `tests/godot4_websocket.rs`) whose server side
//! is a bridge: the web build cannot listen, so the frames to the client are the bridge's,
//! their payloads the Godot 4.6 server's; no capture holds frames written by Godot's own
//! `WebSocketMultiplayerPeer` server. Godot 4's ENet is tested on derived captures built from
//! the engine's own packets. With several threads ([`Sharded`]), the headers and the merge are
//! still read on one, and one heavy flow is read at one thread's speed (a flow is never
//! split). A new transport is a [`Carrier`] variant (the enum is `non_exhaustive`), decided by
//! the same port override or detection; its messages go to [`Sessions`] with the flow's
//! [`Direction`], as WebSocket's binary messages ([`Config::websocket_raw`]) and ENet's
//! ([`Item::Enet`]) do in `gdvariant pcap --multiplayer`.

#![forbid(unsafe_code)]
#![cfg_attr(
    test,
    allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)
)]

pub mod capture;
pub mod enet;
pub mod file;
mod flows;
pub mod multiplayer;
pub mod net;
pub mod shard;
pub mod stream;
pub mod tcp;
pub mod version;
pub mod websocket;

use std::borrow::Cow;
use std::fmt;

pub use capture::{WriteError, Written, write_capture};
pub use file::{FileError, Timestamp};
pub use flows::{Carrier, Config, FlowId, FlowInfo, Reader, Totals};
pub use gdvariant_multiplayer::{Direction, TransferMode};
pub use multiplayer::{MethodStats, Sessions};
pub use net::{FragmentLimits, Protocol, Skip};
pub use shard::Sharded;
pub use tcp::{HalfStats, TcpLimits};
pub use websocket::{WebSocket, WsError, WsEvent, WsLimits};

/// What a capture holds, item by item, in capture order (within a flow and direction, in
/// stream order).
#[derive(Clone, Debug)]
pub enum Item<'a> {
    /// A value Godot accepts.
    Value(Value<'a>),
    /// A frame or datagram Godot refuses.
    Refused(Refused<'a>),
    /// Bytes of a TCP stream that were not captured.
    Gap(Gap),
    /// A TCP direction ended inside a frame.
    Cut(Cut),
    /// A message an ENet flow delivered (see [`enet`]).
    Enet(EnetMessage<'a>),
    /// A flow was evicted to keep within [`Config::max_flows`] or [`Config::max_held_bytes`]:
    /// what it still held was reported (gaps, cut frames) and nothing more of it is read; a
    /// later packet of the same 5-tuple starts a new flow.
    Evicted {
        /// The flow.
        flow: FlowId,
        /// The time of the packet that caused it.
        time: Timestamp,
    },
    /// Something of a WebSocket stream other than a binary message read as a value: the
    /// upgrade, a text message, a ping, pong or close, a protocol error, or (with
    /// [`Config::websocket_raw`]) a binary message's bytes.
    WebSocket(WebSocket<'a>),
}

/// A value Godot accepts, with where it was seen.
#[derive(Clone, Debug)]
pub struct Value<'a> {
    /// Its flow.
    pub flow: FlowId,
    /// Which way it went.
    pub direction: Direction,
    /// When the packet that completed it was captured.
    pub time: Timestamp,
    /// TCP: the stream offset of its frame (its length prefix), from the first byte after the
    /// SYN (or the first byte captured). UDP: the datagram's number in its direction.
    pub offset: u64,
    /// The value's bytes: a frame's payload (after the prefix; trailing bytes Godot ignores
    /// included), or the whole datagram. Borrowed from the capture when one packet held them.
    pub bytes: Cow<'a, [u8]>,
    /// How it was read.
    pub options: gdvariant::Options,
}

impl Value<'_> {
    /// The value, read lazily from [`Value::bytes`] (validated already: this does not fail for
    /// an item the reader handed out). O(1).
    pub fn value(&self) -> Result<gdvariant::VariantRef<'_>, gdvariant::Error> {
        gdvariant::parse(&self.bytes, self.options)
    }
}

/// A message of an ENet flow, whole (its fragments put together, a reliable one once however
/// often it was sent).
#[derive(Clone, Debug)]
pub struct EnetMessage<'a> {
    /// Its flow.
    pub flow: FlowId,
    /// Which way it went (the client is the side that sent the CONNECT).
    pub direction: Direction,
    /// When the datagram that completed it was captured.
    pub time: Timestamp,
    /// Its number among its direction's messages, from 0.
    pub offset: u64,
    /// Its ENet channel.
    pub channel: u8,
    /// How it was sent.
    pub transfer: TransferMode,
    /// The fragments it came in (1: not fragmented).
    pub fragments: u32,
    /// The connect data of the flow's CONNECT, when captured: Godot's client peer id.
    pub client_id: Option<u32>,
    /// The Godot version of its flow (see "Detection"): Godot 3's messages start with the
    /// 8-byte header.
    pub version: gdvariant::Version,
    /// The message's bytes, as the peer's ENet delivers them (Godot 3: its 8-byte header
    /// first). Borrowed from the capture when one datagram held them.
    pub bytes: Cow<'a, [u8]>,
}

/// Why Godot refuses a frame or datagram.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// A TCP frame: its prefix or its value (with absolute stream offsets).
    Frame(gdvariant::framing::FrameError),
    /// A UDP datagram's value.
    Datagram(gdvariant::Error),
    /// A WebSocket binary message's value.
    Message(gdvariant::Error),
    /// ENet traffic: a datagram, a fragment or a message not read (see [`enet`]).
    Enet(enet::EnetError),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Frame(error) => error.fmt(f),
            Refusal::Datagram(error) => error.fmt(f),
            Refusal::Message(error) => error.fmt(f),
            Refusal::Enet(error) => error.fmt(f),
        }
    }
}

/// A frame or datagram Godot refuses.
#[derive(Clone, Debug)]
pub struct Refused<'a> {
    /// Its flow.
    pub flow: FlowId,
    /// Which way it went.
    pub direction: Direction,
    /// When it was captured.
    pub time: Timestamp,
    /// As [`Value::offset`].
    pub offset: u64,
    /// The bytes received of it: a frame's prefix and as much of its payload as was read
    /// (all of it for a refused value; none for a length over the limit, which is passed over
    /// as it arrives), or the whole datagram (ENet refusals: none; [`Refusal::Enet`] says
    /// what and where).
    pub bytes: Cow<'a, [u8]>,
    /// Godot's reason.
    pub refusal: Refusal,
}

/// Bytes of a TCP direction that were never captured (or, at the start of a direction whose
/// beginning was not captured, bytes before its first frame).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gap {
    /// Its flow.
    pub flow: FlowId,
    /// Which way.
    pub direction: Direction,
    /// When the framing resumed (or the direction ended).
    pub time: Timestamp,
    /// The stream offset of the first missing byte.
    pub offset: u64,
    /// Bytes missing (all the holes until the framing resumed).
    pub missing: u64,
    /// Bytes captured but passed over until a frame could be found again (a frame cut by the
    /// gap, then everything up to the first segment that starts a frame).
    pub skipped: u64,
    /// Whether frames were found again after it (false: the direction ended first).
    pub resynced: bool,
}

/// A TCP direction that ended inside a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// Its flow.
    pub flow: FlowId,
    /// Which way.
    pub direction: Direction,
    /// When the direction ended.
    pub time: Timestamp,
    /// Bytes of the frame received.
    pub held: usize,
    /// Bytes that were still needed (at least).
    pub needed: usize,
}

/// Adds `units` to the core's per-thread work count (feature `work-counter`; nothing without
/// it).
#[inline(always)]
fn work(units: usize) {
    #[cfg(feature = "work-counter")]
    gdvariant::work::add(units);
    #[cfg(not(feature = "work-counter"))]
    let _ = units;
}

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
