//! Flows (5-tuples, both directions paired), what each carries, and the [`Reader`] that hands
//! out a capture's items.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt;
use std::net::{IpAddr, SocketAddr};

use gdvariant::framing::LengthPrefix;
use gdvariant::{Options, VariantType, Version};
use gdvariant_multiplayer::Direction;

use crate::enet::{self, Connect, EnetLimits, EnetStats, Half as EnetHalf};
use crate::file::{self, FileError, Packets, RawPacket, Timestamp};
use crate::net::{self, FragmentLimits, Fragments, Protocol, Skip, Transport};
use crate::stream::{Context, Framer};
use crate::tcp::{Event, Half, HalfStats, TcpLimits};
use crate::version::{self as versions, Looks};
use crate::websocket::{self, WsHalf, WsLimits};
use crate::{EnetMessage, Item, Refusal, Refused, Value};

/// A flow's number: 0 for the first flow seen, then in order of first packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FlowId(pub u64);

impl fmt::Display for FlowId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "f{}", self.0)
    }
}

/// What a flow carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Carrier {
    /// TCP: `StreamPeer.put_var` / `PacketPeerStream` frames (a 4-byte length, then a value).
    PutVar,
    /// UDP: one value per datagram (`PacketPeerUDP.put_var`).
    Datagrams,
    /// Not read as Godot's (counted only).
    Other,
    /// TCP: WebSocket (RFC 6455) after an HTTP upgrade; each binary message one value
    /// (`WebSocketPeer.put_var`) or, with [`Config::websocket_raw`], one
    /// [`WsEvent::Binary`](crate::WsEvent::Binary).
    WebSocket,
    /// UDP: ENet (Godot's `NetworkedMultiplayerENet` / `ENetMultiplayerPeer`), messages
    /// handed out as [`Item::Enet`].
    Enet,
}

impl Carrier {
    /// `put_var`, `datagrams`, `other` or `enet`.
    pub const fn name(self) -> &'static str {
        match self {
            Carrier::PutVar => "put_var",
            Carrier::Datagrams => "datagrams",
            Carrier::Other => "other",
            Carrier::WebSocket => "websocket",
            Carrier::Enet => "enet",
        }
    }
}

/// How a capture is read.
#[derive(Clone, Debug)]
pub struct Config {
    /// How values are read (the Godot version, objects allowed or not).
    pub options: Options,
    /// The length prefix of TCP frames (default: `StreamPeer.put_var`'s, little-endian, signed,
    /// at most 16 MiB).
    pub prefix: LengthPrefix,
    /// What a port carries, whatever detection would say: a flow with either port here is read
    /// as given ([`Carrier::Other`]: not read). A TCP port given [`Carrier::Datagrams`] (or a
    /// UDP port [`Carrier::PutVar`]) is not read.
    pub ports: BTreeMap<u16, Carrier>,
    /// Flows followed at once (default 10,000); the oldest is evicted past it.
    pub max_flows: usize,
    /// Bytes held for all flows together (waiting TCP pieces and partial frames; default
    /// 256 MiB); the oldest flows are evicted past it.
    pub max_held_bytes: usize,
    /// Finished and evicted flows whose [`FlowInfo`] is kept for [`Reader::flows`] (default
    /// 100,000); past it only [`Totals::flows_not_kept`] counts them.
    pub max_flow_records: usize,
    /// Each TCP direction's reordering window.
    pub tcp: TcpLimits,
    /// IP fragment reassembly (IPv4 and IPv6).
    pub fragments: FragmentLimits,
    /// Each WebSocket direction's limits.
    pub websocket: WsLimits,
    /// WebSocket binary messages are handed out as they are ([`WsEvent::Binary`](crate::WsEvent::Binary),
    /// for the multiplayer layer) instead of as values (default false).
    pub websocket_raw: bool,
    /// ENet fragment reassembly, per direction.
    pub enet: EnetLimits,
    /// Each flow's Godot version is told from what it carries (the crate docs' "Detection"),
    /// [`Config::options`]' version where nothing tells (default true); false: that version
    /// for every flow.
    pub detect_version: bool,
}

impl Config {
    /// Defaults, values read with `options`.
    pub fn new(options: Options) -> Self {
        Config {
            options,
            prefix: LengthPrefix::stream_peer(false),
            ports: BTreeMap::new(),
            max_flows: 10_000,
            max_held_bytes: 256 << 20,
            max_flow_records: 100_000,
            tcp: TcpLimits::default(),
            fragments: FragmentLimits::default(),
            websocket: WsLimits::default(),
            websocket_raw: false,
            enet: EnetLimits::default(),
            detect_version: true,
        }
    }

    /// `port` carries `carrier`.
    pub fn with_port(mut self, port: u16, carrier: Carrier) -> Self {
        self.ports.insert(port, carrier);
        self
    }
}

/// One flow: its endpoints, what it carries and why, its counts.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowInfo {
    /// Its number.
    pub id: FlowId,
    /// TCP or UDP.
    pub protocol: Protocol,
    /// The client's address and port.
    pub client: SocketAddr,
    /// The server's address and port.
    pub server: SocketAddr,
    /// Why that side is the server.
    pub server_why: String,
    /// What it carries (`None`: no data seen).
    pub carrier: Option<Carrier>,
    /// Why.
    pub why: String,
    /// Its first packet's time.
    pub first: Timestamp,
    /// Its last packet's time.
    pub last: Timestamp,
    /// Packets, both directions.
    pub packets: u64,
    /// Values (an ENet flow: messages), per direction ([`Direction::index`]).
    pub values: [u64; 2],
    /// Frames or datagrams refused, per direction.
    pub refused: [u64; 2],
    /// Gap items, per direction.
    pub gaps: [u64; 2],
    /// Bytes captured but not read as frames (passed over after gaps, cut frames), per
    /// direction.
    pub skipped_bytes: [u64; 2],
    /// Payload bytes of a flow not read ([`Carrier::Other`]), both directions.
    pub ignored_bytes: u64,
    /// UDP datagrams per direction (TCP: see [`FlowInfo::tcp`]).
    pub datagrams: [u64; 2],
    /// TCP counters per direction.
    pub tcp: [HalfStats; 2],
    /// Whether it was evicted.
    pub evicted: bool,
    /// ENet counters per direction (an ENet flow).
    pub enet: [EnetStats; 2],
    /// The client's CONNECT (an ENet flow whose CONNECT was captured).
    pub connect: Option<Connect>,
    /// The Godot version its values and messages are read as.
    pub version: Version,
    /// Why ([`Config::detect_version`]: the payload that told, or that none did).
    pub version_why: String,
}

/// Counts over the whole capture: nothing is dropped without being counted here.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Totals {
    /// Packets in the file.
    pub packets: u64,
    /// Packets not read, per reason.
    pub skipped: BTreeMap<Skip, u64>,
    /// IP fragments dropped (their datagram never completed within the limits, or was
    /// dropped for overlapping fragments; duplicates).
    pub fragments_dropped: u64,
    /// Flows seen.
    pub flows: u64,
    /// Flows evicted.
    pub evicted: u64,
    /// Finished flows whose record was not kept ([`Config::max_flow_records`]).
    pub flows_not_kept: u64,
    /// Where the file could not be read further (a truncated or damaged file).
    pub file_error: Option<FileError>,
}

type Endpoint = (IpAddr, u16);
/// A flow's 5-tuple as it is looked up, once a packet: the lower endpoint's address and the
/// higher one's, as their bits (integers compare in a few instructions where `IpAddr`s take
/// dozens), then in one word the protocol (bit 32) and whether the addresses are IPv6 (bit
/// 33), the lower endpoint's port (bits 16-31) and the higher one's (bits 0-15): three words
/// to hash and compare.
type FlowKey = (u128, u128, u64);

struct Flow<'a> {
    info: FlowInfo,
    /// Per direction: TCP reassembly (TCP flows only).
    halves: [Half<'a>; 2],
    /// Per direction: frames (a TCP flow carrying `put_var`).
    framers: Option<[Framer; 2]>,
    /// Per direction: WebSocket (a TCP flow carrying it).
    ws: Option<Box<[WsHalf; 2]>>,
    /// Per direction: ENet (a flow carrying ENet).
    enet: Option<Box<[EnetHalf; 2]>>,
    /// A SYN was seen (else each direction starts mid-stream).
    handshake: bool,
    held: usize,
    /// Payloads looked at to tell its version.
    looks: Looks,
    /// Whether the client is the key's lower endpoint (a packet's direction, told without
    /// comparing addresses).
    client_low: bool,
}

/// The items of a capture ([`Item`]), as an iterator; [`Reader::flows`] and
/// [`Reader::totals`] say what was seen.
pub struct Reader<'a> {
    packets: Packets<'a>,
    config: Config,
    fragments: Fragments,
    /// The live flows by 5-tuple: a hash map seeded at random ([`KeyState`]), looked up once
    /// a packet ...
    live: HashMap<FlowKey, Flow<'a>, KeyState>,
    /// ... and their keys by number, the oldest first (for eviction and the end; touched
    /// only when a flow starts or ends).
    order: BTreeMap<FlowId, FlowKey>,
    done: Vec<FlowInfo>,
    queue: VecDeque<Item<'a>>,
    events: Vec<(Direction, Event<'a>)>,
    /// What a TCP direction or an ENet direction gave for one packet (kept to reuse their
    /// room from packet to packet).
    tcp_out: Vec<Event<'a>>,
    enet_out: Vec<enet::Out<'a>>,
    totals: Totals,
    held: usize,
    finished: bool,
}

impl fmt::Debug for Reader<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reader").field("totals", &self.totals).finish_non_exhaustive()
    }
}

impl<'a> Reader<'a> {
    /// Reads the capture `file` (pcap or pcapng) with `config`. O(1): packets are read as
    /// items are asked for.
    pub fn new(file: &'a [u8], config: Config) -> Result<Self, FileError> {
        Ok(Reader {
            packets: file::packets(file)?,
            fragments: Fragments::new(config.fragments),
            config,
            live: HashMap::with_hasher(KeyState::default()),
            order: BTreeMap::new(),
            done: Vec::new(),
            queue: VecDeque::new(),
            events: Vec::new(),
            tcp_out: Vec::new(),
            enet_out: Vec::new(),
            totals: Totals::default(),
            held: 0,
            finished: false,
        })
    }

    /// The counts so far (final once the iterator has ended).
    pub fn totals(&self) -> &Totals {
        &self.totals
    }

    /// Every flow seen so far (finished ones up to [`Config::max_flow_records`]), by number.
    pub fn flows(&self) -> Vec<FlowInfo> {
        let mut all: Vec<FlowInfo> = self.done.clone();
        all.extend(self.live.values().map(|flow| flow.info.clone()));
        all.sort_by_key(|info| info.id);
        all
    }

    fn skip(&mut self, why: Skip) {
        let count = self.totals.skipped.entry(why).or_insert(0);
        *count = count.saturating_add(1);
    }

    fn packet(&mut self, raw: RawPacket<'a>) {
        self.totals.packets = self.totals.packets.saturating_add(1);
        let transport = match net::transport(raw.link, raw.data, &mut self.fragments) {
            Ok(transport) => transport,
            Err(why) => {
                self.totals.fragments_dropped = self.fragments.dropped;
                self.skip(why);
                return;
            }
        };
        self.transport(raw.time, transport);
    }

    /// A packet read down to TCP or UDP (by [`Reader::packet`], or by the caller: the sharded
    /// reader, which counts the packets itself).
    pub(crate) fn transport(&mut self, time: Timestamp, transport: Transport<'a>) {
        let (key, src_low) = normalize(&transport);
        let tcp = transport.tcp;
        // A new SYN on a flow whose connection ended starts a new flow (looked up again only
        // for a SYN).
        if tcp.syn && !tcp.ack {
            let ended = self.live.get(&key).filter(|f| f.halves.iter().any(Half::ended));
            if let Some(id) = ended.map(|f| f.info.id) {
                self.retire(id, time, false);
            }
        }
        // One lookup a packet: the flow by its 5-tuple (created when it is new).
        let flow = match self.live.get_mut(&key) {
            Some(flow) => flow,
            None => {
                self.create(key, src_low, &transport, time);
                match self.live.get_mut(&key) {
                    Some(flow) => flow,
                    None => return,
                }
            }
        };
        let config = &self.config;
        let queue = &mut self.queue;
        let events = &mut self.events;
        let (tcp_out, enet_out) = (&mut self.tcp_out, &mut self.enet_out);
        flow.info.packets = flow.info.packets.saturating_add(1);
        flow.info.last = time;
        let direction =
            if src_low == flow.client_low { Direction::ToServer } else { Direction::ToClient };
        let before = flow.held;
        match transport.protocol {
            Protocol::Udp => udp(flow, config, direction, time, transport.payload, enet_out, queue),
            Protocol::Tcp => {
                tcp_segment(flow, config, direction, time, &transport, tcp_out, events, queue)
            }
        }
        // What each protocol holds: a UDP flow's ENet directions (its TCP halves, framers and
        // WebSocket directions are never fed), a TCP flow's halves, framers or WebSocket
        // directions (it has no ENet).
        flow.held = match transport.protocol {
            Protocol::Udp => flow.enet.as_ref().map_or(0, |e| {
                let [to_server, to_client] = &**e;
                to_server.held().saturating_add(to_client.held())
            }),
            Protocol::Tcp => flow.halves.iter().map(Half::held).sum::<usize>().saturating_add(
                flow.framers
                    .as_ref()
                    .map_or(0, |f| f.iter().map(Framer::held).sum::<usize>())
                    .saturating_add(
                        flow.ws.as_ref().map_or(0, |w| w.iter().map(WsHalf::held).sum()),
                    ),
            ),
        };
        self.held = self.held.saturating_sub(before).saturating_add(flow.held);
        while self.held > self.config.max_held_bytes {
            let Some((&oldest, _)) = self.order.first_key_value() else { break };
            self.retire(oldest, time, true);
        }
    }

    /// A new flow of 5-tuple `key` (`src_low`: the packet's source is the key's lower
    /// endpoint).
    fn create(&mut self, key: FlowKey, src_low: bool, transport: &Transport<'_>, time: Timestamp) {
        while self.live.len() >= self.config.max_flows.max(1) {
            let Some((&oldest, _)) = self.order.first_key_value() else { break };
            self.retire(oldest, time, true);
        }
        let id = FlowId(self.totals.flows);
        self.totals.flows = self.totals.flows.saturating_add(1);
        let (client, server, server_why) = sides(transport, &self.config.ports);
        // The client is the lower endpoint when it is the source and the source is lower, or
        // it is the destination and the destination is lower.
        let client_low = (client == transport.src) == src_low;
        let info = FlowInfo {
            id,
            protocol: transport.protocol,
            client: SocketAddr::from(client),
            server: SocketAddr::from(server),
            server_why,
            carrier: None,
            why: String::new(),
            first: time,
            last: time,
            packets: 0,
            values: [0; 2],
            refused: [0; 2],
            gaps: [0; 2],
            skipped_bytes: [0; 2],
            ignored_bytes: 0,
            datagrams: [0; 2],
            tcp: [HalfStats::default(); 2],
            evicted: false,
            enet: [EnetStats::default(); 2],
            connect: None,
            version: self.config.options.version(),
            version_why: if self.config.detect_version {
                "the default: nothing told the versions apart yet".into()
            } else {
                "given".into()
            },
        };
        let flow = Flow {
            info,
            halves: [Half::default(), Half::default()],
            framers: None,
            ws: None,
            enet: None,
            handshake: transport.tcp.syn,
            held: 0,
            looks: Looks { count: 0, done: !self.config.detect_version },
            client_low,
        };
        self.live.insert(key, flow);
        self.order.insert(id, key);
        crate::work(1);
    }

    /// Ends a flow: what it holds is reported, its record kept.
    fn retire(&mut self, id: FlowId, time: Timestamp, evicted: bool) {
        let Some(key) = self.order.remove(&id) else { return };
        let Some(mut flow) = self.live.remove(&key) else { return };
        self.held = self.held.saturating_sub(flow.held);
        for direction in [Direction::ToServer, Direction::ToClient] {
            if let Some(half) = flow.halves.get_mut(direction.index()) {
                let mut out = Vec::new();
                half.finish(&mut out);
                self.events.extend(out.into_iter().map(|e| (direction, e)));
            }
        }
        route(&mut flow, &self.config, time, &mut self.events, &mut self.queue);
        if let Some(halves) = flow.enet.as_mut() {
            for (direction, half) in
                [Direction::ToServer, Direction::ToClient].into_iter().zip(halves.iter_mut())
            {
                let mut out = Vec::new();
                half.finish(&mut out);
                for o in out {
                    push_enet(&mut flow.info, &mut flow.looks, direction, time, o, &mut self.queue);
                }
            }
            let [to_server, to_client] = &**halves;
            flow.info.enet = [to_server.stats, to_client.stats];
        }
        for (direction, half) in [Direction::ToServer, Direction::ToClient].iter().zip(&flow.halves)
        {
            if let Some(slot) = flow.info.tcp.get_mut(direction.index()) {
                *slot = half.stats;
            }
        }
        if evicted {
            flow.info.evicted = true;
            self.totals.evicted = self.totals.evicted.saturating_add(1);
            self.queue.push_back(Item::Evicted { flow: id, time });
        }
        if self.done.len() < self.config.max_flow_records {
            self.done.push(flow.info);
        } else {
            self.totals.flows_not_kept = self.totals.flows_not_kept.saturating_add(1);
        }
        crate::work(1);
    }
}

/// What the sharded reader (`shard.rs`) asks of the reader of one shard: it feeds it packets
/// ([`Reader::transport`]) and takes what they gave.
impl<'a> Reader<'a> {
    /// The end of the capture: every flow still followed is finished, in number order.
    pub(crate) fn end(&mut self) {
        let ids: Vec<(FlowId, FlowKey)> = self.order.iter().map(|(id, key)| (*id, *key)).collect();
        let time = self.live.values().map(|f| f.info.last).max().unwrap_or_default();
        for (id, key) in ids {
            let last = self.live.get(&key).map_or(time, |flow| flow.info.last);
            self.retire(id, last, false);
        }
    }

    /// The items queued so far, taken.
    pub(crate) fn take_items(&mut self) -> std::collections::vec_deque::Drain<'_, Item<'a>> {
        self.queue.drain(..)
    }

    /// The records of the flows finished so far, taken.
    pub(crate) fn take_done(&mut self) -> Vec<FlowInfo> {
        std::mem::take(&mut self.done)
    }

    /// The flows still followed (in no particular order).
    pub(crate) fn live_flows(&self) -> impl Iterator<Item = &FlowInfo> {
        self.live.values().map(|flow| &flow.info)
    }
}

impl<'a> Iterator for Reader<'a> {
    type Item = Item<'a>;

    fn next(&mut self) -> Option<Item<'a>> {
        // Most calls hand out an item already read: kept small, the packets read out of line.
        match self.queue.pop_front() {
            Some(item) => Some(item),
            None => self.read_on(),
        }
    }
}

impl<'a> Reader<'a> {
    /// Reads packets until one gives an item, or the capture ends.
    #[inline(never)]
    fn read_on(&mut self) -> Option<Item<'a>> {
        loop {
            if let Some(item) = self.queue.pop_front() {
                return Some(item);
            }
            if self.finished {
                return None;
            }
            match self.packets.next() {
                Some(Ok(raw)) => self.packet(raw),
                Some(Err(error)) => self.totals.file_error = Some(error),
                None => {
                    self.end();
                    self.totals.fragments_dropped = self.fragments.dropped;
                    self.finished = true;
                }
            }
        }
    }
}

/// The hash of flow keys and numbers: `foldhash`'s, seeded at random per process, so that
/// addresses chosen by whoever wrote the capture cannot aim at one bucket without knowing the
/// seed; a few instructions a word, where SipHash takes hundreds for a 5-tuple.
type KeyState = foldhash::fast::RandomState;
/// A packet's flow key, and whether its source is the key's lower endpoint.
fn normalize(t: &Transport<'_>) -> (FlowKey, bool) {
    fn bits(ip: IpAddr) -> (u128, u8) {
        match ip {
            IpAddr::V4(v4) => (u128::from(u32::from(v4)), 0),
            IpAddr::V6(v6) => (u128::from(v6), 2),
        }
    }
    let ((src, v6), (dst, _)) = (bits(t.src.0), bits(t.dst.0));
    let kind = u64::from(v6 | u8::from(t.protocol == Protocol::Udp)) << 32;
    let ports = |low: u16, high: u16| kind | u64::from(low) << 16 | u64::from(high);
    if (src, t.src.1) <= (dst, t.dst.1) {
        ((src, dst, ports(t.src.1, t.dst.1)), true)
    } else {
        ((dst, src, ports(t.dst.1, t.src.1)), false)
    }
}

/// (client, server, why) of a flow's first packet.
fn sides(t: &Transport<'_>, ports: &BTreeMap<u16, Carrier>) -> (Endpoint, Endpoint, String) {
    if t.protocol == Protocol::Tcp && t.tcp.syn {
        return if t.tcp.ack {
            (t.dst, t.src, "it answered the SYN (SYN-ACK)".into())
        } else {
            (t.src, t.dst, "the other side sent the SYN".into())
        };
    }
    let mid = if t.protocol == Protocol::Tcp { "no handshake captured: " } else { "" };
    if ports.contains_key(&t.dst.1) {
        return (t.src, t.dst, format!("{mid}its port {} was given", t.dst.1));
    }
    if ports.contains_key(&t.src.1) {
        return (t.dst, t.src, format!("{mid}its port {} was given", t.src.1));
    }
    if t.src.1 < t.dst.1 {
        (t.dst, t.src, format!("{mid}the lower port"))
    } else {
        (t.src, t.dst, format!("{mid}the lower port"))
    }
}

/// The override for a flow's ports, if any (the server's port first).
fn given(info: &FlowInfo, ports: &BTreeMap<u16, Carrier>) -> Option<(u16, Carrier)> {
    [info.server.port(), info.client.port()]
        .into_iter()
        .find_map(|port| ports.get(&port).map(|c| (port, *c)))
}

fn add(counter: &mut [u64; 2], direction: Direction, n: u64) {
    if let Some(slot) = counter.get_mut(direction.index()) {
        *slot = slot.saturating_add(n);
    }
}

fn udp<'a>(
    flow: &mut Flow<'a>,
    config: &Config,
    mut direction: Direction,
    time: Timestamp,
    payload: Cow<'a, [u8]>,
    enet_out: &mut Vec<enet::Out<'a>>,
    queue: &mut VecDeque<Item<'a>>,
) {
    if flow.info.carrier.is_none() {
        let connect = enet::is_connect(&payload);
        let given = given(&flow.info, &config.ports);
        let why = match (given, connect) {
            (Some((port, Carrier::Enet)), _) => Some(format!("port {port} given as ENet")),
            (None, Some(c)) => Some(format!(
                "the first datagram is an ENet CONNECT (connect id {:#x}, data {}, {} channels)",
                c.connect_id, c.data, c.channels
            )),
            _ => None,
        };
        if let Some(why) = why {
            flow.info.carrier = Some(Carrier::Enet);
            flow.info.why = why;
            flow.enet = Some(Box::default());
            // The side the CONNECT was sent to is the server.
            if connect.is_some() {
                if direction == Direction::ToClient {
                    std::mem::swap(&mut flow.info.client, &mut flow.info.server);
                    flow.client_low = !flow.client_low;
                    direction = Direction::ToServer;
                }
                flow.info.server_why = "the CONNECT was sent to it".into();
            }
        }
    }
    if flow.info.carrier == Some(Carrier::Enet) {
        add(&mut flow.info.datagrams, direction, 1);
        enet_datagram(flow, config, direction, time, &payload, enet_out, queue);
        return;
    }
    let number = flow.info.datagrams.get(direction.index()).copied().unwrap_or(0);
    add(&mut flow.info.datagrams, direction, 1);
    if flow.info.carrier != Some(Carrier::Other) && flow.looks.next() {
        versions::settle(&mut flow.info, &mut flow.looks, versions::of_value(&payload));
    }
    let options = config.options.with_version(flow.info.version);
    let verdict = gdvariant::validate(&payload, options);
    if flow.info.carrier.is_none() {
        let (carrier, why) = match given(&flow.info, &config.ports) {
            Some((port, Carrier::Datagrams)) => (Carrier::Datagrams, format!("port {port} given")),
            Some((port, _)) => (Carrier::Other, format!("port {port} given as not UDP values")),
            None => match &verdict {
                Ok(()) => (
                    Carrier::Datagrams,
                    format!("the first datagram ({}) is a value Godot accepts", direction.name()),
                ),
                Err(error) => (
                    Carrier::Other,
                    format!("the first datagram ({}) is refused: {error}", direction.name()),
                ),
            },
        };
        flow.info.carrier = Some(carrier);
        flow.info.why = why;
    }
    if flow.info.carrier != Some(Carrier::Datagrams) {
        flow.info.ignored_bytes = flow.info.ignored_bytes.saturating_add(payload.len() as u64);
        return;
    }
    match verdict {
        Ok(()) => {
            add(&mut flow.info.values, direction, 1);
            queue.push_back(Item::Value(Value {
                flow: flow.info.id,
                direction,
                time,
                offset: number,
                bytes: payload,
                options,
            }));
        }
        Err(error) => {
            add(&mut flow.info.refused, direction, 1);
            queue.push_back(Item::Refused(Refused {
                flow: flow.info.id,
                direction,
                time,
                offset: number,
                bytes: payload,
                refusal: Refusal::Datagram(error),
            }));
        }
    }
}

#[allow(clippy::ptr_arg)] // the Cow says whether messages may borrow the capture
fn enet_datagram<'a>(
    flow: &mut Flow<'a>,
    config: &Config,
    direction: Direction,
    time: Timestamp,
    payload: &Cow<'a, [u8]>,
    out: &mut Vec<enet::Out<'a>>,
    queue: &mut VecDeque<Item<'a>>,
) {
    let Some(halves) = flow.enet.as_mut() else { return };
    let Some(half) = halves.get_mut(direction.index()) else { return };
    out.clear();
    half.datagram(payload, config.enet, out);
    if let Some(slot) = flow.info.enet.get_mut(direction.index()) {
        *slot = half.stats;
    }
    for o in out.drain(..) {
        if let enet::Out::Connect(connect) = o {
            if direction == Direction::ToServer {
                flow.info.connect = Some(connect);
            }
            continue;
        }
        push_enet(&mut flow.info, &mut flow.looks, direction, time, o, queue);
    }
}

/// Hands out what an ENet direction gave: a message or a refusal.
#[inline(always)]
fn push_enet<'a>(
    info: &mut FlowInfo,
    looks: &mut Looks,
    direction: Direction,
    time: Timestamp,
    out: enet::Out<'a>,
    queue: &mut VecDeque<Item<'a>>,
) {
    let offset = info.values.get(direction.index()).copied().unwrap_or(0);
    match out {
        enet::Out::Message { channel, transfer, bytes, fragments } => {
            if looks.next() {
                let client = info.connect.map(|c| c.data);
                let told = versions::of_enet(direction, channel, &bytes, client)
                    .unwrap_or_else(|| (info.version, versions::NEITHER.into()));
                versions::settle(info, looks, Some(told));
            }
            add(&mut info.values, direction, 1);
            queue.push_back(Item::Enet(EnetMessage {
                flow: info.id,
                direction,
                time,
                offset,
                channel,
                transfer,
                fragments,
                client_id: info.connect.map(|c| c.data),
                version: info.version,
                bytes,
            }));
        }
        enet::Out::Refused(error) => {
            add(&mut info.refused, direction, 1);
            queue.push_back(Item::Refused(Refused {
                flow: info.id,
                direction,
                time,
                offset,
                bytes: Cow::Borrowed(&[]),
                refusal: Refusal::Enet(error),
            }));
        }
        enet::Out::Connect(_) => {}
    }
}

#[allow(clippy::too_many_arguments)] // the reader's buffers, reused from packet to packet
fn tcp_segment<'a>(
    flow: &mut Flow<'a>,
    config: &Config,
    direction: Direction,
    time: Timestamp,
    t: &Transport<'a>,
    out: &mut Vec<Event<'a>>,
    events: &mut Vec<(Direction, Event<'a>)>,
    queue: &mut VecDeque<Item<'a>>,
) {
    let index = direction.index();
    if t.tcp.rst {
        for (d, half) in
            [Direction::ToServer, Direction::ToClient].into_iter().zip(&mut flow.halves)
        {
            let mut finished = Vec::new();
            half.finish(&mut finished);
            events.extend(finished.into_iter().map(|e| (d, e)));
        }
    } else if let Some(half) = flow.halves.get_mut(index) {
        let mut seq = t.tcp.seq;
        if t.tcp.syn {
            half.syn(seq);
            seq = seq.wrapping_add(1);
        }
        half.segment(seq, t.payload.clone(), t.tcp.fin, config.tcp, out);
        events.extend(out.drain(..).map(|e| (direction, e)));
    }
    route(flow, config, time, events, queue);
    for (d, half) in [Direction::ToServer, Direction::ToClient].iter().zip(&flow.halves) {
        if let Some(slot) = flow.info.tcp.get_mut(d.index()) {
            *slot = half.stats;
        }
    }
}

/// Decides what a TCP flow carries on its first data.
fn detect(flow: &mut Flow<'_>, config: &Config, direction: Direction, data: &[u8]) {
    let (carrier, why) = match given(&flow.info, &config.ports) {
        Some((port, Carrier::PutVar)) => (Carrier::PutVar, format!("port {port} given")),
        Some((port, Carrier::WebSocket)) => (Carrier::WebSocket, format!("port {port} given")),
        Some((port, _)) => (Carrier::Other, format!("port {port} given as not put_var")),
        None => match websocket::detect(direction, data) {
            Some(why) => (Carrier::WebSocket, why),
            None => detect_put_var(config, direction, data),
        },
    };
    flow.info.carrier = Some(carrier);
    flow.info.why = why;
    let options = config.options.with_version(flow.info.version);
    if carrier == Carrier::PutVar {
        let framer = || {
            if flow.handshake {
                Framer::new(config.prefix, options)
            } else {
                Framer::mid_stream(config.prefix, options)
            }
        };
        flow.framers = Some([framer(), framer()]);
    }
    if carrier == Carrier::WebSocket {
        let half = |side| {
            let (limits, raw) = (config.websocket, config.websocket_raw);
            WsHalf::new(side, limits, options, raw, !flow.handshake)
        };
        flow.ws = Some(Box::new([half(Direction::ToServer), half(Direction::ToClient)]));
    }
}

fn detect_put_var(config: &Config, direction: Direction, data: &[u8]) -> (Carrier, String) {
    let first = direction.name();
    let Some(prefix) = data.get(..4).and_then(|b| <[u8; 4]>::try_from(b).ok()) else {
        return (Carrier::Other, format!("the first data ({first}) is shorter than a prefix"));
    };
    let length = match config.prefix.byte_order() {
        gdvariant::framing::ByteOrder::BigEndian => u32::from_be_bytes(prefix),
        _ => u32::from_le_bytes(prefix),
    };
    if length == 0 || length > config.prefix.max_frame_size() {
        return (
            Carrier::Other,
            format!("the first data ({first}) starts with no length prefix ({length})"),
        );
    }
    // Detecting the version: either version's type ids (named as the default's where it has
    // them; Godot 4's include Godot 3's).
    let default = config.options.version();
    let version = |id: u8| match VariantType::from_id(default, u32::from(id)) {
        None if config.detect_version => Version::Godot4,
        _ => default,
    };
    match data.get(4).copied() {
        Some(id) => match VariantType::from_id(version(id), u32::from(id)) {
            Some(ty) => (
                Carrier::PutVar,
                format!(
                    "the first data ({first}) starts with a length prefix ({length}) and a {}",
                    ty.name(version(id))
                ),
            ),
            None => (
                Carrier::Other,
                format!("the first data ({first}) has a length prefix but no type id ({id})"),
            ),
        },
        None => (
            Carrier::PutVar,
            format!("the first data ({first}) starts with a length prefix ({length})"),
        ),
    }
}

/// Hands a TCP flow's events to its framers (deciding what the flow carries on its first
/// data).
fn route<'a>(
    flow: &mut Flow<'a>,
    config: &Config,
    time: Timestamp,
    events: &mut Vec<(Direction, Event<'a>)>,
    queue: &mut VecDeque<Item<'a>>,
) {
    for (direction, event) in events.drain(..) {
        if flow.info.carrier.is_none() {
            if let Event::Data { data, .. } = &event {
                detect(flow, config, direction, data);
            }
        }
        let ctx = Context { flow: flow.info.id, direction, time };
        if let Some(half) = flow.ws.as_mut().and_then(|ws| ws.get_mut(direction.index())) {
            let start = queue.len();
            let passed = match event {
                Event::Data { offset, data, .. } => half.data(offset, data, ctx, queue),
                Event::Gap { offset, missing } => {
                    half.gap(offset, missing, ctx, queue);
                    0
                }
                Event::End => {
                    half.end(ctx, queue);
                    0
                }
            };
            add(&mut flow.info.skipped_bytes, direction, passed);
            settle_stream(flow, config, queue, start);
            tally(&mut flow.info, direction, queue, start);
            continue;
        }
        let Some(framers) = flow.framers.as_mut() else {
            if let Event::Data { data, .. } = &event {
                flow.info.ignored_bytes = flow.info.ignored_bytes.saturating_add(data.len() as u64);
            }
            continue;
        };
        let Some(framer) = framers.get_mut(direction.index()) else { continue };
        let start = queue.len();
        match event {
            Event::Data { offset, data, segment_start } => {
                framer.data(offset, data, segment_start, ctx, queue)
            }
            Event::Gap { offset, missing } => framer.gap(offset, missing, ctx, queue),
            Event::End => framer.end(ctx, queue),
        }
        settle_stream(flow, config, queue, start);
        tally(&mut flow.info, direction, queue, start);
    }
}

/// Counts the items from `start` on in the flow's record.
fn tally(info: &mut FlowInfo, direction: Direction, queue: &VecDeque<Item<'_>>, start: usize) {
    for item in queue.range(start..) {
        match item {
            Item::Value(_) => add(&mut info.values, direction, 1),
            Item::Refused(_) => add(&mut info.refused, direction, 1),
            Item::Gap(gap) => {
                add(&mut info.gaps, direction, 1);
                add(&mut info.skipped_bytes, direction, gap.skipped);
            }
            Item::Cut(cut) => add(&mut info.skipped_bytes, direction, cut.held as u64),
            Item::WebSocket(ws) => match &ws.event {
                crate::WsEvent::Binary(_) => add(&mut info.values, direction, 1),
                crate::WsEvent::Error(_) => add(&mut info.refused, direction, 1),
                _ => {}
            },
            Item::Evicted { .. } | Item::Enet(_) => {}
        }
    }
}

/// Looks at a TCP flow's new items (from `start`) for its version while it is not told; once
/// told, its framers read on with it and the items from the one that told are read again.
fn settle_stream(
    flow: &mut Flow<'_>,
    config: &Config,
    queue: &mut VecDeque<Item<'_>>,
    start: usize,
) {
    let Some(index) =
        versions::look(&mut flow.info, &mut flow.looks, queue, start, flow.ws.is_some())
    else {
        return;
    };
    let options = config.options.with_version(flow.info.version);
    if let Some(framers) = flow.framers.as_mut() {
        framers.iter_mut().for_each(|framer| framer.set_options(options));
    }
    if let Some(halves) = flow.ws.as_mut() {
        halves.iter_mut().for_each(|half| half.set_options(options));
    }
    let prefix = flow.framers.is_some().then_some(config.prefix);
    for item in queue.range_mut(index..) {
        versions::reread(item, options, prefix);
    }
}
