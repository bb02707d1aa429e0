//! Fuzz target: see [`gdvariant_fuzz::packed_alignment::check`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gdvariant_fuzz::packed_alignment::check(data));
