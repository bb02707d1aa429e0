//! WebSocket over TCP (RFC 6455), read passively from each direction's reassembled stream: the
//! HTTP upgrade (the client's request, the server's `101` answer), then frames. Messages are put
//! back together from their fragments; control frames (ping, pong, close) may come between
//! fragments. Each binary message is one item: a value (Godot's `WebSocketPeer.put_var`), or
//! with [`Config::websocket_raw`](crate::Config::websocket_raw) its bytes as they are (for the
//! multiplayer layer).
//!
//! # What is checked
//!
//! | what | the rule | a failure |
//! | --- | --- | --- |
//! | the upgrade | the client's request starts `GET ` and has an `Upgrade: websocket` header; the server's answer is `HTTP/1.x 101`; each at most [`WsLimits::max_header_bytes`] | [`WsError::Handshake`] |
//! | a frame header | no reserved bits (no extension is read), a known opcode, control frames unfragmented and at most 125 bytes, 64-bit lengths with the top bit clear | [`WsError`] |
//! | masking | a client's frames masked (unmasked here), a server's not | [`WsError::Masking`] |
//! | fragments | a continuation only inside a message, a new message only after the last one ended | [`WsError::Continuation`], [`WsError::Interrupted`] |
//! | size | a message at most [`WsLimits::max_message_size`], refused as soon as a frame header claims more | [`WsError::TooLarge`] |
//!
//! A protocol error ends the reading of that direction (an [`Item::WebSocket`] with the error;
//! what follows is counted as skipped, never read). So does a TCP gap (an [`Item::Gap`] that
//! never resyncs): frame boundaries are not guessed.
//!
//! # Costs
//!
//! O(bytes) per direction; memory per direction: the upgrade's header (at most
//! [`WsLimits::max_header_bytes`]), one message being put together (at most
//! [`WsLimits::max_message_size`]), one control frame (125 bytes). A binary message in one
//! unmasked frame within one captured piece is borrowed from the capture, not copied.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::fmt;

use gdvariant::Options;
use gdvariant_multiplayer::Direction;

use crate::file::Timestamp;
use crate::flows::FlowId;
use crate::stream::Context;
use crate::{Cut, Gap, Item, Refusal, Refused, Value};

/// How much one WebSocket direction may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WsLimits {
    /// The upgrade request's or answer's bytes, up to the blank line (default 16 KiB).
    pub max_header_bytes: usize,
    /// A message's bytes, all its fragments together (default 16 MiB, `WebSocketPeer`'s
    /// buffers are far smaller).
    pub max_message_size: usize,
}

impl Default for WsLimits {
    fn default() -> Self {
        WsLimits { max_header_bytes: 16 << 10, max_message_size: 16 << 20 }
    }
}

/// Why a WebSocket direction is no longer read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WsError {
    /// The upgrade request or answer is not one (its first line, or what is missing).
    Handshake(String),
    /// The upgrade's header did not end within [`WsLimits::max_header_bytes`].
    HeaderTooLong(usize),
    /// A frame with reserved bits set (an extension such as compression, not read).
    Reserved(u8),
    /// An opcode RFC 6455 does not define.
    Opcode(u8),
    /// A client frame not masked (`masked: false`) or a server frame masked.
    Masking {
        /// Whether the frame was masked.
        masked: bool,
    },
    /// A control frame without FIN.
    ControlFragmented(u8),
    /// A control frame longer than 125 bytes.
    ControlTooLong(u64),
    /// A continuation frame with no message under way.
    Continuation,
    /// A new text or binary frame while a fragmented message was under way.
    Interrupted,
    /// A message longer than the limit (the size claimed so far).
    TooLarge {
        /// Bytes claimed (the message so far plus the frame's length).
        size: u64,
        /// The limit.
        limit: usize,
    },
    /// A close frame with a 1-byte payload.
    BadClose,
    /// A frame after this direction's close frame.
    AfterClose,
}

impl fmt::Display for WsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WsError::Handshake(why) => write!(f, "not a WebSocket upgrade: {why}"),
            WsError::HeaderTooLong(limit) => {
                write!(f, "the upgrade's header is longer than {limit} bytes")
            }
            WsError::Reserved(bits) => write!(f, "reserved bits set ({bits:#04x})"),
            WsError::Opcode(op) => write!(f, "unknown opcode {op:#x}"),
            WsError::Masking { masked: false } => write!(f, "a client frame not masked"),
            WsError::Masking { masked: true } => write!(f, "a server frame masked"),
            WsError::ControlFragmented(op) => write!(f, "control frame {op:#x} without FIN"),
            WsError::ControlTooLong(len) => write!(f, "control frame of {len} bytes (over 125)"),
            WsError::Continuation => write!(f, "a continuation frame with no message under way"),
            WsError::Interrupted => write!(f, "a new message before the last one ended"),
            WsError::TooLarge { size, limit } => {
                write!(f, "a message of {size} bytes (over {limit})")
            }
            WsError::BadClose => write!(f, "a close frame of 1 byte"),
            WsError::AfterClose => write!(f, "a frame after the close frame"),
        }
    }
}

impl std::error::Error for WsError {}

/// Something of a WebSocket stream other than a binary message read as a value.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WsEvent<'a> {
    /// The upgrade request (client) or answer (server): its first line.
    Upgrade(String),
    /// A binary message's bytes ([`Config::websocket_raw`](crate::Config::websocket_raw)).
    Binary(Cow<'a, [u8]>),
    /// A text message (invalid UTF-8 replaced).
    Text(String),
    /// A ping of so many bytes.
    Ping(usize),
    /// A pong of so many bytes.
    Pong(usize),
    /// A close frame: its status code and reason, if any.
    Close {
        /// The status code.
        code: Option<u16>,
        /// The reason (invalid UTF-8 replaced).
        reason: String,
    },
    /// A protocol error: this direction is not read further.
    Error(WsError),
}

/// An [`Item::WebSocket`]: where and when, and what.
#[derive(Clone, Debug)]
pub struct WebSocket<'a> {
    /// Its flow.
    pub flow: FlowId,
    /// Which way.
    pub direction: Direction,
    /// When the packet that completed it was captured.
    pub time: Timestamp,
    /// The stream offset of its start (the upgrade's first byte, a message's first frame).
    pub offset: u64,
    /// What.
    pub event: WsEvent<'a>,
    /// The Godot version of its flow, as told by the time it was read (see the crate docs'
    /// "Detection"): what a binary message's multiplayer framing is.
    pub version: gdvariant::Version,
}

/// The client's first data is a WebSocket upgrade request: `GET ` and an `Upgrade: websocket`
/// header (within the first 16 KiB). The reason, if so. O(its bytes).
pub fn detect(direction: Direction, data: &[u8]) -> Option<String> {
    if direction != Direction::ToServer || !data.starts_with(b"GET ") {
        return None;
    }
    let head = data.get(..data.len().min(16 << 10)).unwrap_or(data);
    let head = head
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(head, |end| head.get(..end).unwrap_or(head));
    let upgrade = head.split(|&b| b == b'\n').skip(1).any(is_upgrade_websocket);
    upgrade.then(|| "the client's first data is an HTTP GET with `Upgrade: websocket`".into())
}

fn is_upgrade_websocket(line: &[u8]) -> bool {
    let line = String::from_utf8_lossy(line).to_ascii_lowercase();
    line.split_once(':').is_some_and(|(name, value)| {
        name.trim() == "upgrade" && value.split(',').any(|v| v.trim() == "websocket")
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Http,
    Header,
    Payload,
    Dead,
}

/// One direction of a WebSocket stream.
#[derive(Debug)]
pub(crate) struct WsHalf {
    /// `ToServer`: the client's frames (masked).
    side: Direction,
    limits: WsLimits,
    options: Options,
    raw: bool,
    /// The upgrade may be missing (the connection's start was not captured).
    mid_stream: bool,
    state: State,
    head: Vec<u8>,
    head_start: u64,
    hdr: [u8; 14],
    hdr_len: usize,
    frame_start: u64,
    opcode: u8,
    fin: bool,
    mask: Option<[u8; 4]>,
    remaining: u64,
    /// Payload bytes of the current frame read so far (the mask's position).
    done: u64,
    /// The opcode of a message under way (fragmented, or a frame's payload spanning pieces).
    message_op: Option<u8>,
    message_start: u64,
    message: Vec<u8>,
    control: Vec<u8>,
    closed: bool,
    /// Bytes already read of a frame refused (passed over, not yet reported).
    passed: u64,
}

impl WsHalf {
    pub(crate) fn new(
        side: Direction,
        limits: WsLimits,
        options: Options,
        raw: bool,
        mid_stream: bool,
    ) -> Self {
        WsHalf {
            side,
            limits,
            options,
            raw,
            mid_stream,
            state: State::Http,
            head: Vec::new(),
            head_start: 0,
            hdr: [0; 14],
            hdr_len: 0,
            frame_start: 0,
            opcode: 0,
            fin: false,
            mask: None,
            remaining: 0,
            done: 0,
            message_op: None,
            message_start: 0,
            message: Vec::new(),
            control: Vec::new(),
            closed: false,
            passed: 0,
        }
    }

    /// Bytes held.
    pub(crate) fn held(&self) -> usize {
        self.head.len().saturating_add(self.message.len()).saturating_add(self.control.len())
    }

    fn push<'a>(
        &self,
        ctx: Context,
        offset: u64,
        event: WsEvent<'a>,
        out: &mut VecDeque<Item<'a>>,
    ) {
        out.push_back(Item::WebSocket(WebSocket {
            flow: ctx.flow,
            direction: ctx.direction,
            time: ctx.time,
            offset,
            event,
            version: self.options.version(),
        }));
    }

    /// Reads the messages still to come with `options` (a flow's version was told).
    pub(crate) fn set_options(&mut self, options: Options) {
        self.options = options;
    }

    fn fail(&mut self, ctx: Context, offset: u64, error: WsError, out: &mut VecDeque<Item<'_>>) {
        self.push(ctx, offset, WsEvent::Error(error), out);
        self.state = State::Dead;
        self.head = Vec::new();
        self.message = Vec::new();
        self.control = Vec::new();
    }

    /// Bytes at stream offset `offset`; returns how many were passed over (after an error or
    /// a gap).
    pub(crate) fn data<'a>(
        &mut self,
        offset: u64,
        data: Cow<'a, [u8]>,
        ctx: Context,
        out: &mut VecDeque<Item<'a>>,
    ) -> u64 {
        let borrowed: Option<&'a [u8]> = match data {
            Cow::Borrowed(b) => Some(b),
            Cow::Owned(_) => None,
        };
        let bytes: &[u8] = &data;
        let mut at = 0usize;
        crate::work(bytes.len());
        while at < bytes.len() {
            let here = offset.saturating_add(at as u64);
            let rest = bytes.get(at..).unwrap_or_default();
            match self.state {
                State::Dead => {
                    let rest = bytes.len().saturating_sub(at) as u64;
                    return std::mem::take(&mut self.passed).saturating_add(rest);
                }
                State::Http => at = at.saturating_add(self.http(here, rest, ctx, out)),
                State::Header => at = at.saturating_add(self.header(here, rest, ctx, out)),
                State::Payload => {
                    let n = usize::try_from(self.remaining).unwrap_or(usize::MAX).min(rest.len());
                    let piece = rest.get(..n).unwrap_or_default();
                    let whole = borrowed
                        .filter(|_| {
                            self.done == 0
                                && n as u64 == self.remaining
                                && self.mask.is_none()
                                && self.fin
                                && self.message.is_empty()
                                && self.opcode == 2
                        })
                        .and_then(|b| b.get(at..at.saturating_add(n)));
                    at = at.saturating_add(n);
                    self.payload(piece, whole, ctx, out);
                }
            }
        }
        std::mem::take(&mut self.passed)
    }

    /// The upgrade's header; returns bytes used.
    fn http<'a>(
        &mut self,
        here: u64,
        rest: &[u8],
        ctx: Context,
        out: &mut VecDeque<Item<'a>>,
    ) -> usize {
        let expect: &[u8] = if self.side == Direction::ToServer { b"GET " } else { b"HTTP/" };
        if self.head.is_empty() {
            self.head_start = here;
            let n = rest.len().min(expect.len());
            if rest.get(..n) != expect.get(..n) {
                if self.mid_stream {
                    // No upgrade captured: frames from the first byte.
                    self.state = State::Header;
                    return 0;
                }
                let line = first_line(rest);
                self.fail(ctx, here, WsError::Handshake(format!("it starts `{line}`")), out);
                return 0;
            }
        }
        let room = self.limits.max_header_bytes.saturating_sub(self.head.len());
        let take = rest.len().min(room);
        let from = self.head.len().saturating_sub(3);
        self.head.extend_from_slice(rest.get(..take).unwrap_or_default());
        let found = self.head.get(from..).and_then(|t| t.windows(4).position(|w| w == b"\r\n\r\n"));
        let Some(pos) = found else {
            if self.head.len() >= self.limits.max_header_bytes {
                let limit = self.limits.max_header_bytes;
                let start = self.head_start;
                self.fail(ctx, start, WsError::HeaderTooLong(limit), out);
            }
            return take;
        };
        let end = from.saturating_add(pos).saturating_add(4);
        let used = take.saturating_sub(self.head.len().saturating_sub(end));
        let head = std::mem::take(&mut self.head);
        let head = head.get(..end).unwrap_or_default();
        let line = first_line(head);
        let verdict = if self.side == Direction::ToServer {
            if !head.split(|&b| b == b'\n').skip(1).any(is_upgrade_websocket) {
                Err(format!("`{line}` has no `Upgrade: websocket` header"))
            } else {
                Ok(())
            }
        } else {
            let status = line.split(' ').nth(1).unwrap_or("");
            if line.starts_with("HTTP/1.") && status == "101" {
                Ok(())
            } else {
                Err(format!("the server answered `{line}`"))
            }
        };
        let start = self.head_start;
        match verdict {
            Ok(()) => {
                self.push(ctx, start, WsEvent::Upgrade(line), out);
                self.state = State::Header;
            }
            Err(why) => self.fail(ctx, start, WsError::Handshake(why), out),
        }
        used
    }

    /// A frame header's bytes; returns bytes used.
    fn header<'a>(
        &mut self,
        here: u64,
        rest: &[u8],
        ctx: Context,
        out: &mut VecDeque<Item<'a>>,
    ) -> usize {
        if self.hdr_len == 0 {
            self.frame_start = here;
        }
        let mut used = 0;
        loop {
            let need = header_len(&self.hdr, self.hdr_len);
            if self.hdr_len >= need {
                break;
            }
            let Some(&b) = rest.get(used) else { return used };
            if let Some(slot) = self.hdr.get_mut(self.hdr_len) {
                *slot = b;
            }
            self.hdr_len = self.hdr_len.saturating_add(1);
            used = used.saturating_add(1);
        }
        self.hdr_len = 0;
        let start = self.frame_start;
        match self.frame(ctx, out) {
            Ok(()) => {
                self.state = State::Payload;
                if self.remaining == 0 {
                    self.payload(&[], None, ctx, out);
                }
            }
            Err(error) => {
                self.passed = header_len(&self.hdr, 2) as u64;
                self.fail(ctx, start, error, out);
            }
        }
        used
    }

    /// Checks a complete frame header and starts its payload.
    fn frame(&mut self, _ctx: Context, _out: &mut VecDeque<Item<'_>>) -> Result<(), WsError> {
        let [b0, b1, ..] = self.hdr;
        let fin = b0 & 0x80 != 0;
        let opcode = b0 & 0x0f;
        if b0 & 0x70 != 0 {
            return Err(WsError::Reserved(b0 & 0x70));
        }
        if !matches!(opcode, 0 | 1 | 2 | 8 | 9 | 10) {
            return Err(WsError::Opcode(opcode));
        }
        if self.closed {
            return Err(WsError::AfterClose);
        }
        let masked = b1 & 0x80 != 0;
        if masked != (self.side == Direction::ToServer) {
            return Err(WsError::Masking { masked });
        }
        let (length, ext): (u64, usize) = match b1 & 0x7f {
            126 => (u64::from(u16::from_be_bytes([self.hdr[2], self.hdr[3]])), 2),
            127 => {
                let mut eight = [0u8; 8];
                eight.copy_from_slice(self.hdr.get(2..10).unwrap_or(&[0; 8]));
                (u64::from_be_bytes(eight), 8)
            }
            n => (u64::from(n), 0),
        };
        if opcode >= 8 {
            if !fin {
                return Err(WsError::ControlFragmented(opcode));
            }
            if length > 125 {
                return Err(WsError::ControlTooLong(length));
            }
        } else {
            match (opcode, self.message_op) {
                (0, None) => return Err(WsError::Continuation),
                (1 | 2, Some(_)) => return Err(WsError::Interrupted),
                _ => {}
            }
            let size = (self.message.len() as u64).saturating_add(length);
            if size > self.limits.max_message_size as u64 {
                return Err(WsError::TooLarge { size, limit: self.limits.max_message_size });
            }
            if opcode != 0 {
                self.message_op = Some(opcode);
                self.message_start = self.frame_start;
            }
        }
        self.mask = masked.then(|| {
            let at = ext.saturating_add(2);
            let mut key = [0u8; 4];
            key.copy_from_slice(self.hdr.get(at..at.saturating_add(4)).unwrap_or(&[0; 4]));
            key
        });
        self.fin = fin;
        self.opcode = opcode;
        self.remaining = length;
        self.done = 0;
        Ok(())
    }

    /// Payload bytes of the current frame (`whole`: all of it, borrowed from the capture).
    fn payload<'a>(
        &mut self,
        piece: &[u8],
        whole: Option<&'a [u8]>,
        ctx: Context,
        out: &mut VecDeque<Item<'a>>,
    ) {
        if whole.is_none() {
            let into = if self.opcode >= 8 { &mut self.control } else { &mut self.message };
            let start = into.len();
            into.extend_from_slice(piece);
            if let Some(key) = self.mask {
                let base = self.done;
                for (i, b) in into.get_mut(start..).unwrap_or_default().iter_mut().enumerate() {
                    let k = (base.wrapping_add(i as u64) % 4) as usize;
                    *b ^= key.get(k).copied().unwrap_or(0);
                }
            }
        }
        self.done = self.done.saturating_add(piece.len() as u64);
        self.remaining = self.remaining.saturating_sub(piece.len() as u64);
        if self.remaining > 0 {
            return;
        }
        self.state = State::Header;
        let start = self.frame_start;
        match self.opcode {
            8 => {
                let control = std::mem::take(&mut self.control);
                self.closed = true;
                match control.as_slice() {
                    [] => self.push(
                        ctx,
                        start,
                        WsEvent::Close { code: None, reason: String::new() },
                        out,
                    ),
                    [_] => self.fail(ctx, start, WsError::BadClose, out),
                    [a, b, reason @ ..] => {
                        let code = Some(u16::from_be_bytes([*a, *b]));
                        let reason = String::from_utf8_lossy(reason).into_owned();
                        self.push(ctx, start, WsEvent::Close { code, reason }, out);
                    }
                }
            }
            9 | 10 => {
                let len = std::mem::take(&mut self.control).len();
                let event = if self.opcode == 9 { WsEvent::Ping(len) } else { WsEvent::Pong(len) };
                self.push(ctx, start, event, out);
            }
            _ if self.fin => {
                let op = self.message_op.take();
                let at = self.message_start;
                let bytes = match whole {
                    Some(b) => Cow::Borrowed(b),
                    None => Cow::Owned(std::mem::take(&mut self.message)),
                };
                if op == Some(1) {
                    let text = String::from_utf8_lossy(&bytes).into_owned();
                    self.push(ctx, at, WsEvent::Text(text), out);
                } else if self.raw {
                    self.push(ctx, at, WsEvent::Binary(bytes), out);
                } else {
                    out.push_back(self.value(ctx, at, bytes));
                }
            }
            _ => {}
        }
    }

    fn value<'a>(&self, ctx: Context, offset: u64, bytes: Cow<'a, [u8]>) -> Item<'a> {
        match gdvariant::validate(&bytes, self.options) {
            Ok(()) => Item::Value(Value {
                flow: ctx.flow,
                direction: ctx.direction,
                time: ctx.time,
                offset,
                bytes,
                options: self.options,
            }),
            Err(error) => Item::Refused(Refused {
                flow: ctx.flow,
                direction: ctx.direction,
                time: ctx.time,
                offset,
                bytes,
                refusal: Refusal::Message(error),
            }),
        }
    }

    /// `missing` bytes were never captured: the direction is not read further.
    pub(crate) fn gap(
        &mut self,
        offset: u64,
        missing: u64,
        ctx: Context,
        out: &mut VecDeque<Item<'_>>,
    ) {
        if self.state == State::Dead {
            return;
        }
        let skipped = self.held().saturating_add(self.hdr_len) as u64;
        out.push_back(Item::Gap(Gap {
            flow: ctx.flow,
            direction: ctx.direction,
            time: ctx.time,
            offset,
            missing,
            skipped,
            resynced: false,
        }));
        self.state = State::Dead;
        self.head = Vec::new();
        self.message = Vec::new();
        self.control = Vec::new();
    }

    /// The direction ended: a frame or message cut short is reported.
    pub(crate) fn end(&mut self, ctx: Context, out: &mut VecDeque<Item<'_>>) {
        if self.state == State::Dead {
            return;
        }
        let held = self.held().saturating_add(self.hdr_len);
        let needed = match self.state {
            State::Payload => usize::try_from(self.remaining).unwrap_or(usize::MAX),
            State::Header if self.hdr_len > 0 || self.message_op.is_some() => {
                header_len(&self.hdr, self.hdr_len).saturating_sub(self.hdr_len)
            }
            _ => 0,
        };
        if held > 0 || needed > 0 || self.message_op.is_some() {
            out.push_back(Item::Cut(Cut {
                flow: ctx.flow,
                direction: ctx.direction,
                time: ctx.time,
                held,
                needed: needed.max(1),
            }));
        }
        self.state = State::Dead;
        self.head = Vec::new();
        self.message = Vec::new();
        self.control = Vec::new();
    }
}

/// A frame header's length once `len` of its bytes are known (2 until then).
fn header_len(hdr: &[u8; 14], len: usize) -> usize {
    if len < 2 {
        return 2;
    }
    let ext: usize = match hdr[1] & 0x7f {
        126 => 2,
        127 => 8,
        _ => 0,
    };
    let mask = if hdr[1] & 0x80 != 0 { 4 } else { 0 };
    ext.saturating_add(mask).saturating_add(2usize)
}

/// The first line of `bytes` (at most 100 characters), for messages.
fn first_line(bytes: &[u8]) -> String {
    let line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    String::from_utf8_lossy(line).chars().take(100).collect()
}
