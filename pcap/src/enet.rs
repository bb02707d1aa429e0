//! Passive ENet: the datagrams of a UDP flow read as ENet's protocol (what Godot's
//! `NetworkedMultiplayerENet` and `ENetMultiplayerPeer` speak), put back together into the
//! messages the receiving peer's ENet delivers.
//!
//! ```text
//! datagram   u16 peer id (big-endian: bit 15 sent time present, bit 14 compressed, bits 12-13
//!            session, bits 0-11 the receiver's peer id), [u16 sent time], then commands
//! command    u8 command (bits 0-3 its number, bit 7 acknowledge, bit 6 unsequenced),
//!            u8 channel (0xFF: the connection's own), u16 reliable sequence number, then its
//!            fields (big-endian), then, for the send commands, its data
//! ```
//!
//! | number | command | fields after the 4-byte header |
//! | --- | --- | --- |
//! | 1 | ACKNOWLEDGE | u16 received reliable sequence number, u16 received sent time |
//! | 2 | CONNECT | u16 outgoing peer id, u8 incoming session, u8 outgoing session, u32 MTU, window size, channel count, incoming and outgoing bandwidth, throttle interval, acceleration, deceleration, connect id, data |
//! | 3 | VERIFY_CONNECT | as CONNECT without the data |
//! | 4 | DISCONNECT | u32 data |
//! | 5 | PING | |
//! | 6 | SEND_RELIABLE | u16 data length |
//! | 7 | SEND_UNRELIABLE | u16 unreliable sequence number, u16 data length |
//! | 8 | SEND_FRAGMENT | u16 start sequence number, u16 data length, u32 fragment count, fragment number, total length, fragment offset |
//! | 9 | SEND_UNSEQUENCED | u16 unsequenced group, u16 data length |
//! | 10 | BANDWIDTH_LIMIT | u32 incoming, outgoing bandwidth |
//! | 11 | THROTTLE_CONFIGURE | u32 interval, acceleration, deceleration |
//! | 12 | SEND_UNRELIABLE_FRAGMENT | as SEND_FRAGMENT |
//!
//! Godot never turns on ENet's checksum (so none is read) and compresses only when asked
//! (`compression_mode`): a compressed datagram is refused ([`EnetError::Compressed`]).
//!
//! Per direction, [`Half`] keeps: the reliable sequence numbers seen per channel within a
//! window of [`RELIABLE_WINDOW`] (a reliable command sent again is counted once, in
//! [`EnetStats::duplicates`]); the reliable messages that arrived before one that precedes them
//! on their channel (a capture taken where the loss had not happened yet holds every command in
//! order; one taken past the loss holds the command sent again after later ones): they are held,
//! as the receiving ENet holds them, and handed out in sequence order once the missing one comes
//! ([`EnetStats::reordered`]; a channel's first expected number is 1 when the flow's CONNECT was
//! read, else the first seen; at most [`MAX_HELD`] messages and `max_waiting` bytes are held, past
//! which, or when the flow ends, the missing message is reported ([`EnetError::Missing`]) and
//! those after it handed out); and the fragments of messages not yet whole, keyed by channel and
//! start sequence number, within [`EnetLimits`] (a message at most `max_message` bytes, at most
//! `max_waiting` bytes and `max_reassemblies` messages waiting; nothing is allocated for a
//! claimed total before its bytes arrive; a fragment that contradicts its message's others is
//! refused, and a message whose fragments never tile it never completes). Costs: O(datagram
//! bytes + log of what waits) per datagram; a message completes in O(its fragments × log).

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Reliable sequence numbers remembered per channel (behind the highest seen).
pub const RELIABLE_WINDOW: u16 = 4096;

/// Reliable messages held at once per direction, waiting for one sent before them.
pub const MAX_HELD: usize = RELIABLE_WINDOW as usize;

/// ENet's own channel, of the connection's commands.
const CONTROL_CHANNEL: u8 = 0xFF;

/// How a message was sent: the multiplayer crate's [`TransferMode`]. On the wire,
/// SEND_RELIABLE and SEND_FRAGMENT are `Reliable` (ENet also sends an unreliable message
/// larger than the MTU as SEND_FRAGMENT unless asked for unreliable fragments, which Godot
/// 3.2.3 never asks: such a message is reliable on the wire), SEND_UNSEQUENCED `Unreliable`,
/// SEND_UNRELIABLE and SEND_UNRELIABLE_FRAGMENT `UnreliableOrdered`.
pub use gdvariant_multiplayer::TransferMode;

/// What is wrong with ENet traffic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnetError {
    /// The datagram is shorter than its header.
    ShortHeader,
    /// The datagram is compressed (Godot's `compression_mode` was set): not read.
    Compressed,
    /// A command number ENet does not have.
    UnknownCommand {
        /// Its number.
        number: u8,
        /// Where it starts in the datagram.
        at: usize,
    },
    /// A command (or its data) runs past the datagram's end.
    Truncated {
        /// The command's number.
        number: u8,
        /// Where it starts in the datagram.
        at: usize,
    },
    /// A fragment ENet refuses on its own (count over ENet's maximum, number not below the
    /// count, total over the limit or below the count, bytes past the total).
    BadFragment(&'static str),
    /// A fragment whose count or total differs from its message's first fragment, or that
    /// overlaps another of it.
    ContradictoryFragment,
    /// A reliable command never captured while later ones on its channel were: those were
    /// held for it until [`MAX_HELD`] or `max_waiting` was reached or the flow ended, then
    /// handed out without it.
    Missing {
        /// The channel.
        channel: u8,
        /// The missing command's reliable sequence number.
        sequence: u16,
    },
    /// Fragments of a message were dropped unfinished: `max_waiting` or `max_reassemblies`
    /// was reached, the flow ended, or the fragments never tiled the message.
    Unfinished {
        /// The message's channel.
        channel: u8,
        /// Its start sequence number.
        start: u16,
        /// Bytes of it received.
        received: usize,
        /// Its claimed total.
        total: u32,
    },
}

impl fmt::Display for EnetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnetError::ShortHeader => f.write_str("ENet: datagram shorter than its header"),
            EnetError::Compressed => f.write_str("ENet: compressed datagram (not read)"),
            EnetError::UnknownCommand { number, at } => {
                write!(f, "ENet: unknown command {number} at byte {at}")
            }
            EnetError::Truncated { number, at } => {
                write!(f, "ENet: command {number} at byte {at} runs past the datagram")
            }
            EnetError::BadFragment(why) => write!(f, "ENet: fragment refused: {why}"),
            EnetError::ContradictoryFragment => {
                f.write_str("ENet: fragment contradicts its message's other fragments")
            }
            EnetError::Missing { channel, sequence } => write!(
                f,
                "ENet: reliable command {sequence} of channel {channel} never captured; the messages after it handed out without it"
            ),
            EnetError::Unfinished { channel, start, received, total } => write!(
                f,
                "ENet: message (channel {channel}, start {start}) dropped unfinished: {received} of {total} bytes"
            ),
        }
    }
}

/// Limits of fragment reassembly, per direction (the relay's: ENet's `maximum_packet_size`
/// and `maximum_waiting_data` at the frame limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnetLimits {
    /// Largest message (a fragmented message's total), in bytes (default 1 MiB + 8, Godot 3's
    /// header included).
    pub max_message: u32,
    /// Bytes of unfinished messages held at once (default as `max_message`; each fragment
    /// also counts [`FRAGMENT_OVERHEAD`]).
    pub max_waiting: usize,
    /// Unfinished messages at once (default 64).
    pub max_reassemblies: usize,
}

/// Bytes each waiting fragment counts besides its data.
pub const FRAGMENT_OVERHEAD: usize = 32;

/// ENet's largest fragment count (`ENET_PROTOCOL_MAXIMUM_FRAGMENT_COUNT`).
pub const MAX_FRAGMENT_COUNT: u32 = 1 << 20;

impl Default for EnetLimits {
    fn default() -> Self {
        EnetLimits { max_message: (1 << 20) + 8, max_waiting: (1 << 20) + 8, max_reassemblies: 64 }
    }
}

/// Counts of one direction's ENet traffic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EnetStats {
    /// Commands read.
    pub commands: u64,
    /// Acknowledgements, pings and the connection's other commands.
    pub control: u64,
    /// Reliable commands seen again (retransmissions, counted once).
    pub duplicates: u64,
    /// Fragments read (each once).
    pub fragments: u64,
    /// Messages delivered.
    pub messages: u64,
    /// Reliable messages that arrived before one sent before them, held until it came.
    pub reordered: u64,
    /// Datagrams or fragments refused, and messages dropped unfinished.
    pub refused: u64,
}

/// A connection's CONNECT, as its client sent it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Connect {
    /// ENet's connect id.
    pub connect_id: u32,
    /// The connect data: Godot's client peer id (both versions).
    pub data: u32,
    /// Channels asked for.
    pub channels: u32,
}

/// What one datagram gave.
#[derive(Debug)]
pub enum Out<'a> {
    /// A whole message: its channel, transfer, bytes and how many fragments made it (1: none).
    Message {
        /// The channel.
        channel: u8,
        /// How it was sent.
        transfer: TransferMode,
        /// Its bytes.
        bytes: Cow<'a, [u8]>,
        /// Fragments that made it (1: it was not fragmented).
        fragments: u32,
    },
    /// The client's CONNECT.
    Connect(Connect),
    /// Something refused (the rest of the datagram, a fragment, an unfinished message).
    Refused(EnetError),
}

fn be16(data: &[u8], at: usize) -> Option<u16> {
    data.get(at..)?.first_chunk::<2>().map(|b| u16::from_be_bytes(*b))
}

fn be32(data: &[u8], at: usize) -> Option<u32> {
    data.get(at..)?.first_chunk::<4>().map(|b| u32::from_be_bytes(*b))
}

/// The size of command `number`'s fixed part (header included) and where in it its data
/// length is (0: it has no data), `None` for an unknown one.
fn command_shape(number: u8) -> Option<(usize, usize)> {
    // By number (0 and 13-15 unknown: size 0), read from a table in a few instructions.
    const SHAPES: [(u8, u8); 16] = [
        (0, 0),
        (8, 0),
        (48, 0),
        (44, 0),
        (8, 0),
        (4, 0),
        (6, 4),
        (8, 6),
        (24, 6),
        (8, 6),
        (12, 0),
        (16, 0),
        (24, 6),
        (0, 0),
        (0, 0),
        (0, 0),
    ];
    match SHAPES.get(usize::from(number)) {
        Some(&(size, length_at)) if size != 0 => Some((usize::from(size), usize::from(length_at))),
        _ => None,
    }
}

/// The big-endian u16 at `at` of a command's fixed part.
fn chunk16(fixed: &[u8], at: usize) -> Option<u16> {
    fixed.get(at..)?.first_chunk::<2>().map(|b| u16::from_be_bytes(*b))
}

/// The big-endian u32 at `at` of a command's fixed part.
fn chunk32(fixed: &[u8], at: usize) -> Option<u32> {
    fixed.get(at..)?.first_chunk::<4>().map(|b| u32::from_be_bytes(*b))
}

/// Whether `data` is an ENet datagram holding a CONNECT (the first datagram of an ENet
/// connection): the header, then a well-formed CONNECT on the control channel. O(1).
pub fn is_connect(data: &[u8]) -> Option<Connect> {
    let flags = be16(data, 0)?;
    if flags & 0x4000 != 0 {
        return None;
    }
    let start = if flags & 0x8000 != 0 { 4 } else { 2 };
    let command = *data.get(start)?;
    if command & 0x0F != 2 || *data.get(start.checked_add(1)?)? != CONTROL_CHANNEL {
        return None;
    }
    let fields = start.checked_add(4)?;
    let mtu = be32(data, fields.checked_add(4)?)?;
    let channels = be32(data, fields.checked_add(12)?)?;
    if !(576..=4096).contains(&mtu) || !(1..=255).contains(&channels) {
        return None;
    }
    Some(Connect {
        connect_id: be32(data, fields.checked_add(36)?)?,
        data: be32(data, fields.checked_add(40)?)?,
        channels,
    })
}

/// The reliable sequence numbers seen on one channel: the highest, and a bitmap of the
/// [`RELIABLE_WINDOW`] numbers up to it.
#[derive(Clone, Debug)]
struct Seen {
    high: u16,
    bits: Box<[u64; Seen::WORDS]>,
}

impl Seen {
    const BITS: usize = RELIABLE_WINDOW as usize;
    const WORDS: usize = Self::BITS / 64;

    fn new(first: u16) -> Self {
        let mut seen = Seen { high: first, bits: Box::new([0; Self::WORDS]) };
        seen.set(first);
        seen
    }

    fn slot(n: u16) -> (usize, u64) {
        let index = usize::from(n % RELIABLE_WINDOW);
        (index / 64, 1u64 << (index % 64))
    }

    fn set(&mut self, n: u16) {
        let (word, bit) = Self::slot(n);
        if let Some(w) = self.bits.get_mut(word) {
            *w |= bit;
        }
    }

    fn get(&self, n: u16) -> bool {
        let (word, bit) = Self::slot(n);
        self.bits.get(word).is_some_and(|w| w & bit != 0)
    }

    /// Records `n`; false when it was seen already (or is older than the window).
    fn first_time(&mut self, n: u16) -> bool {
        let ahead = n.wrapping_sub(self.high);
        if ahead == 0 {
            return false;
        }
        if ahead == 1 {
            // The next one (the common case): its slot held the number a window behind it,
            // which it replaces.
            self.high = n;
            self.set(n);
            return true;
        }
        if ahead < 0x8000 {
            // Newer: forget the numbers that fall out of the window, a word at a time (at
            // most the window's words and two partial ones).
            let mut index = usize::from(self.high.wrapping_add(1) % RELIABLE_WINDOW);
            let mut left = usize::from(ahead.min(RELIABLE_WINDOW));
            while left > 0 {
                let bit = index % 64;
                let n = left.min(64usize.saturating_sub(bit));
                let mask = if n >= 64 { u64::MAX } else { ((1u64 << n).wrapping_sub(1)) << bit };
                if let Some(w) = self.bits.get_mut(index / 64) {
                    *w &= !mask;
                }
                index = index.saturating_add(n) % Self::BITS;
                left = left.saturating_sub(n);
                crate::work(1);
            }
            self.high = n;
            self.set(n);
            return true;
        }
        let behind = self.high.wrapping_sub(n);
        if behind >= RELIABLE_WINDOW || self.get(n) {
            return false;
        }
        self.set(n);
        true
    }
}

/// A message being put together from its fragments.
#[derive(Debug)]
struct Reassembly {
    count: u32,
    total: u32,
    transfer: TransferMode,
    /// Fragment number → (offset, data).
    pieces: BTreeMap<u32, (u32, Vec<u8>)>,
    received: usize,
    /// Its order of arrival (the oldest is dropped first).
    age: u64,
}

/// A reliable message held until those before it on its channel are handed out.
#[derive(Debug)]
struct Held {
    transfer: TransferMode,
    /// Sequence numbers it takes (its fragments; 1: not fragmented).
    fragments: u32,
    bytes: Vec<u8>,
}

/// One channel's reliable delivery order.
#[derive(Debug, Default)]
struct Order {
    /// The next sequence number to hand out, unwrapped (counting past 65535); `None` before
    /// the channel's first reliable message.
    next: Option<u64>,
    /// Messages ahead of `next`, by unwrapped sequence number.
    held: BTreeMap<u64, Held>,
}

/// The low 16 bits of an unwrapped sequence number.
fn low16(n: u64) -> u16 {
    u16::try_from(n & 0xFFFF).unwrap_or(0)
}

/// Per-channel state of one direction, for the channels used: kept in the order they were
/// first used (an insert is a push, so no input makes it move the others), found by a scan
/// while there are few and by an index over all 256 channel numbers beyond (built once more
/// than [`Channels::SCAN`] are used, 512 bytes). O(1) to find or add a channel.
#[derive(Debug)]
struct Channels<T> {
    entries: Vec<(u8, T)>,
    /// Each channel's position in `entries` plus one (0: none), once there are many.
    index: Option<Box<[u16; 256]>>,
}

impl<T> Default for Channels<T> {
    fn default() -> Self {
        Channels { entries: Vec::new(), index: None }
    }
}

impl<T> Channels<T> {
    /// Channels found by a scan (the usual case: Godot uses a few).
    const SCAN: usize = 4;

    fn find(&self, channel: u8) -> Option<usize> {
        match &self.index {
            Some(index) => {
                let at = *index.get(usize::from(channel))?;
                usize::from(at).checked_sub(1)
            }
            None => self.entries.iter().position(|(c, _)| *c == channel),
        }
    }

    fn get_mut(&mut self, channel: u8) -> Option<&mut T> {
        let at = self.find(channel)?;
        self.entries.get_mut(at).map(|(_, t)| t)
    }

    /// `channel`'s state, made by `new` if it has none.
    fn get_or_insert_with(&mut self, channel: u8, new: impl FnOnce() -> T) -> Option<&mut T> {
        let at = match self.find(channel) {
            Some(at) => at,
            None => {
                self.entries.push((channel, new()));
                let len = self.entries.len();
                if len > Self::SCAN {
                    let index = self.index.get_or_insert_with(|| Box::new([0; 256]));
                    if len == Self::SCAN + 1 {
                        // Just past the scan: every channel so far goes into the index.
                        for (at, (c, _)) in self.entries.iter().enumerate() {
                            if let Some(slot) = index.get_mut(usize::from(*c)) {
                                *slot = u16::try_from(at.saturating_add(1)).unwrap_or(0);
                            }
                        }
                    } else if let Some(slot) = index.get_mut(usize::from(channel)) {
                        *slot = u16::try_from(len).unwrap_or(0);
                    }
                }
                len.saturating_sub(1)
            }
        };
        self.entries.get_mut(at).map(|(_, t)| t)
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    /// Forgets every channel: O(the channels held, and 256 once there was an index).
    fn clear(&mut self) {
        self.entries.clear();
        if let Some(index) = &mut self.index {
            index.fill(0);
        }
    }

    /// The channels held, in channel order.
    fn keys(&self) -> Vec<u8> {
        let mut keys: Vec<u8> = self.entries.iter().map(|(c, _)| *c).collect();
        keys.sort_unstable();
        keys
    }
}

/// One direction's ENet state.
#[derive(Debug, Default)]
pub struct Half {
    reliable: Channels<Seen>,
    order: Channels<Order>,
    held_count: usize,
    held_bytes: usize,
    waiting: BTreeMap<(u8, u16, bool), Reassembly>,
    ages: BTreeSet<(u64, u8, u16, bool)>,
    next_age: u64,
    waiting_bytes: usize,
    connect_id: Option<u32>,
    /// Its counts.
    pub stats: EnetStats,
}

impl Half {
    /// Bytes this direction holds (the reliable windows and the waiting fragments).
    pub fn held(&self) -> usize {
        self.reliable
            .len()
            .saturating_mul(Seen::WORDS.saturating_mul(8).saturating_add(16))
            .saturating_add(self.waiting_bytes)
            .saturating_add(self.held_bytes)
    }

    /// Reads one datagram, appending what it gave to `out` (messages borrow the capture when
    /// the datagram does).
    #[allow(clippy::ptr_arg)] // the Cow says whether messages may borrow the capture
    pub fn datagram<'a>(
        &mut self,
        data: &Cow<'a, [u8]>,
        limits: EnetLimits,
        out: &mut Vec<Out<'a>>,
    ) {
        crate::work(data.len().saturating_add(1));
        let Some(flags) = be16(data, 0) else {
            return self.refuse(EnetError::ShortHeader, out);
        };
        if flags & 0x4000 != 0 {
            return self.refuse(EnetError::Compressed, out);
        }
        let mut at: usize = if flags & 0x8000 != 0 { 4 } else { 2 };
        if at > data.len() {
            return self.refuse(EnetError::ShortHeader, out);
        }
        while at < data.len() {
            match self.command(data, at, limits, out) {
                Ok(next) => at = next,
                Err(error) => return self.refuse(error, out),
            }
        }
    }

    /// A CONNECT or VERIFY_CONNECT of connect id `id`: another connection than the one known
    /// starts its sequence numbers again.
    #[cold]
    #[inline(never)]
    fn connection(&mut self, id: u32) {
        if self.connect_id.is_some_and(|known| known != id) {
            self.reliable.clear();
            self.order.clear();
            self.held_count = 0;
            self.held_bytes = 0;
        }
        self.connect_id = Some(id);
    }

    #[cold]
    #[inline(never)]
    fn refuse(&mut self, error: EnetError, out: &mut Vec<Out<'_>>) {
        self.stats.refused = self.stats.refused.saturating_add(1);
        out.push(Out::Refused(error));
    }

    /// Reads the command at `at`; returns where the next one starts.
    #[allow(clippy::ptr_arg)] // as in `datagram`
    fn command<'a>(
        &mut self,
        data: &Cow<'a, [u8]>,
        at: usize,
        limits: EnetLimits,
        out: &mut Vec<Out<'a>>,
    ) -> Result<usize, EnetError> {
        let bytes: &[u8] = data;
        // The command from its first byte on, read through fixed-size chunks.
        let rest = bytes.get(at..).unwrap_or_default();
        let &[head, ..] = rest else { return Err(EnetError::ShortHeader) };
        let number = head & 0x0F;
        let (size, length_at) =
            command_shape(number).ok_or(EnetError::UnknownCommand { number, at })?;
        // Built only when needed (a command is read in a few dozen instructions).
        let truncated = move || EnetError::Truncated { number, at };
        let fixed = rest.get(..size).ok_or_else(truncated)?;
        let end = at.saturating_add(size);
        let &[_, channel, s0, s1, ..] = fixed else { return Err(truncated()) };
        let sequence = u16::from_be_bytes([s0, s1]);
        let field16 = |k: usize| chunk16(fixed, k).ok_or_else(truncated);
        let field32 = |k: usize| chunk32(fixed, k).ok_or_else(truncated);
        self.stats.commands = self.stats.commands.saturating_add(1);
        let acknowledged = head & 0x80 != 0;
        // Data commands: where their data ends.
        let length = match length_at {
            0 => 0,
            k => usize::from(field16(k)?),
        };
        let next = end.checked_add(length).filter(|n| *n <= data.len()).ok_or_else(truncated)?;
        // A new connection (another connect id) starts its sequence numbers again.
        if number == 2 || number == 3 {
            self.connection(field32(40)?);
        }
        // A reliable command seen before is counted once.
        if acknowledged && !self.reliable_first(channel, sequence) {
            self.stats.duplicates = self.stats.duplicates.saturating_add(1);
            return Ok(next);
        }
        let payload = |data: &Cow<'a, [u8]>| -> Cow<'a, [u8]> {
            match data {
                Cow::Borrowed(all) => Cow::Borrowed(all.get(end..next).unwrap_or_default()),
                Cow::Owned(_) => Cow::Owned(bytes.get(end..next).unwrap_or_default().to_vec()),
            }
        };
        match number {
            2 => {
                self.stats.control = self.stats.control.saturating_add(1);
                out.push(Out::Connect(Connect {
                    connect_id: field32(40)?,
                    data: field32(44)?,
                    channels: field32(16)?,
                }));
            }
            6 | 7 | 9 => {
                let transfer = match number {
                    6 => TransferMode::Reliable,
                    7 => TransferMode::UnreliableOrdered,
                    _ => TransferMode::Unreliable,
                };
                if number == 6 {
                    self.reliable_message(channel, sequence, 1, payload(data), limits, out);
                } else {
                    self.stats.messages = self.stats.messages.saturating_add(1);
                    out.push(Out::Message {
                        channel,
                        transfer,
                        bytes: payload(data),
                        fragments: 1,
                    });
                }
            }
            8 | 12 => {
                let transfer = if number == 8 {
                    TransferMode::Reliable
                } else {
                    TransferMode::UnreliableOrdered
                };
                let fragment = Fragment {
                    channel,
                    start: field16(4)?,
                    count: field32(8)?,
                    number: field32(12)?,
                    total: field32(16)?,
                    offset: field32(20)?,
                    transfer,
                };
                let bytes = data.get(end..next).unwrap_or_default();
                self.fragment(fragment, bytes, limits, out);
            }
            _ => self.stats.control = self.stats.control.saturating_add(1),
        }
        Ok(next)
    }

    fn reliable_first(&mut self, channel: u8, sequence: u16) -> bool {
        match self.reliable.get_mut(channel) {
            Some(seen) => seen.first_time(sequence),
            None => {
                self.reliable.get_or_insert_with(channel, || Seen::new(sequence));
                true
            }
        }
    }

    fn fragment<'a>(
        &mut self,
        f: Fragment,
        bytes: &[u8],
        limits: EnetLimits,
        out: &mut Vec<Out<'a>>,
    ) {
        self.stats.fragments = self.stats.fragments.saturating_add(1);
        // ENet's own checks (enet_protocol_handle_send_fragment), and a fragment count no
        // larger than the total (each fragment at least a byte).
        let why = if f.count == 0 || f.count > MAX_FRAGMENT_COUNT {
            Some("count out of range")
        } else if f.number >= f.count {
            Some("number not below the count")
        } else if f.total > limits.max_message {
            Some("total over the limit")
        } else if f.total < f.count {
            Some("total below the count")
        } else if f.offset >= f.total
            || u32::try_from(bytes.len()).map_or(true, |n| n > f.total.saturating_sub(f.offset))
        {
            Some("bytes past the total")
        } else {
            None
        };
        if let Some(why) = why {
            return self.refuse(EnetError::BadFragment(why), out);
        }
        let key = (f.channel, f.start, f.transfer == TransferMode::Reliable);
        if let Some(existing) = self.waiting.get(&key) {
            if existing.count != f.count || existing.total != f.total {
                return self.refuse(EnetError::ContradictoryFragment, out);
            }
            if existing.pieces.contains_key(&f.number) {
                // An unreliable fragment seen again.
                self.stats.duplicates = self.stats.duplicates.saturating_add(1);
                return;
            }
        }
        let cost = bytes.len().saturating_add(FRAGMENT_OVERHEAD);
        // Room: drop the oldest unfinished messages (never the one this fragment belongs to
        // unless it alone is too big).
        while self.waiting_bytes.saturating_add(cost) > limits.max_waiting
            || (!self.waiting.contains_key(&key) && self.waiting.len() >= limits.max_reassemblies)
        {
            let Some(&(_, c, s, r)) = self.ages.iter().next() else { break };
            self.drop_waiting((c, s, r), out);
            if (c, s, r) == key {
                // Its own earlier fragments were dropped: this one cannot complete it.
                return;
            }
        }
        if self.waiting_bytes.saturating_add(cost) > limits.max_waiting {
            return self.refuse(
                EnetError::Unfinished {
                    channel: f.channel,
                    start: f.start,
                    received: bytes.len(),
                    total: f.total,
                },
                out,
            );
        }
        if !self.waiting.contains_key(&key) {
            let age = self.next_age;
            self.next_age = self.next_age.saturating_add(1);
            self.ages.insert((age, key.0, key.1, key.2));
            self.waiting.insert(
                key,
                Reassembly {
                    count: f.count,
                    total: f.total,
                    transfer: f.transfer,
                    pieces: BTreeMap::new(),
                    received: 0,
                    age,
                },
            );
        }
        let Some(message) = self.waiting.get_mut(&key) else { return };
        crate::work(bytes.len().saturating_add(1));
        message.pieces.insert(f.number, (f.offset, bytes.to_vec()));
        message.received = message.received.saturating_add(bytes.len());
        self.waiting_bytes = self.waiting_bytes.saturating_add(cost);
        let all = usize::try_from(message.count).unwrap_or(usize::MAX);
        if message.pieces.len() < all {
            return;
        }
        // Every fragment is here: the pieces must tile the total exactly.
        let total = usize::try_from(message.total).unwrap_or(usize::MAX);
        let mut spans: Vec<(u32, &[u8])> =
            message.pieces.values().map(|(o, b)| (*o, b.as_slice())).collect();
        spans.sort_unstable_by_key(|(o, _)| *o);
        // Copying happens only when the received bytes are the total: O(bytes received).
        crate::work(spans.len().saturating_add(message.received));
        let mut whole = Vec::new();
        let mut tiles = message.received == total;
        if tiles {
            whole.reserve_exact(total);
            for (offset, piece) in spans {
                if usize::try_from(offset).ok() != Some(whole.len()) {
                    tiles = false;
                    break;
                }
                whole.extend_from_slice(piece);
            }
        }
        if !tiles {
            self.drop_waiting(key, out);
            return;
        }
        let (transfer, count) = (message.transfer, message.count);
        self.remove(key);
        if transfer == TransferMode::Reliable {
            return self.reliable_message(
                f.channel,
                f.start,
                count,
                Cow::Owned(whole),
                limits,
                out,
            );
        }
        self.stats.messages = self.stats.messages.saturating_add(1);
        out.push(Out::Message {
            channel: f.channel,
            transfer,
            bytes: Cow::Owned(whole),
            fragments: count,
        });
    }

    /// A reliable message (first seen) starting at `sequence` and taking `fragments` numbers:
    /// handed out if it is its channel's next, with those held after it; held otherwise.
    fn reliable_message<'a>(
        &mut self,
        channel: u8,
        sequence: u16,
        fragments: u32,
        bytes: Cow<'a, [u8]>,
        limits: EnetLimits,
        out: &mut Vec<Out<'a>>,
    ) {
        let connected = self.connect_id.is_some();
        let Some(order) = self.order.get_or_insert_with(channel, Order::default) else { return };
        // ENet numbers a connection's reliable commands from 1 on each channel.
        let next = *order.next.get_or_insert(if connected { 1 } else { u64::from(sequence) });
        let ahead = sequence.wrapping_sub(low16(next));
        if ahead >= 0x8000 {
            // Behind the next (a capture begun after its channel's start, or a missing message
            // given up on): handed out as it comes.
            self.stats.messages = self.stats.messages.saturating_add(1);
            out.push(Out::Message { channel, transfer: TransferMode::Reliable, bytes, fragments });
            return;
        }
        let at = next.saturating_add(u64::from(ahead));
        if ahead != 0 {
            self.stats.reordered = self.stats.reordered.saturating_add(1);
            crate::work(bytes.len().saturating_add(1));
            let cost = bytes.len().saturating_add(FRAGMENT_OVERHEAD);
            let held =
                Held { transfer: TransferMode::Reliable, fragments, bytes: bytes.into_owned() };
            match order.held.insert(at, held) {
                Some(old) => {
                    let freed = old.bytes.len().saturating_add(FRAGMENT_OVERHEAD);
                    self.held_bytes = self.held_bytes.saturating_sub(freed);
                }
                None => self.held_count = self.held_count.saturating_add(1),
            }
            self.held_bytes = self.held_bytes.saturating_add(cost);
            while self.held_count > MAX_HELD || self.held_bytes > limits.max_waiting {
                if !self.skip_missing(channel, out) {
                    break;
                }
            }
            return;
        }
        self.stats.messages = self.stats.messages.saturating_add(1);
        out.push(Out::Message { channel, transfer: TransferMode::Reliable, bytes, fragments });
        order.next = Some(at.saturating_add(u64::from(fragments)));
        // In order with nothing held (the common case): nothing to release.
        if !order.held.is_empty() {
            self.release(channel, out);
        }
    }

    /// Hands out the messages held on `channel` that follow its next without a gap.
    fn release(&mut self, channel: u8, out: &mut Vec<Out<'_>>) {
        let Some(order) = self.order.get_mut(channel) else { return };
        while let Some(next) = order.next {
            let Some(held) = order.held.remove(&next) else { break };
            crate::work(1);
            self.held_count = self.held_count.saturating_sub(1);
            self.held_bytes =
                self.held_bytes.saturating_sub(held.bytes.len().saturating_add(FRAGMENT_OVERHEAD));
            order.next = Some(next.saturating_add(u64::from(held.fragments)));
            self.stats.messages = self.stats.messages.saturating_add(1);
            out.push(Out::Message {
                channel,
                transfer: held.transfer,
                bytes: Cow::Owned(held.bytes),
                fragments: held.fragments,
            });
        }
    }

    /// Gives up on `channel`'s next message: reported missing, the held ones after it handed
    /// out. False when nothing is held there.
    fn skip_missing(&mut self, channel: u8, out: &mut Vec<Out<'_>>) -> bool {
        let Some(order) = self.order.get_mut(channel) else { return false };
        let Some((&first, _)) = order.held.first_key_value() else { return false };
        let missing = order.next.unwrap_or(first);
        order.next = Some(first);
        self.refuse(EnetError::Missing { channel, sequence: low16(missing) }, out);
        self.release(channel, out);
        true
    }

    fn remove(&mut self, key: (u8, u16, bool)) -> Option<Reassembly> {
        let message = self.waiting.remove(&key)?;
        self.ages.remove(&(message.age, key.0, key.1, key.2));
        let cost =
            message.received.saturating_add(message.pieces.len().saturating_mul(FRAGMENT_OVERHEAD));
        self.waiting_bytes = self.waiting_bytes.saturating_sub(cost);
        Some(message)
    }

    fn drop_waiting(&mut self, key: (u8, u16, bool), out: &mut Vec<Out<'_>>) {
        if let Some(message) = self.remove(key) {
            self.refuse(
                EnetError::Unfinished {
                    channel: key.0,
                    start: key.1,
                    received: message.received,
                    total: message.total,
                },
                out,
            );
        }
    }

    /// The direction ended: unfinished messages are reported, and so are missing reliable
    /// ones, the messages held after them handed out.
    pub fn finish(&mut self, out: &mut Vec<Out<'_>>) {
        let keys: Vec<(u8, u16, bool)> = self.waiting.keys().copied().collect();
        for key in keys {
            self.drop_waiting(key, out);
        }
        let channels = self.order.keys();
        for channel in channels {
            while self.skip_missing(channel, out) {}
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Fragment {
    channel: u8,
    start: u16,
    count: u32,
    number: u32,
    total: u32,
    offset: u32,
    transfer: TransferMode,
}

/// Test helpers: ENet commands written as a sender writes them.
#[cfg(test)]
pub(crate) mod write {
    /// A datagram: the header (peer id, no sent time) then `commands`.
    pub fn datagram(peer: u16, commands: &[Vec<u8>]) -> Vec<u8> {
        let mut out = peer.to_be_bytes().to_vec();
        for c in commands {
            out.extend_from_slice(c);
        }
        out
    }

    /// SEND_RELIABLE.
    pub fn reliable(channel: u8, sequence: u16, data: &[u8]) -> Vec<u8> {
        let mut out = vec![0x86, channel];
        out.extend_from_slice(&sequence.to_be_bytes());
        out.extend_from_slice(&(data.len() as u16).to_be_bytes());
        out.extend_from_slice(data);
        out
    }

    /// SEND_UNSEQUENCED.
    pub fn unsequenced(channel: u8, group: u16, data: &[u8]) -> Vec<u8> {
        let mut out = vec![0x49, channel, 0, 0];
        out.extend_from_slice(&group.to_be_bytes());
        out.extend_from_slice(&(data.len() as u16).to_be_bytes());
        out.extend_from_slice(data);
        out
    }

    /// SEND_FRAGMENT (reliable) or SEND_UNRELIABLE_FRAGMENT.
    #[allow(clippy::too_many_arguments)]
    pub fn fragment(
        reliable: bool,
        channel: u8,
        sequence: u16,
        start: u16,
        count: u32,
        number: u32,
        total: u32,
        offset: u32,
        data: &[u8],
    ) -> Vec<u8> {
        let mut out = vec![if reliable { 0x88 } else { 0x0C }, channel];
        out.extend_from_slice(&sequence.to_be_bytes());
        out.extend_from_slice(&start.to_be_bytes());
        out.extend_from_slice(&(data.len() as u16).to_be_bytes());
        for n in [count, number, total, offset] {
            out.extend_from_slice(&n.to_be_bytes());
        }
        out.extend_from_slice(data);
        out
    }

    /// CONNECT with connect `data`.
    pub fn connect(data: u32) -> Vec<u8> {
        let mut out = vec![0x82, 0xFF, 0, 1, 0, 0, 0, 0];
        for n in [1400u32, 32768, 3, 0, 0, 5000, 2, 2, 0x1234_5678, data] {
            out.extend_from_slice(&n.to_be_bytes());
        }
        out
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn channels_found_by_scan_then_by_index_in_any_order() {
        let mut channels = super::Channels::<u32>::default();
        // Descending channel numbers: each one added, none moved.
        for round in 0..3u32 {
            for c in (0..=255u8).rev() {
                channels.get_or_insert_with(c, || u32::from(c) + round).unwrap();
            }
            assert_eq!(channels.len(), 256);
            for c in 0..=255u8 {
                assert_eq!(channels.get_mut(c).copied(), Some(u32::from(c) + round), "{c}");
            }
            assert_eq!(channels.keys(), (0..=255u8).collect::<Vec<_>>());
            channels.clear();
            assert_eq!(channels.len(), 0);
            assert!(channels.get_mut(7).is_none());
            // A few again: found by the index kept (zeroed), then past the scan.
            for c in [9u8, 3, 200] {
                channels.get_or_insert_with(c, || 1);
            }
            assert_eq!(channels.keys(), vec![3, 9, 200]);
            assert!(channels.get_mut(4).is_none());
            channels.clear();
        }
    }
    use super::*;

    fn run(half: &mut Half, datagram: Vec<u8>) -> Vec<Out<'static>> {
        let mut out = Vec::new();
        half.datagram(&Cow::Owned(datagram), EnetLimits::default(), &mut out);
        out
    }

    fn messages(out: &[Out<'_>]) -> Vec<(u8, TransferMode, Vec<u8>)> {
        out.iter()
            .filter_map(|o| match o {
                Out::Message { channel, transfer, bytes, .. } => {
                    Some((*channel, *transfer, bytes.to_vec()))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn connect_is_detected_and_read() {
        let d = write::datagram(0x0FFF, &[write::connect(77)]);
        assert_eq!(is_connect(&d).map(|c| c.data), Some(77));
        let mut half = Half::default();
        let out = run(&mut half, d);
        assert!(matches!(out.as_slice(), [Out::Connect(Connect { data: 77, channels: 3, .. })]));
        assert_eq!(is_connect(&[0, 1, 2]), None);
    }

    #[test]
    fn retransmissions_count_once_and_modes_are_named() {
        let mut half = Half::default();
        let a =
            write::datagram(0, &[write::reliable(1, 1, b"one"), write::unsequenced(2, 1, b"u")]);
        let out = run(&mut half, a.clone());
        assert_eq!(
            messages(&out),
            vec![
                (1, TransferMode::Reliable, b"one".to_vec()),
                (2, TransferMode::Unreliable, b"u".to_vec())
            ]
        );
        // The reliable command again: not a message; the unsequenced one is.
        let out = run(&mut half, a);
        assert_eq!(messages(&out), vec![(2, TransferMode::Unreliable, b"u".to_vec())]);
        assert_eq!(half.stats.duplicates, 1);
        // Same sequence number on another channel is another message.
        let out = run(&mut half, write::datagram(0, &[write::reliable(3, 1, b"x")]));
        assert_eq!(messages(&out).len(), 1);
    }

    #[test]
    fn fragments_reassemble_in_any_order_and_liars_never_complete() {
        let mut half = Half::default();
        let f = |n: u32, data: &[u8]| {
            write::datagram(0, &[write::fragment(true, 1, 10 + n as u16, 10, 3, n, 7, n * 3, data)])
        };
        assert!(messages(&run(&mut half, f(2, b"g"))).is_empty());
        assert!(messages(&run(&mut half, f(0, b"abc"))).is_empty());
        // A retransmission of fragment 0.
        assert!(run(&mut half, f(0, b"abc")).is_empty());
        let out = run(&mut half, f(1, b"def"));
        assert_eq!(messages(&out), vec![(1, TransferMode::Reliable, b"abcdefg".to_vec())]);
        assert_eq!(half.held(), Seen::WORDS * 8 + 16);

        // Fragments that claim a million-byte total but never tile it.
        let liar = |n: u32, offset: u32| {
            write::datagram(0, &[write::fragment(false, 1, 0, 99, 2, n, 1 << 20, offset, b"zz")])
        };
        assert!(messages(&run(&mut half, liar(0, 0))).is_empty());
        let out = run(&mut half, liar(1, 2));
        assert!(messages(&out).is_empty());
        assert!(matches!(out.as_slice(), [Out::Refused(EnetError::Unfinished { .. })]));
        // A count over the total, a total over the limit, bytes past the total.
        for bad in [
            write::fragment(false, 1, 0, 5, 9, 0, 4, 0, b"a"),
            write::fragment(false, 1, 0, 5, 2, 0, 1 << 30, 0, b"a"),
            write::fragment(false, 1, 0, 5, 2, 0, 4, 3, b"ab"),
            write::fragment(false, 1, 0, 5, 2, 2, 4, 0, b"ab"),
        ] {
            let out = run(&mut half, write::datagram(0, &[bad]));
            assert!(matches!(out.as_slice(), [Out::Refused(EnetError::BadFragment(_))]), "{out:?}");
        }
        assert_eq!(half.waiting_bytes, 0);
    }

    #[test]
    fn reliable_messages_come_out_in_sequence_order() {
        // The CONNECT read: each channel's reliable numbers start at 1. Number 1 of channel 1
        // was lost before the capture; 2, a fragmented 3-4 and 5 arrive first and are held.
        let mut half = Half::default();
        assert!(messages(&run(&mut half, write::datagram(0, &[write::connect(7)]))).is_empty());
        let f = |sequence: u16, number: u32, data: &[u8]| {
            write::fragment(true, 1, sequence, 3, 2, number, 4, number * 2, data)
        };
        let early = write::datagram(
            0,
            &[
                write::reliable(1, 2, b"two"),
                f(4, 1, b"cd"),
                write::reliable(2, 1, b"other channel"),
                f(3, 0, b"ab"),
            ],
        );
        assert_eq!(
            messages(&run(&mut half, early)),
            vec![(2, TransferMode::Reliable, b"other channel".to_vec())]
        );
        assert!(
            messages(&run(&mut half, write::datagram(0, &[write::reliable(1, 5, b"five")])))
                .is_empty()
        );
        assert_eq!(half.stats.reordered, 3);
        assert!(half.held() > Seen::WORDS * 8 * 2);
        // Number 1 sent again: all four in order, the fragmented message once.
        let out = run(&mut half, write::datagram(0, &[write::reliable(1, 1, b"one")]));
        let texts: Vec<Vec<u8>> = messages(&out).into_iter().map(|m| m.2).collect();
        assert_eq!(texts, [&b"one"[..], b"two", b"abcd", b"five"].map(<[u8]>::to_vec));
        assert_eq!(half.held_count, 0);
        assert_eq!(half.held_bytes, 0);
        // Sent again once more: a duplicate, nothing handed out.
        assert!(run(&mut half, write::datagram(0, &[write::reliable(1, 2, b"two")])).is_empty());
        assert_eq!(half.stats.messages, 5);
    }

    #[test]
    fn a_reliable_message_never_captured_is_reported_and_the_rest_handed_out() {
        // No CONNECT: the first number seen (10) is the channel's start; 11 never comes.
        let mut half = Half::default();
        let out = run(&mut half, write::datagram(0, &[write::reliable(1, 10, b"ten")]));
        assert_eq!(messages(&out).len(), 1);
        assert!(
            run(&mut half, write::datagram(0, &[write::reliable(1, 12, b"twelve")])).is_empty()
        );
        assert!(
            run(&mut half, write::datagram(0, &[write::reliable(1, 14, b"fourteen")])).is_empty()
        );
        let mut out = Vec::new();
        half.finish(&mut out);
        assert!(
            matches!(
                out.as_slice(),
                [
                    Out::Refused(EnetError::Missing { channel: 1, sequence: 11 }),
                    Out::Message { .. },
                    Out::Refused(EnetError::Missing { channel: 1, sequence: 13 }),
                    Out::Message { .. },
                ]
            ),
            "{out:?}"
        );
        assert_eq!(half.held_bytes, 0);

        // Past max_waiting, the oldest gap is given up on at once; a late arrival of the
        // missing one is handed out as it comes.
        let mut half = Half::default();
        let limits = EnetLimits { max_waiting: 100, ..EnetLimits::default() };
        let mut out = Vec::new();
        for (sequence, data) in [(1u16, &[1u8; 10][..]), (3, &[3; 10]), (4, &[4; 90])] {
            let datagram = Cow::Owned(write::datagram(0, &[write::reliable(1, sequence, data)]));
            half.datagram(&datagram, limits, &mut out);
        }
        assert!(
            matches!(
                out.as_slice(),
                [
                    Out::Message { .. },
                    Out::Refused(EnetError::Missing { channel: 1, sequence: 2 }),
                    Out::Message { .. },
                    Out::Message { .. },
                ]
            ),
            "{out:?}"
        );
        let late = run(&mut half, write::datagram(0, &[write::reliable(1, 2, b"late")]));
        assert_eq!(messages(&late), vec![(1, TransferMode::Reliable, b"late".to_vec())]);
    }

    #[test]
    fn malformed_datagrams_are_refused() {
        let mut half = Half::default();
        for bad in [
            vec![0u8],
            vec![0x40, 0],
            vec![0, 0, 0x0E, 0, 0, 0],
            vec![0, 0, 0x86, 1, 0, 1, 0, 9, 1],
        ] {
            let out = run(&mut half, bad);
            assert!(matches!(out.as_slice(), [Out::Refused(_)]), "{out:?}");
        }
    }
}
