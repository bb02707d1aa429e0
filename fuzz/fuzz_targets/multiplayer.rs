//! Fuzz target: see [`gdvariant_fuzz::multiplayer::check`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gdvariant_fuzz::multiplayer::check(data));
