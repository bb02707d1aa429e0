//! The capture file: pcap (both byte orders, micro- and nanosecond timestamps) and pcapng
//! (every section, interface and byte order), read from one byte slice: pcap's 16-byte record
//! headers here, pcapng's blocks by `pcap-parser`'s in-memory parsers. Each packet is handed
//! out with its link type and timestamp; a damaged or truncated file ends the packets with one
//! error.

use std::fmt;

use pcap_parser::PcapError;
use pcap_parser::nom;
use pcap_parser::pcapng::{Block, SectionHeaderBlock};

/// A packet's capture time: nanoseconds since the Unix epoch (negative before it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(pub i64);

impl Timestamp {
    /// Seconds since the Unix epoch, as a float (microseconds are exact up to year 2255).
    pub fn seconds(self) -> f64 {
        self.0 as f64 / 1e9
    }
}

impl fmt::Display for Timestamp {
    /// Seconds and microseconds, `1700000000.123456`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let micros = self.0.div_euclid(1000);
        write!(f, "{}.{:06}", micros.div_euclid(1_000_000), micros.rem_euclid(1_000_000))
    }
}

/// Why a capture file cannot be read (further).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// Neither a pcap nor a pcapng file (its first 4 bytes).
    NotACapture,
    /// The file ends inside a record or block, at byte `offset`: the capture was cut short
    /// (a `tcpdump` still writing, a copy interrupted). The packets before it were read.
    Truncated {
        /// Where the cut record starts.
        offset: usize,
    },
    /// A record or block that cannot be read, at byte `offset` (`what`: pcap-parser's words).
    Damaged {
        /// Where the record starts.
        offset: usize,
        /// What is wrong.
        what: String,
    },
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::NotACapture => f.write_str("not a pcap or pcapng file"),
            FileError::Truncated { offset } => {
                write!(f, "the capture file ends inside the record at byte {offset}")
            }
            FileError::Damaged { offset, what } => {
                write!(f, "damaged record at byte {offset}: {what}")
            }
        }
    }
}

impl std::error::Error for FileError {}

/// One captured packet: where it sits, its link type and time, its captured bytes.
#[derive(Clone, Copy, Debug)]
pub struct RawPacket<'a> {
    /// Its position among the file's packets, from 0.
    pub index: u64,
    /// The link-layer header type (`LINKTYPE_*`: 1 Ethernet, 113 Linux SLL, ...).
    pub link: u32,
    /// When it was captured.
    pub time: Timestamp,
    /// The captured bytes (`caplen`; possibly fewer than were sent).
    pub data: &'a [u8],
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Pcap { big_endian: bool, nanos: bool, link: u32 },
    PcapNg { big_endian: bool },
}

/// One pcapng interface: its link type and timestamp units.
#[derive(Clone, Copy, Debug)]
struct Interface {
    link: u32,
    /// Timestamp units per second.
    resolution: u64,
    /// Seconds added to every timestamp.
    offset: i64,
}

/// Most pcapng interfaces kept per section; packets of later ones are refused.
const MAX_INTERFACES: usize = 256;

/// The packets of a capture file, in file order. O(1) per packet (pcap), or pcap-parser's
/// block parse (pcapng: O(block), which collects a block's options in a `Vec`); nothing is
/// copied.
#[derive(Debug)]
pub struct Packets<'a> {
    file: &'a [u8],
    pos: usize,
    kind: Kind,
    interfaces: Vec<Interface>,
    index: u64,
    done: bool,
}

/// Opens a capture held in memory (a memory-mapped file, say): reads its header. O(1).
pub fn packets(file: &[u8]) -> Result<Packets<'_>, FileError> {
    let magic = file.get(..4).ok_or(FileError::NotACapture)?;
    let kind = match magic {
        [0xd4, 0xc3, 0xb2, 0xa1]
        | [0x4d, 0x3c, 0xb2, 0xa1]
        | [0xa1, 0xb2, 0xc3, 0xd4]
        | [0xa1, 0xb2, 0x3c, 0x4d] => {
            let header = file.get(..24).ok_or(FileError::Truncated { offset: 0 })?;
            let big_endian = matches!(magic, [0xa1, ..]);
            let nanos = matches!(magic, [0x4d, ..] | [0xa1, 0xb2, 0x3c, 0x4d]);
            let link_bytes: [u8; 4] =
                header.get(20..24).and_then(|b| b.try_into().ok()).unwrap_or([0; 4]);
            let link = if big_endian {
                u32::from_be_bytes(link_bytes)
            } else {
                u32::from_le_bytes(link_bytes)
            };
            // The upper bits hold the FCS length and flags (pcap 2.4's "LinkType and
            // additional information").
            Kind::Pcap { big_endian, nanos, link: link & 0x0FFF_FFFF }
        }
        [0x0a, 0x0d, 0x0d, 0x0a] => Kind::PcapNg { big_endian: false },
        _ => return Err(FileError::NotACapture),
    };
    let pos = if matches!(kind, Kind::Pcap { .. }) { 24 } else { 0 };
    Ok(Packets { file, pos, kind, interfaces: Vec::new(), index: 0, done: false })
}

fn error_at(offset: usize, error: nom::Err<PcapError<&[u8]>>) -> FileError {
    match error {
        nom::Err::Incomplete(_) => FileError::Truncated { offset },
        nom::Err::Error(e) | nom::Err::Failure(e) => match e {
            PcapError::Incomplete(_) | PcapError::UnexpectedEof | PcapError::Eof => {
                FileError::Truncated { offset }
            }
            other => FileError::Damaged { offset, what: format!("{other:?}") },
        },
    }
}

/// Nanoseconds of `units` at `resolution` units per second, plus `offset` seconds; saturating.
fn nanos_of(units: u64, resolution: u64, offset: i64) -> i64 {
    let resolution = u128::from(resolution.max(1));
    let units = u128::from(units);
    let whole = units.checked_div(resolution).unwrap_or(0);
    let fraction = units.checked_rem(resolution).unwrap_or(0);
    let nanos = whole.saturating_mul(1_000_000_000).saturating_add(
        fraction.saturating_mul(1_000_000_000).checked_div(resolution).unwrap_or(0),
    );
    let nanos = i128::try_from(nanos).unwrap_or(i128::MAX);
    let total = nanos.saturating_add(i128::from(offset).saturating_mul(1_000_000_000));
    i64::try_from(total).unwrap_or(if total < 0 { i64::MIN } else { i64::MAX })
}

impl<'a> Packets<'a> {
    /// A pcap record: a 16-byte header (seconds, microseconds or nanoseconds, captured and
    /// original lengths, in the file's byte order), then the captured bytes. Read here rather
    /// than by `pcap-parser` (whose parse is the same: a record cut short is the only error),
    /// so that a packet costs a few dozen instructions.
    fn next_pcap(
        &mut self,
        big_endian: bool,
        nanos: bool,
        link: u32,
    ) -> Option<Result<RawPacket<'a>, FileError>> {
        let rest = self.file.get(self.pos..)?;
        if rest.is_empty() {
            return None;
        }
        let word = |bytes: [u8; 4]| -> u32 {
            if big_endian { u32::from_be_bytes(bytes) } else { u32::from_le_bytes(bytes) }
        };
        // The record's header, whole (the original length is not read).
        let Some(&[s0, s1, s2, s3, f0, f1, f2, f3, c0, c1, c2, c3, ..]) = rest.first_chunk::<16>()
        else {
            return Some(Err(FileError::Truncated { offset: self.pos }));
        };
        let truncated = FileError::Truncated { offset: self.pos };
        let (seconds, fraction, caplen) =
            (word([s0, s1, s2, s3]), word([f0, f1, f2, f3]), word([c0, c1, c2, c3]));
        let end = usize::try_from(caplen).ok().and_then(|n| n.checked_add(16));
        let Some(data) = end.and_then(|end| rest.get(16..end)) else {
            return Some(Err(truncated));
        };
        self.pos = self.pos.saturating_add(16).saturating_add(data.len());
        // At most 2^32 - 1 seconds and as many fractions: no overflow in 63 bits of
        // nanoseconds (and the same value as `nanos_of` gives).
        let scale: u64 = if nanos { 1 } else { 1000 };
        let total = u64::from(seconds)
            .saturating_mul(1_000_000_000)
            .saturating_add(u64::from(fraction).saturating_mul(scale));
        let time = Timestamp(i64::try_from(total).unwrap_or(i64::MAX));
        Some(Ok(self.packet(link, time, data)))
    }

    fn packet(&mut self, link: u32, time: Timestamp, data: &'a [u8]) -> RawPacket<'a> {
        let index = self.index;
        self.index = self.index.saturating_add(1);
        RawPacket { index, link, time, data }
    }

    // Out of line: a pcap file's packets are read without its frame.
    #[inline(never)]
    fn next_pcapng(&mut self) -> Option<Result<RawPacket<'a>, FileError>> {
        loop {
            let rest = self.file.get(self.pos..)?;
            if rest.is_empty() {
                return None;
            }
            let Kind::PcapNg { big_endian } = self.kind else { return None };
            // A section header sets the byte order of the blocks that follow it.
            let parsed = if rest.starts_with(&[0x0a, 0x0d, 0x0d, 0x0a]) {
                pcap_parser::pcapng::parse_sectionheaderblock(rest).map(|(after, shb)| {
                    let section_big: bool = SectionHeaderBlock::big_endian(&shb);
                    (after, Block::SectionHeader(shb), Some(section_big))
                })
            } else if big_endian {
                pcap_parser::pcapng::parse_block_be(rest).map(|(a, b)| (a, b, None))
            } else {
                pcap_parser::pcapng::parse_block_le(rest).map(|(a, b)| (a, b, None))
            };
            let (after, block, section) = match parsed {
                Ok(parsed) => parsed,
                Err(e) => return Some(Err(error_at(self.pos, e))),
            };
            let at = self.pos;
            let next = self.file.len().saturating_sub(after.len());
            if next <= at {
                return Some(Err(FileError::Damaged { offset: at, what: "empty block".into() }));
            }
            self.pos = next;
            if let Some(section_big) = section {
                self.kind = Kind::PcapNg { big_endian: section_big };
                self.interfaces.clear();
                continue;
            }
            match block {
                Block::InterfaceDescription(idb) => {
                    if self.interfaces.len() < MAX_INTERFACES {
                        self.interfaces.push(Interface {
                            link: u32::try_from(idb.linktype.0).unwrap_or(u32::MAX),
                            resolution: idb.ts_resolution().unwrap_or(1_000_000),
                            offset: idb.ts_offset(),
                        });
                    }
                }
                Block::EnhancedPacket(epb) => {
                    let Some(interface) = usize::try_from(epb.if_id)
                        .ok()
                        .and_then(|id| self.interfaces.get(id))
                        .copied()
                    else {
                        return Some(Err(FileError::Damaged {
                            offset: at,
                            what: format!("a packet of interface {}, never described", epb.if_id),
                        }));
                    };
                    let units = (u64::from(epb.ts_high) << 32) | u64::from(epb.ts_low);
                    let time = Timestamp(nanos_of(units, interface.resolution, interface.offset));
                    let len = usize::try_from(epb.caplen).unwrap_or(usize::MAX);
                    let data = epb.data.get(..len).unwrap_or(epb.data);
                    return Some(Ok(self.packet(interface.link, time, data)));
                }
                Block::SimplePacket(spb) => {
                    let Some(interface) = self.interfaces.first().copied() else {
                        return Some(Err(FileError::Damaged {
                            offset: at,
                            what: "a simple packet before any interface".into(),
                        }));
                    };
                    let len = usize::try_from(spb.origlen).unwrap_or(usize::MAX);
                    let data = spb.data.get(..len).unwrap_or(spb.data);
                    return Some(Ok(self.packet(interface.link, Timestamp(0), data)));
                }
                // Name resolution, statistics, secrets, custom blocks: nothing to read here.
                _ => continue,
            }
        }
    }
}

impl<'a> Iterator for Packets<'a> {
    type Item = Result<RawPacket<'a>, FileError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let item = match self.kind {
            Kind::Pcap { big_endian, nanos, link } => self.next_pcap(big_endian, nanos, link),
            Kind::PcapNg { .. } => self.next_pcapng(),
        };
        if !matches!(item, Some(Ok(_))) {
            self.done = true;
        }
        crate::work(1);
        item
    }
}

/// The link types this crate reads: Ethernet (1), raw IP (101, and 12 / 14 as some systems
/// number it; 228 IPv4, 229 IPv6), BSD loopback (0 null, 108 loop), Linux cooked SLL (113) and
/// SLL2 (276).
pub fn link_name(link: u32) -> &'static str {
    match link {
        0 => "null",
        1 => "ethernet",
        12 | 14 | 101 => "raw",
        108 => "loop",
        113 => "linux_sll",
        228 => "ipv4",
        229 => "ipv6",
        276 => "linux_sll2",
        _ => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pcap file with `magic` (written in the byte order it says), two records.
    fn pcap(big_endian: bool, nanos: bool, records: &[(u32, u32, &[u8])]) -> Vec<u8> {
        let word = |n: u32| if big_endian { n.to_be_bytes() } else { n.to_le_bytes() };
        let magic = if nanos { 0xa1b2_3c4d } else { 0xa1b2_c3d4 };
        let mut out = word(magic).to_vec();
        out.extend_from_slice(&[0; 16]);
        out.extend_from_slice(&word(1));
        for (seconds, fraction, data) in records {
            for n in [*seconds, *fraction, data.len() as u32, data.len() as u32] {
                out.extend_from_slice(&word(n));
            }
            out.extend_from_slice(data);
        }
        out
    }

    #[test]
    fn pcap_records_in_both_byte_orders_and_units() {
        for big_endian in [false, true] {
            for nanos in [false, true] {
                let unit: u64 = if nanos { 1_000_000_000 } else { 1_000_000 };
                let records: [(u32, u32, &[u8]); 3] =
                    [(1_700_000_000, 999_999, b"abc"), (u32::MAX, u32::MAX, b""), (0, 1, b"z")];
                let file = pcap(big_endian, nanos, &records);
                let got: Vec<RawPacket<'_>> =
                    packets(&file).unwrap().collect::<Result<_, _>>().unwrap();
                assert_eq!(got.len(), 3);
                for (packet, (seconds, fraction, data)) in got.iter().zip(records) {
                    let units = u64::from(seconds) * unit + u64::from(fraction);
                    assert_eq!(packet.time.0, nanos_of(units, unit, 0));
                    assert_eq!((packet.link, packet.data), (1, data));
                }
                // Cut inside the last record's header, then inside its data.
                for cut in [file.len() - 17 + 5, file.len() - 1] {
                    let mut all = packets(&file[..cut]).unwrap();
                    assert!(all.next().unwrap().is_ok());
                    assert!(all.next().unwrap().is_ok());
                    let offset = file.len() - 17;
                    assert_eq!(all.next().unwrap().err(), Some(FileError::Truncated { offset }));
                    assert!(all.next().is_none());
                }
            }
        }
    }
}
