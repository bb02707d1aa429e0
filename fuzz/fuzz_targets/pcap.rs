//! Fuzz target: see [`gdvariant_fuzz::pcap::check`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gdvariant_fuzz::pcap::check(data));
