//! Fuzz target: see [`gdvariant_fuzz::work_bound::check`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gdvariant_fuzz::work_bound::check(data));
