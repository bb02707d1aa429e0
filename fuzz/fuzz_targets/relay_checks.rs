//! Fuzz target: see [`gdvariant_fuzz::relay_checks::check`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gdvariant_fuzz::relay_checks::check(data));
