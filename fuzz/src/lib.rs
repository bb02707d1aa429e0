//! The checks behind gdvariant's fuzz targets, one module per target.
//!
//! Each `check(data)` runs one property on one input and panics when it does not hold; a
//! panic is a finding. The same functions replay the kept findings (`fuzz/regressions/`) in the
//! library's ordinary `cargo test` (`tests/fuzz_regressions.rs` includes each module of the
//! core's targets through `tests/fuzz_checks/`; `multiplayer/tests/fuzz_regressions.rs` includes
//! `multiplayer.rs`, `relay/tests/fuzz_checks.rs` includes `relay_checks.rs`), so they use nothing but the library crates and `arbitrary`, and refer to
//! each other through `super::` (`multiplayer.rs` to nothing).
//!
//! | target | input | property |
//! | --- | --- | --- |
//! | `lazy_walk` | bytes | every accessor, iterator, lookup and raw-bytes view of the lazy API, under both versions with and without objects: no panic, every error offset inside the input, raw bytes and lookups consistent with iteration |
//! | `differential` | bytes | `validate`, a full lazy walk, `parse_prefix` and owned `decode` give the same verdict, and the same error at the same offset (see [`differential`] for the one documented ordering difference) |
//! | `owned_roundtrip` | `arbitrary` values | encode, validate, decode: the same value bit for bit, re-encoded to the same bytes |
//! | `reencode` | bytes | whatever validates re-encodes to bytes that validate and decode to the same value, and encode to themselves |
//! | `identity` | bytes | the text of a value equals the text of its owned value re-encoded: the text's and the owned values' rules of key identity merge the same keys, and the text orders them alike |
//! | `framing` | selector + bytes | the frame iterator and the streaming reader (read in arbitrary chunk sizes) agree on every frame and on the error that ends the stream |
//! | `work_bound` | bytes | every public path that reads untrusted bytes (validate, cursor, tape, JSON, text, serde, lookups, decode, encode, framing scan, detect) stays within a fixed number of units of work per input byte (`gdvariant::work`) |
//! | `multiplayer` | selector + bytes | Godot 4 and Godot 3 multiplayer packets, their transports, capture files and sessions: no panic, errors inside the input, bounded work per byte; what validates re-encodes (from owned values) to a packet of the same meaning that is a fixed point of the encoder |
//! | `relay_checks` | settings + a message | the relay's per-message checks (`gdvariant_relay::checks`: the size limit and `get_var`'s verdict for WebSocket, UDP and ENet messages, Godot 3's ENet header): no panic, bounded work, the same verdicts as the core and as Godot's header rules |
//! | `pcap` | settings + packets or a capture file | the capture reader (`gdvariant-pcap`): no panic, bounded work per byte, every value handed out one Godot accepts (replayed by `pcap/tests/fuzz_checks.rs`) |
//! | `packed_alignment` | selector + elements | a packed array placed at each offset 0..7: native slice, little-endian view, `get`, `iter` and `to_vec` agree bit for bit, and the native slice is there exactly when aligned on a little-endian host |

pub mod differential;
pub mod framing;
pub mod identity;
pub mod lazy_walk;
pub mod multiplayer;
pub mod options;
pub mod owned_roundtrip;
pub mod packed_alignment;
pub mod pcap;
pub mod reencode;
pub mod relay_checks;
pub mod work_bound;
