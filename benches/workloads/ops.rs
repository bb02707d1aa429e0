//! The operations the benchmarks time. Each returns something derived from what it read, so the
//! optimiser cannot drop the work, and none allocates except [`decode`] and [`encode`].

use gdvariant::framing::{self, LengthPrefix};
use gdvariant::{Options, Variant, VariantRef};

/// Sums of what a full walk read, so the walk is not optimised away.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Values read (containers, keys and elements included).
    pub values: u64,
    /// Sum of the ints (wrapping).
    pub ints: i64,
    /// Sum of the floats and vector components.
    pub reals: f64,
    /// Bytes of text read (every string checked as Godot reads it).
    pub text_bytes: u64,
}

/// Parses the Array of dictionaries in `bytes` and reads `"id"` of element `index`: O(1) parse,
/// then the elements before `index` are skipped by structure, and the entries of that one
/// dictionary up to `"id"`.
pub fn lookup(bytes: &[u8], options: Options, index: usize) -> gdvariant::Result<Option<i64>> {
    let value = gdvariant::parse(bytes, options)?;
    let Some(array) = value.as_array() else { return Ok(None) };
    let Some(entity) = array.get(index)? else { return Ok(None) };
    let Some(entity) = entity.as_dictionary() else { return Ok(None) };
    Ok(entity.get("id")?.and_then(|id| id.as_int()))
}

/// Reads every value of `bytes` through the lazy API, checking every string's text (a full lazy
/// walk: what a tool that looks at everything costs).
pub fn lazy_walk(bytes: &[u8], options: Options) -> gdvariant::Result<Tally> {
    let mut tally = Tally::default();
    visit(gdvariant::parse(bytes, options)?, &mut tally)?;
    Ok(tally)
}

/// Reads every value of `bytes` with one [`gdvariant::view::Cursor`] pass, checking every string's
/// text: the same tally as [`lazy_walk`], each byte read once whatever the nesting.
pub fn cursor_walk(bytes: &[u8], options: Options) -> gdvariant::Result<Tally> {
    let mut tally = Tally::default();
    for event in gdvariant::view::Cursor::new(bytes, options) {
        match event? {
            gdvariant::view::Event::Leaf(leaf) => visit(leaf.value(), &mut tally)?,
            gdvariant::view::Event::Open { .. } => tally.values += 1,
            _ => {}
        }
    }
    Ok(tally)
}

/// [`cursor_walk`] through [`gdvariant::view::Cursor::next_read`], which gives each leaf's value
/// read in the step that finds it.
pub fn cursor_read(bytes: &[u8], options: Options) -> gdvariant::Result<Tally> {
    let mut tally = Tally::default();
    let mut cursor = gdvariant::view::Cursor::new(bytes, options);
    while let Some(step) = cursor.next_read() {
        match step? {
            gdvariant::view::Read::Value(value) => visit_read(value, &mut tally)?,
            gdvariant::view::Read::Property(_) | gdvariant::view::Read::Close => {}
        }
    }
    Ok(tally)
}

/// The tally of one value a cursor read: as [`visit`], but a container's children are the
/// cursor's next steps, not read here.
fn visit_read(value: VariantRef<'_>, tally: &mut Tally) -> gdvariant::Result<()> {
    match value {
        VariantRef::Array(_) | VariantRef::Dictionary(_) => {
            tally.values += 1;
            Ok(())
        }
        leaf => visit(leaf, tally),
    }
}

fn visit(value: VariantRef<'_>, tally: &mut Tally) -> gdvariant::Result<()> {
    tally.values += 1;
    match value {
        VariantRef::Int(i) => tally.ints = tally.ints.wrapping_add(i),
        VariantRef::Float(f) => tally.reals += f,
        VariantRef::Bool(b) => tally.ints = tally.ints.wrapping_add(i64::from(b)),
        VariantRef::String(s) | VariantRef::StringName(s) => {
            tally.text_bytes += s.to_str()?.len() as u64;
        }
        VariantRef::Vector2(v) => {
            let v = v.get();
            tally.reals += v.x + v.y;
        }
        VariantRef::PackedInt32Array(p) => {
            tally.ints = p.iter().fold(tally.ints, |sum, i| sum.wrapping_add(i64::from(i)));
        }
        VariantRef::Array(array) => {
            for element in array.iter() {
                visit(element?, tally)?;
            }
        }
        VariantRef::Dictionary(dictionary) => {
            for entry in dictionary.iter() {
                let (key, value) = entry?;
                visit(key, tally)?;
                visit(value, tally)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// The relay's work on one packet: look up `"type"` (the last of repeated keys, as in Godot)
/// and find where the packet ends, in one pass over its entries, and return the bytes to
/// forward unless it is a `"ping"`.
pub fn relay(packet: &[u8], options: Options) -> gdvariant::Result<Option<&[u8]>> {
    let Some(dictionary) = gdvariant::parse(packet, options)?.as_dictionary() else {
        return Ok(None);
    };
    let (kind, end) = dictionary.get_with_end("type")?;
    let kind = kind.and_then(|kind| kind.value().as_gd_str());
    Ok(match kind {
        Some(kind) if !kind.eq_str("ping") => packet.get(..end),
        _ => None,
    })
}

/// [`relay`] that first checks the whole packet as Godot's decoder would (every string's text
/// too), so nothing the game would refuse is forwarded.
pub fn validated_relay(packet: &[u8], options: Options) -> gdvariant::Result<Option<&[u8]>> {
    gdvariant::validate(packet, options)?;
    relay(packet, options)
}

/// A relay's work on one packet: [`relay`] or [`validated_relay`].
pub type Relay = for<'a> fn(&'a [u8], Options) -> gdvariant::Result<Option<&'a [u8]>>;

/// Runs `relay` over every packet; returns the bytes forwarded.
pub fn relay_all<'a>(
    packets: impl Iterator<Item = &'a [u8]>,
    options: Options,
    relay: Relay,
) -> usize {
    packets.map(|p| relay(p, options).ok().flatten().map_or(0, <[u8]>::len)).sum()
}

/// Frame scan of a `store_var` dump: every length prefix, no value looked at. Returns the
/// number of frames and payload bytes.
pub fn scan_frames(dump: &[u8]) -> Result<(usize, usize), framing::FrameError> {
    let mut frames = 0;
    let mut bytes = 0;
    for frame in framing::raw_frames(dump, LengthPrefix::store_var(false)) {
        frames += 1;
        bytes += frame?.payload().len();
    }
    Ok((frames, bytes))
}

/// Full validation of a `store_var` dump: every frame's value checked as Godot's `get_var`
/// would. Returns the number of frames.
pub fn validate_frames(dump: &[u8], options: Options) -> Result<usize, framing::FrameError> {
    let mut frames = 0;
    for frame in framing::frames(dump, LengthPrefix::store_var(false), options) {
        frame?;
        frames += 1;
    }
    Ok(frames)
}

/// Parses a `PackedFloat32Array` and returns its elements as a native slice (`None` on a
/// big-endian host or when the buffer leaves them misaligned). O(1).
pub fn packed_slice(bytes: &[u8], options: Options) -> gdvariant::Result<Option<&[f32]>> {
    Ok(match gdvariant::parse(bytes, options)? {
        VariantRef::PackedFloat32Array(packed) => packed.as_slice(),
        _ => None,
    })
}

/// Sums a `PackedFloat32Array` through the little-endian view, which works at any alignment.
pub fn packed_sum_le(bytes: &[u8], options: Options) -> gdvariant::Result<f32> {
    Ok(match gdvariant::parse(bytes, options)? {
        VariantRef::PackedFloat32Array(packed) => {
            packed.as_le_slice().iter().map(|f| f.get()).sum()
        }
        _ => 0.0,
    })
}

/// Sums a native slice (what [`packed_slice`] makes possible).
pub fn sum(floats: &[f32]) -> f32 {
    floats.iter().sum()
}

/// Owned decode of the whole value.
pub fn decode(bytes: &[u8], options: Options) -> gdvariant::Result<Variant> {
    gdvariant::decode(bytes, options)
}

/// Each packet read with a new [`gdvariant::view::Cursor`], event by event (leaves' values
/// read); gives the events.
pub fn cursor_packets(
    packets: &super::inputs::Packets,
    options: Options,
) -> gdvariant::Result<usize> {
    let mut events = 0;
    for packet in packets.iter() {
        for event in gdvariant::view::Cursor::new(packet, options) {
            if let gdvariant::view::Event::Leaf(leaf) = event? {
                std::hint::black_box(leaf.value());
            }
            events += 1;
        }
    }
    Ok(events)
}

/// Owned decode of each packet into one value, kept from packet to packet
/// (`gdvariant::decode_into`, as a server's receive loop would); gives the entries read.
pub fn decode_packets_into(
    packets: &super::inputs::Packets,
    options: Options,
) -> gdvariant::Result<usize> {
    let mut value = Variant::Nil;
    let mut entries = 0;
    for packet in packets.iter() {
        gdvariant::decode_into(packet, options, &mut value)?;
        entries += value.as_dictionary().map_or(0, |d| d.len());
    }
    Ok(entries)
}

/// Encodes an owned value.
pub fn encode(value: &Variant, options: gdvariant::EncodeOptions) -> Vec<u8> {
    gdvariant::encode(value, options).expect("encodable")
}

/// A packet as a program of its own reads it, borrowing its strings from the packet.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
pub struct PacketRef<'a> {
    #[serde(rename = "type")]
    pub kind: &'a str,
    pub seq: i64,
    #[serde(default)]
    pub time: Option<f64>,
    #[serde(default)]
    pub pos: Option<Position>,
    #[serde(default)]
    pub payload: Option<&'a str>,
}

/// A packet as a program of its own reads it, owning its strings.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
pub struct PacketOwned {
    #[serde(rename = "type")]
    pub kind: String,
    pub seq: i64,
    #[serde(default)]
    pub time: Option<f64>,
    #[serde(default)]
    pub pos: Option<Position>,
    #[serde(default)]
    pub payload: Option<String>,
}

/// A `Vector2` field.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

/// Every packet read into [`PacketRef`]: how many are not pings, and the sum of their `seq`.
#[cfg(feature = "serde")]
pub fn serde_packets_borrowed(packets: &super::inputs::Packets, options: Options) -> (usize, i64) {
    let mut moving = (0, 0);
    for packet in packets.iter() {
        let packet: PacketRef<'_> =
            gdvariant::serde::from_bytes(packet, options).expect("a valid packet");
        if packet.kind != "ping" {
            moving.0 += 1;
            moving.1 += packet.seq + packet.payload.map_or(0, |p| p.len() as i64);
        }
    }
    moving
}

/// Every packet read into [`PacketOwned`]: as [`serde_packets_borrowed`].
#[cfg(feature = "serde")]
pub fn serde_packets_owned(packets: &super::inputs::Packets, options: Options) -> (usize, i64) {
    let mut moving = (0, 0);
    for packet in packets.iter() {
        let packet: PacketOwned =
            gdvariant::serde::from_bytes(packet, options).expect("a valid packet");
        if packet.kind != "ping" {
            moving.0 += 1;
            moving.1 += packet.seq + packet.payload.map_or(0, |p| p.len() as i64);
        }
    }
    moving
}
