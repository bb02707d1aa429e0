//! The network codecs' decoding is linear in the bytes received, however they arrive: work
//! counted (feature `work-counter`) on generated worst cases at two sizes. A frame that arrives
//! one byte at a time is checked once, when it is complete, not once per arrival; a frame over
//! the size limit costs O(1) per arrival to discard.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use bytes::BytesMut;
use common::work::{assert_linear, units, validate_units};
use gdvariant::framing::LengthPrefix;
use gdvariant::net::{DatagramCodec, FrameCodec};
use gdvariant::{EncodeOptions, Options, Writer};
use tokio_util::codec::Decoder;

/// A value Godot accepts of about `n` bytes with nesting: arrays of one element around a wide
/// array of ints and strings.
fn deep_and_wide(n: usize) -> Vec<u8> {
    let depth = (n / 64).min(1000);
    let mut writer = Writer::new(Vec::new(), EncodeOptions::godot4());
    for _ in 0..depth {
        writer.begin_array(1).unwrap();
    }
    let width = n / 12;
    writer.begin_array(width).unwrap();
    for i in 0..width {
        if i % 2 == 0 {
            writer.int(i as i64).unwrap();
        } else {
            writer.string("s").unwrap();
        }
    }
    writer.finish().unwrap()
}

/// `payload` with a `StreamPeer.put_var` prefix.
fn framed(payload: &[u8]) -> Vec<u8> {
    let mut out = (payload.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(payload);
    out
}

/// Feeds `bytes` to a fresh codec one byte at a time; returns the good and bad items.
fn one_byte_at_a_time(bytes: &[u8], prefix: LengthPrefix, options: Options) -> (usize, usize) {
    let mut codec = FrameCodec::new(prefix, options);
    let mut buffer = BytesMut::with_capacity(bytes.len());
    let (mut good, mut bad) = (0, 0);
    for byte in bytes {
        buffer.extend_from_slice(&[*byte]);
        while let Some(item) = codec.decode(&mut buffer).unwrap() {
            match item {
                Ok(_) => good += 1,
                Err(_) => bad += 1,
            }
        }
    }
    (good, bad)
}

#[test]
fn a_frame_arriving_one_byte_at_a_time_is_checked_once() {
    let prefix = LengthPrefix::stream_peer(false).with_max_frame_size(u32::MAX);
    // `make` gives the value; the op frames it (a copy, not counted) and feeds it byte by byte.
    assert_linear(
        "one frame, one byte at a time",
        20_000,
        8,
        |n| (deep_and_wide(n), Options::godot4()),
        |value, options| {
            let stream = framed(value);
            assert_eq!(one_byte_at_a_time(&stream, prefix, options), (1, 0));
        },
    );
}

#[test]
fn many_frames_arriving_one_byte_at_a_time_cost_their_bytes() {
    let prefix = LengthPrefix::stream_peer(false);
    let small = deep_and_wide(200);
    let measure = |count: usize| {
        let stream = framed(&small).repeat(count);
        let work = units(|| {
            assert_eq!(one_byte_at_a_time(&stream, prefix, Options::godot4()), (count, 0))
        });
        let validate = count as u64 * validate_units(&small, Options::godot4());
        (stream.len() as u64, work, validate)
    };
    let (bytes_a, a, validate_a) = measure(500);
    let (bytes_b, b, validate_b) = measure(2000);
    assert!(bytes_b >= 3 * bytes_a);
    assert!(b <= 6 * a, "{a} units for {bytes_a} bytes, {b} for {bytes_b}");
    for (work, validate, bytes) in [(a, validate_a, bytes_a), (b, validate_b, bytes_b)] {
        // One unit per call (per byte here), plus the checks of each frame once.
        assert!(
            work <= bytes + 2 * validate + 1000,
            "{work} units: {bytes} bytes, validate {validate}"
        );
    }
}

#[test]
fn discarding_a_frame_over_the_limit_costs_one_step_per_arrival() {
    let prefix = LengthPrefix::packet_peer_stream().with_max_frame_size(16);
    let measure = |n: usize| {
        let stream = framed(&vec![0u8; n]);
        let work =
            units(|| assert_eq!(one_byte_at_a_time(&stream, prefix, Options::godot4()), (0, 1)));
        (stream.len() as u64, work)
    };
    let ((bytes_a, a), (bytes_b, b)) = (measure(50_000), measure(200_000));
    assert!(
        b <= 6 * a && a <= bytes_a + 100 && b <= bytes_b + 100,
        "{a} for {bytes_a}, {b} for {bytes_b}"
    );
}

#[test]
fn a_datagram_is_checked_in_one_pass() {
    assert_linear(
        "datagram",
        20_000,
        2,
        |n| (deep_and_wide(n), Options::godot4()),
        |value, options| {
            let mut codec = DatagramCodec::new(options);
            let mut buffer = BytesMut::from(value);
            assert!(codec.decode(&mut buffer).unwrap().unwrap().is_ok());
        },
    );
}
