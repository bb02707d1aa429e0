//! From a captured frame to a TCP segment or UDP datagram: the link header (Ethernet with VLAN
//! tags, Linux SLL and SLL2, raw IP, BSD loopback), then IPv4 or IPv6, by `etherparse`; the
//! common case (Ethernet or raw IPv4, no IP options, not fragmented, TCP or UDP) is read
//! directly, with the same result. The fragments of both IP versions are put together here,
//! within [`FragmentLimits`], as a Linux receiver does (RFC 8200, RFC 5722 with errata 3089,
//! Linux's `inet_frag_queue_insert`): a fragment within a run already held (a fragment and
//! those received after it that continued it at the end of everything held) is a duplicate,
//! dropped alone (the first received wins); a fragment overlapping what is held otherwise, or
//! empty, drops its whole datagram. O(1) per packet but a fragment's copy (O(fragment) plus
//! O(fragments held of its datagram, at most [`FragmentLimits::max_fragments`])) and a
//! completed datagram's assembly (O(datagram)).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr};

use etherparse::{
    EtherType, Ethernet2Slice, IpNumber, Ipv4Slice, Ipv6ExtensionSlice, Ipv6Slice,
    LinuxSllProtocolType, LinuxSllSlice, SingleVlanSlice, TcpSlice, UdpSlice,
};

/// Why a packet carries nothing this crate reads (counted per reason, never silently).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Skip {
    /// A link type this crate does not read.
    LinkType,
    /// The link header is cut short or malformed.
    BadLink,
    /// Not IP (ARP, LLDP, ...).
    NotIp,
    /// The IP header is malformed, or the packet was captured shorter than it was sent
    /// (a small snap length).
    BadIp,
    /// Neither TCP nor UDP (ICMP, ...).
    OtherProtocol,
    /// The TCP or UDP header is malformed.
    BadTransport,
    /// An IPv4 or IPv6 fragment kept until its datagram completes (not an error: counted
    /// only).
    Fragment,
    /// Fragments dropped: their datagram never completed within the limits, contradicted its
    /// own length or had overlapping (or empty) fragments; or the fragment repeated bytes
    /// already held (a duplicate), or (IPv6) was not the last and not a multiple of 8 bytes
    /// long.
    FragmentsDropped,
}

impl Skip {
    /// A short name, for counters.
    pub const fn name(self) -> &'static str {
        match self {
            Skip::LinkType => "unknown_link_type",
            Skip::BadLink => "bad_link_header",
            Skip::NotIp => "not_ip",
            Skip::BadIp => "bad_or_truncated_ip",
            Skip::OtherProtocol => "not_tcp_or_udp",
            Skip::BadTransport => "bad_tcp_or_udp_header",
            Skip::Fragment => "ip_fragment_held",
            Skip::FragmentsDropped => "ip_fragments_dropped",
        }
    }
}

/// TCP or UDP.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Protocol {
    /// TCP.
    Tcp,
    /// UDP.
    Udp,
}

impl Protocol {
    /// `tcp` or `udp`.
    pub const fn name(self) -> &'static str {
        match self {
            Protocol::Tcp => "tcp",
            Protocol::Udp => "udp",
        }
    }
}

/// What the TCP header says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcpFlags {
    /// SYN.
    pub syn: bool,
    /// ACK.
    pub ack: bool,
    /// FIN.
    pub fin: bool,
    /// RST.
    pub rst: bool,
    /// The sequence number.
    pub seq: u32,
}

/// A TCP segment or UDP datagram.
#[derive(Clone, Debug)]
pub struct Transport<'a> {
    /// TCP or UDP.
    pub protocol: Protocol,
    /// The sender's address and port.
    pub src: (IpAddr, u16),
    /// The receiver's address and port.
    pub dst: (IpAddr, u16),
    /// The TCP header's flags and sequence number (all clear for UDP).
    pub tcp: TcpFlags,
    /// The payload: borrowed from the capture, owned when IP fragments were put together.
    pub payload: Cow<'a, [u8]>,
}

/// The IP packet inside a link-layer frame.
fn ip_of(link: u32, data: &[u8]) -> Result<&[u8], Skip> {
    match link {
        1 => {
            let eth = Ethernet2Slice::from_slice_without_fcs(data).map_err(|_| Skip::BadLink)?;
            ether(eth.ether_type(), eth.payload_slice())
        }
        113 => {
            let sll = LinuxSllSlice::from_slice(data).map_err(|_| Skip::BadLink)?;
            match sll.protocol_type() {
                LinuxSllProtocolType::EtherType(t) => ether(t, sll.payload_slice()),
                _ => Err(Skip::NotIp),
            }
        }
        276 => {
            // SLL2: protocol (u16, big-endian), reserved, interface index, ARPHRD, packet type,
            // address length, 8 address bytes: 20 bytes.
            let header = data.get(..20).ok_or(Skip::BadLink)?;
            let protocol = header
                .get(..2)
                .and_then(|b| <[u8; 2]>::try_from(b).ok())
                .map(u16::from_be_bytes)
                .ok_or(Skip::BadLink)?;
            ether(EtherType(protocol), data.get(20..).unwrap_or_default())
        }
        // null (host byte order) and loop (network order): a 4-byte address family; the IP
        // version nibble says the rest.
        0 | 108 => ip_version(data.get(4..).ok_or(Skip::BadLink)?),
        12 | 14 | 101 | 228 | 229 => ip_version(data),
        _ => Err(Skip::LinkType),
    }
}

fn ip_version(data: &[u8]) -> Result<&[u8], Skip> {
    match data.first().map(|b| b >> 4) {
        Some(4 | 6) => Ok(data),
        Some(_) => Err(Skip::NotIp),
        None => Err(Skip::BadLink),
    }
}

/// Most VLAN tags read in front of the IP packet.
const MAX_VLAN_TAGS: usize = 4;

fn ether(mut ether_type: EtherType, mut payload: &[u8]) -> Result<&[u8], Skip> {
    for _ in 0..MAX_VLAN_TAGS {
        match ether_type {
            EtherType::IPV4 | EtherType::IPV6 => return ip_version(payload),
            EtherType::VLAN_TAGGED_FRAME
            | EtherType::PROVIDER_BRIDGING
            | EtherType::VLAN_DOUBLE_TAGGED_FRAME => {
                let vlan = SingleVlanSlice::from_slice(payload).map_err(|_| Skip::BadLink)?;
                ether_type = vlan.ether_type();
                payload = vlan.payload_slice();
            }
            _ => return Err(Skip::NotIp),
        }
    }
    Err(Skip::BadLink)
}

/// Limits of IP fragment reassembly (IPv4 and IPv6 together).
#[derive(Clone, Copy, Debug)]
pub struct FragmentLimits {
    /// Datagrams being put together at once; the oldest is dropped past it.
    pub max_datagrams: usize,
    /// Bytes held in fragments, all datagrams together; the oldest datagrams are dropped past
    /// it.
    pub max_bytes: usize,
    /// Fragments of one datagram; past it the datagram is dropped.
    pub max_fragments: usize,
}

impl Default for FragmentLimits {
    fn default() -> Self {
        FragmentLimits { max_datagrams: 1024, max_bytes: 8 << 20, max_fragments: 64 }
    }
}

/// What became of a fragment.
#[derive(Debug)]
enum Added {
    /// Its datagram is whole: the payload and its protocol.
    Whole(Vec<u8>, u8),
    /// Kept until its datagram completes.
    Held,
    /// Dropped (with its datagram, or alone).
    Dropped,
}

impl Added {
    /// The whole datagram, or why the packet is not read.
    fn whole(self) -> Result<(Vec<u8>, u8), Skip> {
        match self {
            Added::Whole(bytes, number) => Ok((bytes, number)),
            Added::Held => Err(Skip::Fragment),
            Added::Dropped => Err(Skip::FragmentsDropped),
        }
    }
}

/// Where a fragment goes among the runs held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// A run of its own.
    NewRun,
    /// At the end of the last run.
    Append,
    /// Within one run: a duplicate.
    Duplicate,
    /// Across a run's edge, or empty: the datagram is dropped.
    Overlap,
}

/// Where the fragment `offset..end` goes among `runs`, as Linux's `inet_frag_queue_insert`
/// decides for IPv4 and IPv6 (RFC 5722 with errata 3089: an overlapping fragment drops the
/// datagram, a duplicate only itself). O(runs).
fn place(runs: &[(usize, usize)], offset: usize, end: usize) -> Place {
    crate::work(runs.len());
    if end == offset {
        return Place::Overlap;
    }
    let Some(tail) = runs.iter().map(|run| run.1).max() else { return Place::NewRun };
    if tail < end {
        return match offset.cmp(&tail) {
            std::cmp::Ordering::Less => Place::Overlap,
            std::cmp::Ordering::Equal => Place::Append,
            std::cmp::Ordering::Greater => Place::NewRun,
        };
    }
    for &(start, stop) in runs {
        if end <= start || offset >= stop {
            continue;
        }
        return if offset >= start && end <= stop { Place::Duplicate } else { Place::Overlap };
    }
    Place::NewRun
}

/// Source, destination, protocol (IPv4; 0 for IPv6, whose fragments may differ in it), the
/// identification (IPv4: 16 bits, IPv6: 32).
type FragmentKey = (IpAddr, IpAddr, u8, u32);

#[derive(Debug, Default)]
struct Partial {
    /// (offset, bytes), in arrival order; no two overlap.
    pieces: Vec<(usize, Vec<u8>)>,
    /// The runs of pieces, as Linux keeps them: (start, end), each a piece and the pieces
    /// received after it that continued it at the end of everything held.
    runs: Vec<(usize, usize)>,
    /// The protocol of the payload, from the fragment at offset 0.
    number: Option<u8>,
    /// The datagram's length, known from its last fragment.
    total: Option<usize>,
    bytes: usize,
    /// Its place in the age order.
    age: u64,
}

/// IPv4 and IPv6 datagrams being put together from their fragments.
#[derive(Debug, Default)]
pub struct Fragments {
    limits: FragmentLimits,
    partial: BTreeMap<FragmentKey, Partial>,
    /// Datagrams by age, oldest first.
    order: BTreeMap<u64, FragmentKey>,
    next_age: u64,
    bytes: usize,
    /// Fragments dropped in all.
    pub dropped: u64,
}

impl Fragments {
    /// An empty table with `limits`.
    pub fn new(limits: FragmentLimits) -> Self {
        Fragments { limits, ..Fragments::default() }
    }

    fn drop_datagram(&mut self, key: &FragmentKey) {
        if let Some(partial) = self.partial.remove(key) {
            self.order.remove(&partial.age);
            self.bytes = self.bytes.saturating_sub(partial.bytes);
            self.dropped = self.dropped.saturating_add(partial.pieces.len() as u64);
        }
    }

    /// Adds a fragment of `number`'s payload: the whole datagram's payload and its protocol
    /// (the one the fragment at offset 0 gave) once every byte is there. A fragment within a
    /// run held is dropped alone; one overlapping what is held otherwise drops the datagram
    /// ([`place`]). O(fragment + fragments of the datagram, at most `max_fragments`) per call,
    /// O(datagram) on completion.
    fn add(
        &mut self,
        key: FragmentKey,
        number: u8,
        offset: usize,
        more: bool,
        data: &[u8],
    ) -> Added {
        crate::work(data.len() >> 6);
        let end = offset.saturating_add(data.len());
        if end > 65_535 {
            self.dropped = self.dropped.saturating_add(1);
            return Added::Dropped;
        }
        let place = self.partial.get(&key).map_or(Place::NewRun, |p| place(&p.runs, offset, end));
        match place {
            Place::Duplicate => {
                // Dropped, the datagram kept.
                self.dropped = self.dropped.saturating_add(1);
                return Added::Dropped;
            }
            Place::Overlap => {
                self.drop_datagram(&key);
                self.dropped = self.dropped.saturating_add(1);
                return Added::Dropped;
            }
            Place::NewRun | Place::Append => {}
        }
        if !self.partial.contains_key(&key) {
            while self.partial.len() >= self.limits.max_datagrams.max(1) {
                let Some((_, oldest)) = self.order.first_key_value() else { break };
                let oldest = *oldest;
                self.drop_datagram(&oldest);
            }
            let age = self.next_age;
            self.next_age = self.next_age.saturating_add(1);
            self.order.insert(age, key);
            self.partial.insert(key, Partial { age, ..Partial::default() });
        }
        while self.bytes.saturating_add(data.len()) > self.limits.max_bytes {
            // The oldest other datagram (this one appears once: at most two steps).
            let Some(oldest) = self.order.values().find(|k| **k != key).copied() else { break };
            crate::work(1);
            self.drop_datagram(&oldest);
        }
        let limits = self.limits;
        let Some(partial) = self.partial.get_mut(&key) else { return Added::Dropped };
        let contradicts = match partial.total {
            Some(total) => end > total || (!more && end != total),
            None => !more && partial.pieces.iter().any(|(o, b)| o.saturating_add(b.len()) > end),
        };
        if contradicts || partial.pieces.len() >= limits.max_fragments {
            self.drop_datagram(&key);
            self.dropped = self.dropped.saturating_add(1);
            return Added::Dropped;
        }
        if !more {
            partial.total = Some(end);
        }
        if offset == 0 {
            partial.number = Some(number);
        }
        match partial.runs.iter_mut().max_by_key(|run| run.1) {
            Some(last) if place == Place::Append => last.1 = end,
            _ => partial.runs.push((offset, end)),
        }
        partial.pieces.push((offset, data.to_vec()));
        partial.bytes = partial.bytes.saturating_add(data.len());
        self.bytes = self.bytes.saturating_add(data.len());
        let Some(total) = partial.total else { return Added::Held };
        // Complete when the pieces (which do not overlap) cover 0..total.
        let covered =
            partial.pieces.iter().map(|(_, b)| b.len()).fold(0usize, usize::saturating_add);
        if covered < total {
            return Added::Held;
        }
        let Some(partial) = self.partial.remove(&key) else { return Added::Held };
        self.order.remove(&partial.age);
        self.bytes = self.bytes.saturating_sub(partial.bytes);
        let mut whole = vec![0u8; total];
        crate::work(total >> 6);
        for (offset, bytes) in &partial.pieces {
            if let Some(target) = whole.get_mut(*offset..offset.saturating_add(bytes.len())) {
                target.copy_from_slice(bytes);
            }
        }
        match partial.number {
            Some(number) => Added::Whole(whole, number),
            None => Added::Dropped,
        }
    }
}

/// Reads one captured frame down to its TCP segment or UDP datagram.
pub fn transport<'a>(
    link: u32,
    data: &'a [u8],
    fragments: &mut Fragments,
) -> Result<Transport<'a>, Skip> {
    match plain_ipv4(link, data) {
        Some(transport) => Ok(transport),
        None => general(link, data, fragments),
    }
}

/// The common case read directly, in a few dozen instructions: Ethernet without VLAN tags, or
/// raw IPv4; an IPv4 header without options, not fragmented; a sound TCP or UDP header.
/// `None` for anything else, which [`general`] (`etherparse`) reads; where this reads a packet,
/// [`general`] reads the same (a test compares the two on real and damaged packets).
fn plain_ipv4(link: u32, data: &[u8]) -> Option<Transport<'_>> {
    let ip = match link {
        1 if data.get(12..14)? == [0x08, 0x00] => data.get(14..)?,
        12 | 14 | 101 | 228 => data,
        _ => return None,
    };
    let h: &[u8; 20] = ip.get(..20)?.try_into().ok()?;
    let total = usize::from(u16::from_be_bytes([h[2], h[3]]));
    // Version 4, 5 words (no options); neither more fragments nor an offset.
    if h[0] != 0x45 || total < 20 || u16::from_be_bytes([h[6], h[7]]) & 0x3FFF != 0 {
        return None;
    }
    let body = ip.get(20..total)?;
    let src = IpAddr::V4(Ipv4Addr::new(h[12], h[13], h[14], h[15]));
    let dst = IpAddr::V4(Ipv4Addr::new(h[16], h[17], h[18], h[19]));
    let t: &[u8; 8] = body.get(..8)?.try_into().ok()?;
    let src_port = u16::from_be_bytes([t[0], t[1]]);
    let dst_port = u16::from_be_bytes([t[2], t[3]]);
    match h[9] {
        6 => {
            let t: &[u8; 20] = body.get(..20)?.try_into().ok()?;
            let header_len = usize::from(t[12] >> 4).saturating_mul(4);
            if header_len < 20 {
                return None;
            }
            let payload = body.get(header_len..)?;
            let flags = t[13];
            Some(Transport {
                protocol: Protocol::Tcp,
                src: (src, src_port),
                dst: (dst, dst_port),
                tcp: TcpFlags {
                    syn: flags & 0x02 != 0,
                    ack: flags & 0x10 != 0,
                    fin: flags & 0x01 != 0,
                    rst: flags & 0x04 != 0,
                    seq: u32::from_be_bytes([t[4], t[5], t[6], t[7]]),
                },
                payload: Cow::Borrowed(payload),
            })
        }
        17 => {
            // The UDP length: 0 means the rest of the IP payload (as etherparse reads it).
            let len = usize::from(u16::from_be_bytes([t[4], t[5]]));
            let payload = match len {
                0 => body.get(8..)?,
                1..8 => return None,
                _ => body.get(8..len)?,
            };
            Some(Transport {
                protocol: Protocol::Udp,
                src: (src, src_port),
                dst: (dst, dst_port),
                tcp: TcpFlags::default(),
                payload: Cow::Borrowed(payload),
            })
        }
        _ => None,
    }
}

/// [`transport`] for every link and IP header `etherparse` reads.
fn general<'a>(
    link: u32,
    data: &'a [u8],
    fragments: &mut Fragments,
) -> Result<Transport<'a>, Skip> {
    let ip = ip_of(link, data)?;
    let (src, dst, number, payload): (IpAddr, IpAddr, IpNumber, Cow<'a, [u8]>) =
        match ip.first().map(|b| b >> 4) {
            Some(4) => {
                let v4 = Ipv4Slice::from_slice(ip).map_err(|_| Skip::BadIp)?;
                let header = v4.header();
                let src = IpAddr::V4(header.source_addr());
                let dst = IpAddr::V4(header.destination_addr());
                let number = v4.payload_ip_number();
                let body = v4.payload().payload;
                if v4.is_payload_fragmented() {
                    let key = (src, dst, number.0, u32::from(header.identification()));
                    let offset = usize::from(header.fragments_offset().value()).saturating_mul(8);
                    let more = header.more_fragments();
                    let (whole, _) = fragments.add(key, number.0, offset, more, body).whole()?;
                    (src, dst, number, Cow::Owned(whole))
                } else {
                    (src, dst, number, Cow::Borrowed(body))
                }
            }
            Some(6) => {
                let v6 = Ipv6Slice::from_slice(ip).map_err(|_| Skip::BadIp)?;
                let header = v6.header();
                let src = IpAddr::V6(header.source_addr());
                let dst = IpAddr::V6(header.destination_addr());
                if v6.is_payload_fragmented() {
                    let (whole, number) = ipv6_fragment(&v6, ip, fragments).whole()?;
                    (src, dst, IpNumber(number), Cow::Owned(whole))
                } else {
                    let payload = v6.payload();
                    (src, dst, payload.ip_number, Cow::Borrowed(payload.payload))
                }
            }
            _ => return Err(Skip::NotIp),
        };
    match number {
        IpNumber::TCP => {
            let (flags, src_port, dst_port, range) = {
                let tcp = TcpSlice::from_slice(&payload).map_err(|_| Skip::BadTransport)?;
                let header_len = tcp.header_slice().len();
                let flags = TcpFlags {
                    syn: tcp.syn(),
                    ack: tcp.ack(),
                    fin: tcp.fin(),
                    rst: tcp.rst(),
                    seq: tcp.sequence_number(),
                };
                (flags, tcp.source_port(), tcp.destination_port(), header_len..payload.len())
            };
            Ok(Transport {
                protocol: Protocol::Tcp,
                src: (src, src_port),
                dst: (dst, dst_port),
                tcp: flags,
                payload: sub(payload, range.start, range.end),
            })
        }
        IpNumber::UDP => {
            let (src_port, dst_port, range) = {
                let udp = UdpSlice::from_slice(&payload).map_err(|_| Skip::BadTransport)?;
                let body = udp.payload().len();
                (udp.source_port(), udp.destination_port(), 8..8usize.saturating_add(body))
            };
            Ok(Transport {
                protocol: Protocol::Udp,
                src: (src, src_port),
                dst: (dst, dst_port),
                tcp: TcpFlags::default(),
                payload: sub(payload, range.start, range.end),
            })
        }
        _ => Err(Skip::OtherProtocol),
    }
}

/// An IPv6 fragment (the bytes after its Fragment header) added to `fragments`: the whole
/// datagram's payload and protocol once complete. A fragment other than the last whose length
/// is not a multiple of 8 is dropped (RFC 8200).
fn ipv6_fragment(v6: &Ipv6Slice<'_>, ip: &[u8], fragments: &mut Fragments) -> Added {
    let header = v6.header();
    // The extension headers up to the Fragment header (the unfragmentable part), then the
    // fragment's data up to the payload length.
    let mut start = 40usize;
    let mut fragment = None;
    for extension in v6.extensions().clone() {
        let length = match &extension {
            Ipv6ExtensionSlice::HopByHop(h) => h.slice().len(),
            Ipv6ExtensionSlice::Routing(h) => h.slice().len(),
            Ipv6ExtensionSlice::DestinationOptions(h) => h.slice().len(),
            Ipv6ExtensionSlice::Authentication(h) => h.slice().len(),
            Ipv6ExtensionSlice::Fragment(h) => h.slice().len(),
        };
        start = start.saturating_add(length);
        if let Ipv6ExtensionSlice::Fragment(h) = extension {
            fragment = Some(h);
            break;
        }
    }
    let stop = 40usize.saturating_add(usize::from(header.payload_length()));
    let (Some(fragment), Some(data)) = (fragment, ip.get(start..stop)) else {
        fragments.dropped = fragments.dropped.saturating_add(1);
        return Added::Dropped;
    };
    let more = fragment.more_fragments();
    if more && data.len() % 8 != 0 {
        fragments.dropped = fragments.dropped.saturating_add(1);
        return Added::Dropped;
    }
    let key = (
        IpAddr::V6(header.source_addr()),
        IpAddr::V6(header.destination_addr()),
        0,
        fragment.identification(),
    );
    let offset = usize::from(fragment.fragment_offset().value()).saturating_mul(8);
    fragments.add(key, fragment.next_header().0, offset, more, data)
}

/// `bytes[from..to]`, still borrowed when `bytes` is; empty when out of range.
pub fn sub(bytes: Cow<'_, [u8]>, from: usize, to: usize) -> Cow<'_, [u8]> {
    match bytes {
        Cow::Borrowed(b) => Cow::Borrowed(b.get(from..to).unwrap_or_default()),
        Cow::Owned(mut v) => {
            v.truncate(to);
            if from > 0 {
                v.drain(..from.min(v.len()));
            }
            Cow::Owned(v)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: &Transport<'_>, b: &Transport<'_>) -> bool {
        (a.protocol, a.src, a.dst, a.tcp, a.payload.as_ref())
            == (b.protocol, b.src, b.dst, b.tcp, b.payload.as_ref())
    }

    /// Every packet of the real captures, and each with one of its first 64 bytes changed in
    /// several ways: where the direct read takes a packet, the general one reads the same.
    #[test]
    fn the_direct_read_agrees_with_the_general_one() {
        let captures: [&[u8]; 3] = [
            include_bytes!("../../corpus/captures/godot3_tcp_put_var.pcap"),
            include_bytes!("../../corpus/captures/godot3_enet_multiplayer.pcap"),
            include_bytes!("../../corpus/captures/godot3_websocket_mp.pcap"),
        ];
        let (mut direct, mut checked) = (0, 0);
        for capture in captures {
            for packet in crate::file::packets(capture).unwrap() {
                let packet = packet.unwrap();
                let mut variants = vec![packet.data.to_vec()];
                for at in 0..packet.data.len().min(64) {
                    for flip in [0x01u8, 0x08, 0x10, 0x40, 0x80, 0xFF] {
                        let mut changed = packet.data.to_vec();
                        changed[at] ^= flip;
                        variants.push(changed);
                    }
                }
                for data in &variants {
                    for link in [packet.link, 101] {
                        let data = if link == packet.link { &data[..] } else { &data[14..] };
                        checked += 1;
                        if let Some(fast) = plain_ipv4(link, data) {
                            direct += 1;
                            let slow = general(link, data, &mut Fragments::default());
                            assert!(slow.as_ref().is_ok_and(|s| same(s, &fast)), "{data:?}");
                        }
                    }
                }
            }
        }
        // Most packets (and many damaged ones) take the direct read.
        assert!(direct > checked / 4, "{direct} of {checked}");
    }
}
