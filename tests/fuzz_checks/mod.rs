//! The fuzz crate's checks of this crate (`fuzz/src/`), for `fuzz_regressions.rs`: each module
//! included on its own, as siblings (they refer to each other through `super::`). The fuzz
//! crate's `lib.rs` also declares the `multiplayer` check, which needs the multiplayer crate and
//! is replayed there (`multiplayer/tests/fuzz_regressions.rs`).

#[path = "../../fuzz/src/differential.rs"]
pub mod differential;
#[path = "../../fuzz/src/framing.rs"]
pub mod framing;
#[path = "../../fuzz/src/identity.rs"]
pub mod identity;
#[path = "../../fuzz/src/lazy_walk.rs"]
pub mod lazy_walk;
#[path = "../../fuzz/src/options.rs"]
pub mod options;
#[path = "../../fuzz/src/owned_roundtrip.rs"]
pub mod owned_roundtrip;
#[path = "../../fuzz/src/packed_alignment.rs"]
pub mod packed_alignment;
#[path = "../../fuzz/src/reencode.rs"]
pub mod reencode;
#[path = "../../fuzz/src/work_bound.rs"]
pub mod work_bound;
