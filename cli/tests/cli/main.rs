//! End-to-end tests: the built `gdvariant` binary on both engines' corpora.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod support;

mod detect;
mod diagnostics;
mod dump;
mod exit_codes;
mod export;
mod faults;
mod floats;
mod frames;
mod get;
mod multiplayer;
mod output;
mod pcap;
mod pcap_jobs;
mod pcap_names;
mod pcap_stats;
mod pcap_websocket;
mod pcap_websocket4;
mod records;
mod reencode;
mod validate;
