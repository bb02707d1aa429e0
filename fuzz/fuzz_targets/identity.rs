//! Fuzz target: see [`gdvariant_fuzz::identity::check`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gdvariant_fuzz::identity::check(data));
