//! Fuzz target: see [`gdvariant_fuzz::owned_roundtrip::check`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gdvariant_fuzz::owned_roundtrip::check(data));
