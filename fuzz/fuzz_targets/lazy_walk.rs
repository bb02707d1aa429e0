//! Fuzz target: see [`gdvariant_fuzz::lazy_walk::check`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gdvariant_fuzz::lazy_walk::check(data));
