//! Benchmark inputs, generated deterministically (a fixed linear congruential generator, no
//! clock, no randomness), so every run and every machine times the same bytes.

use std::ops::Range;
use std::path::{Path, PathBuf};

use gdvariant::framing::{self, LengthPrefix};
use gdvariant::math::Vector2;
use gdvariant::{EncodeOptions, Variant, Version, owned::Array, owned::Dictionary};

/// Dictionaries in the dict-heavy game state.
pub const GAME_STATE_ENTITIES: usize = 10_000;
/// Packets in the packet workload.
pub const PACKETS: usize = 100_000;
/// Frames in the dump workload.
pub const DUMP_FRAMES: usize = 100_000;

/// A small deterministic generator (Knuth's MMIX LCG); only the high bits are used.
pub struct Lcg(u64);

impl Lcg {
    /// A generator with a fixed seed per workload.
    pub fn new(seed: u64) -> Self {
        Lcg(seed)
    }

    /// The next 32 pseudo-random bits.
    pub fn next_u32(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 32) as u32
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u32) -> u32 {
        self.next_u32() % n
    }
}

/// Encoder options for `version` (Godot's defaults: single precision, no full objects).
pub fn encode_options(version: Version) -> EncodeOptions {
    EncodeOptions::new(version)
}

/// The corpus case `large_array_10000_dicts.bin` of `version`: bytes the real engine wrote, an
/// Array of 10,000 Dictionaries `{active: bool, id: int, name: String, pos: Vector2, score:
/// float}` (1,312,008 bytes).
pub fn corpus_dicts(version: Version) -> Vec<u8> {
    std::fs::read(corpus_path(version, "large_array_10000_dicts.bin")).expect("corpus case")
}

/// A file of the project's corpus.
pub fn corpus_path(version: Version, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(version_name(version)).join(name)
}

/// `"godot3"` or `"godot4"`: the corpus folder, and the suffix of benchmark names.
pub fn version_name(version: Version) -> &'static str {
    match version {
        Version::Godot3 => "godot3",
        Version::Godot4 => "godot4",
    }
}

/// The dict-heavy game state as an owned value: an Array of [`GAME_STATE_ENTITIES`]
/// Dictionaries of mixed values (ints of both widths, floats, bools, strings of varying length,
/// vectors, a nested array of strings and a small packed array), the shape of a saved game or a
/// world snapshot.
pub fn game_state() -> Variant {
    let mut rng = Lcg::new(0x6761_6d65);
    let kinds = ["orc", "goblin", "knight", "archer", "dragon"];
    let tags = ["boss", "flying", "poisoned", "shielded", "quest", "elite"];
    let entities: Vec<Variant> = (0..GAME_STATE_ENTITIES)
        .map(|i| {
            let mut d = Dictionary::new();
            let kind = kinds[rng.below(kinds.len() as u32) as usize];
            d.insert("id", i as i64 * 7_919 + if i % 10 == 0 { 1 << 40 } else { 0 });
            d.insert("name", format!("{kind}_{i}"));
            d.insert(
                "pos",
                Vector2 {
                    x: f64::from(rng.below(4096)) / 4.0,
                    y: f64::from(rng.below(4096)) / 8.0,
                },
            );
            d.insert("hp", f64::from(rng.below(10_000)) / 100.0);
            d.insert("alive", rng.below(4) != 0);
            let tag_count = rng.below(3) as usize;
            let entity_tags: Array =
                (0..tag_count).map(|_| tags[rng.below(tags.len() as u32) as usize]).collect();
            d.insert("tags", entity_tags);
            d.insert("inventory", (0..4).map(|_| rng.below(1000) as i32).collect::<Vec<i32>>());
            Variant::from(d)
        })
        .collect();
    Variant::from(entities)
}

/// [`game_state`] encoded for `version`.
pub fn game_state_bytes(version: Version) -> Vec<u8> {
    gdvariant::encode(&game_state(), encode_options(version)).expect("encodable")
}

/// A `PackedFloat32Array` (Godot 3: `PoolRealArray`) of `len` elements, encoded, placed in a
/// buffer at `misalign` bytes past a 4-byte boundary (0: the elements are aligned for `&[f32]`).
pub struct PackedInput {
    buf: Vec<u8>,
    start: usize,
}

impl PackedInput {
    /// Encodes `len` floats `0.0, 0.5, 1.0, ...` for `version`.
    pub fn new(len: usize, version: Version, misalign: usize) -> Self {
        let floats: Vec<f32> = (0..len).map(|i| i as f32 * 0.5).collect();
        let bytes =
            gdvariant::encode(&Variant::from(floats), encode_options(version)).expect("encodable");
        let mut buf = vec![0u8; bytes.len() + 8];
        let start = buf.as_ptr().align_offset(4) + misalign;
        buf[start..start + bytes.len()].copy_from_slice(&bytes);
        buf.truncate(start + bytes.len());
        PackedInput { buf, start }
    }

    /// The encoded value.
    pub fn bytes(&self) -> &[u8] {
        &self.buf[self.start..]
    }
}

/// Small packets, as a game server receives them, stored back to back.
pub struct Packets {
    /// All packets, back to back.
    pub buf: Vec<u8>,
    /// Where each packet lies in `buf`.
    pub ranges: Vec<Range<usize>>,
}

impl Packets {
    /// The packets, one slice each.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> + '_ {
        self.ranges.iter().map(|r| &self.buf[r.clone()])
    }

    /// Number of packets.
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    /// Total bytes.
    pub fn total_bytes(&self) -> usize {
        self.buf.len()
    }
}

/// The packet kinds, in the `"type"` key.
pub const PACKET_TYPES: [&str; 4] = ["move", "chat", "fire", "ping"];

/// One packet: a Dictionary with a `"type"` key. `ping` packets are `{type, seq, time}` (76
/// bytes in Godot 4); the others are `{seq, type, pos, payload}` with a String payload of 0 to
/// 148 bytes (100 to 256 bytes in all), so the key looked up is not always first.
pub fn packet(rng: &mut Lcg, seq: usize) -> Variant {
    let kind = PACKET_TYPES[rng.below(4) as usize];
    let mut d = Dictionary::new();
    if kind == "ping" {
        d.insert("type", kind);
        d.insert("seq", seq as i64);
        d.insert("time", f64::from(rng.next_u32()) / 1000.0);
    } else {
        d.insert("seq", seq as i64);
        d.insert("type", kind);
        d.insert("pos", Vector2 { x: f64::from(rng.below(1024)), y: f64::from(rng.below(768)) });
        let len = rng.below(149) as usize;
        let payload: String = (0..len).map(|j| char::from(b'a' + ((seq + j) % 26) as u8)).collect();
        d.insert("payload", payload);
    }
    Variant::from(d)
}

/// [`PACKETS`] packets encoded for `version`.
pub fn packets(version: Version) -> Packets {
    let mut rng = Lcg::new(0x7061_636b);
    let mut buf = Vec::new();
    let mut ranges = Vec::with_capacity(PACKETS);
    for seq in 0..PACKETS {
        let bytes =
            gdvariant::encode(&packet(&mut rng, seq), encode_options(version)).expect("encodable");
        ranges.push(buf.len()..buf.len() + bytes.len());
        buf.extend_from_slice(&bytes);
    }
    Packets { buf, ranges }
}

/// A `store_var` dump ([`LengthPrefix::store_var`]): [`DUMP_FRAMES`] frames, each a 4-byte
/// length and one value: packets as above (half of the frames), small arrays `[tick, time,
/// "event", Vector2]`, and snapshots `{tick, players: {name: {hp, pos}}}` with 1 to 4 players.
pub fn dump(version: Version) -> Vec<u8> {
    let mut rng = Lcg::new(0x6475_6d70);
    let mut out = Vec::new();
    for frame in 0..DUMP_FRAMES {
        let value = match frame % 4 {
            0 | 2 => packet(&mut rng, frame),
            1 => Variant::from(vec![
                Variant::from(frame as i64),
                Variant::from(f64::from(rng.next_u32()) / 1e3),
                Variant::from("event"),
                Variant::from(Vector2 { x: 1.5, y: f64::from(rng.below(100)) }),
            ]),
            _ => {
                let mut players = Dictionary::new();
                for p in 0..=rng.below(4) {
                    let mut state = Dictionary::new();
                    state.insert("hp", i64::from(rng.below(100)));
                    state.insert(
                        "pos",
                        Vector2 { x: f64::from(rng.below(512)), y: f64::from(rng.below(512)) },
                    );
                    players.insert(format!("player{p}"), state);
                }
                let mut snapshot = Dictionary::new();
                snapshot.insert("tick", frame as i64);
                snapshot.insert("players", players);
                Variant::from(snapshot)
            }
        };
        let payload = gdvariant::encode(&value, encode_options(version)).expect("encodable");
        framing::append_frame(&mut out, LengthPrefix::store_var(false), &payload).expect("fits");
    }
    out
}
