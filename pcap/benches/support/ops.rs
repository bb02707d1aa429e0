//! What the `read` benchmark times, shared with the test that checks it on the same captures
//! and the `read_capture` example run under callgrind: a whole capture read with the library,
//! every item looked at.
#![allow(dead_code, clippy::arithmetic_side_effects, clippy::expect_used)]

use std::collections::BTreeMap;
use std::sync::Arc;

use gdvariant::{Options, Version};
use gdvariant_multiplayer::Framing;
use gdvariant_multiplayer::track::Tracker;
use gdvariant_pcap::{Config, FlowId, Item, Reader};

/// What a read found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Values (TCP frames Godot accepts) or ENet messages delivered.
    pub values: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Refused frames, datagrams or ENet traffic.
    pub refused: u64,
    /// Gaps, cut frames, evicted flows and WebSocket items.
    pub other: u64,
    /// Messages the multiplayer tracker refused (ENet with the tracker only).
    pub tracker_refused: u64,
}

fn count<'a>(counts: &mut Counts, item: &Item<'a>) {
    match item {
        Item::Value(value) => {
            counts.values += 1;
            counts.bytes += value.bytes.len() as u64;
        }
        Item::Enet(message) => {
            counts.values += 1;
            counts.bytes += message.bytes.len() as u64;
        }
        Item::Refused(_) => counts.refused += 1,
        _ => counts.other += 1,
    }
}

/// Reads a TCP `put_var` capture: every frame's value validated as Godot's `get_var` does
/// (the reader does it before it hands a value out).
pub fn read_values(capture: &[u8], version: Version) -> Counts {
    let mut counts = Counts::default();
    let reader = Reader::new(capture, Config::new(Options::new(version))).expect("a capture");
    for item in reader {
        count(&mut counts, &item);
    }
    counts
}

/// Reads an ENet capture: every message delivered (fragments put together, retransmissions
/// once); with `track`, each message also read by a Godot 4 `Tracker` per flow (the
/// high-level multiplayer packet parsed and followed, its values validated).
pub fn read_enet(capture: &[u8], track: bool) -> Counts {
    let mut counts = Counts::default();
    let reader = Reader::new(capture, Config::new(Options::godot4())).expect("a capture");
    let mut trackers: BTreeMap<FlowId, Tracker> = BTreeMap::new();
    for item in reader {
        count(&mut counts, &item);
        if let (true, Item::Enet(message)) = (track, &item) {
            let tracker = trackers.entry(message.flow).or_insert_with(|| {
                // The scenario's full objects were sent with `allow_object_decoding` on.
                let tracker = Tracker::new(Version::Godot4, Framing::Packets, Arc::default())
                    .with_allow_objects(true);
                match message.client_id.and_then(|id| i32::try_from(id).ok()) {
                    Some(id) => tracker.with_client(id),
                    None => tracker,
                }
            });
            if tracker.message(message.direction, message.channel, &message.bytes).is_err() {
                counts.tracker_refused += 1;
            }
        }
    }
    counts
}
