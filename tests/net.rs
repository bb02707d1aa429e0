//! The network codecs (feature `tokio`) on the real engines' captures:
//!
//! * every stream capture of both engines decodes with `FrameCodec` into the frames the blocking
//!   reader finds, at the same absolute offsets, however the bytes arrive (one at a time, in odd
//!   chunks, at once), each packet zero-copy out of the receive buffer; re-encoding the packets
//!   rebuilds the capture byte for byte;
//! * bad frames are items, not errors: a refused value, a negative length (4 bytes skipped, as
//!   `StreamPeer.get_var` does), a length over the limit (discarded as it arrives, never
//!   buffered), a frame cut by the end of the stream; the frames after them still decode;
//! * encoders: owned values, packets re-framed under another prefix, raw payloads, values built
//!   in place, size limits that leave the output untouched;
//! * datagrams: every value of both corpora, refused and oversized packets, and a real
//!   `UdpFramed` round trip on loopback; a `FramedRead` over a tokio stream written one byte at a
//!   time.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use bytes::{Bytes, BytesMut};
use common::*;
use gdvariant::framing::{self, FrameErrorKind, LengthPrefix};
use gdvariant::net::{BadFrame, Build, DatagramCodec, FrameCodec, Packet, SendError};
use gdvariant::{EncodeOptions, ErrorKind, Options, Variant, Version};
use tokio_util::codec::{Decoder, Encoder};

const VERSIONS: [Version; 2] = [Version::Godot3, Version::Godot4];

/// The stream captures of both corpora: name, bytes, prefix, options.
fn captures() -> Vec<(String, Vec<u8>, LengthPrefix, Options)> {
    let mut out = Vec::new();
    for version in VERSIONS {
        for case in manifest(version).iter().filter(|c| c["type"] == "stream") {
            let name = case["name"].as_str().unwrap().to_owned();
            let prefix = match case["kind"].as_str().unwrap() {
                "file_store_var" => LengthPrefix::store_var(false),
                "streampeer_put_var" => LengthPrefix::stream_peer(false),
                _ => LengthPrefix::packet_peer_stream(),
            };
            let options = options_for(version, case["full_objects"] == true);
            out.push((format!("{version:?} {name}"), corpus(version, &name), prefix, options));
        }
    }
    assert_eq!(out.len(), 7);
    out
}

/// Feeds `bytes` to `codec` `chunk` bytes at a time, then ends the stream; returns the items.
fn decode_in_chunks(
    codec: &mut FrameCodec,
    bytes: &[u8],
    chunk: usize,
) -> Vec<Result<Packet, BadFrame>> {
    let mut buffer = BytesMut::new();
    let mut items = Vec::new();
    for piece in bytes.chunks(chunk) {
        buffer.extend_from_slice(piece);
        while let Some(item) = codec.decode(&mut buffer).unwrap() {
            items.push(item);
        }
    }
    while let Some(item) = codec.decode_eof(&mut buffer).unwrap() {
        items.push(item);
    }
    items
}

#[test]
fn every_capture_decodes_as_the_blocking_reader_reads_it_however_the_bytes_arrive() {
    for (name, bytes, prefix, options) in captures() {
        let expected: Vec<(u64, Vec<u8>, u16)> = framing::frames(&bytes, prefix, options)
            .map(|f| f.unwrap())
            .map(|f| (f.offset(), f.raw_bytes().to_vec(), f.depth()))
            .collect();
        for chunk in [1, 3, 7, 64, bytes.len()] {
            let mut codec = FrameCodec::new(prefix, options);
            let items = decode_in_chunks(&mut codec, &bytes, chunk);
            let got: Vec<(u64, Vec<u8>, u16)> = items
                .into_iter()
                .map(|item| item.unwrap())
                .map(|p| (p.offset(), p.raw_bytes().to_vec(), p.depth()))
                .collect();
            assert_eq!(got, expected, "{name}, chunks of {chunk}");
            assert_eq!(codec.position(), bytes.len() as u64);
        }
        // Re-encoding the packets gives the capture back, byte for byte.
        let mut codec = FrameCodec::new(prefix, options);
        let mut out = BytesMut::new();
        for item in decode_in_chunks(&mut codec.clone(), &bytes, bytes.len()) {
            codec.encode(&item.unwrap(), &mut out).unwrap();
        }
        assert_eq!(&out[..], &bytes[..], "{name}: re-encoded");
    }
}

#[test]
fn packets_are_cut_out_of_the_receive_buffer_and_read_in_place() {
    let bytes = corpus(Version::Godot4, "stream_streampeer_put_var");
    let mut buffer = BytesMut::from(&bytes[..]);
    let start = buffer.as_ptr() as usize;
    let mut codec = FrameCodec::new(LengthPrefix::stream_peer(false), Options::godot4());
    let mut at = 0;
    while let Some(item) = codec.decode(&mut buffer).unwrap() {
        let packet = item.unwrap();
        assert_eq!(packet.raw_bytes().as_ptr() as usize, start + at, "no copy");
        assert_eq!(packet.payload(), &bytes[at + 4..at + packet.len()]);
        assert_eq!(packet.payload_bytes(), packet.payload());
        let direct = gdvariant::parse(packet.payload(), Options::godot4()).unwrap();
        assert_eq!(describe(packet.value(), Version::Godot4), describe(direct, Version::Godot4));
        assert_eq!(packet.variant_type(), direct.variant_type());
        assert_eq!(packet.element().raw_bytes(), packet.payload(), "the value fills the frame");
        assert!(packet.trailing_bytes().is_empty());
        let mut events = 0;
        for event in packet.cursor() {
            event.unwrap();
            events += 1;
        }
        assert!(events >= 1);
        at += packet.len();
    }
    assert_eq!(at, bytes.len());
}

/// `{"hp": 90}` in Godot 4's bytes.
fn hp() -> Vec<u8> {
    gdvariant::encode(
        &[(Variant::from("hp"), Variant::Int(90))]
            .into_iter()
            .collect::<gdvariant::owned::Dictionary>()
            .into(),
        EncodeOptions::godot4(),
    )
    .unwrap()
}

fn framed(payload: &[u8]) -> Vec<u8> {
    let mut out = (payload.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(payload);
    out
}

#[test]
fn bad_frames_are_items_with_offset_and_length_and_the_stream_goes_on() {
    let good = framed(&hp());
    let refused = framed(&[0xEE, 0, 0, 0]);
    let empty = framed(&[]);
    let negative = [0xFF, 0xFF, 0xFF, 0xFF];
    let mut stream = Vec::new();
    let mut expected = Vec::new(); // (offset, len, reason) or (offset, len, "ok")
    for (bytes, what) in [
        (&good[..], "ok"),
        (&refused[..], "invalid_value"),
        (&negative[..], "negative_length"),
        (&empty[..], "invalid_value"),
        (&good[..], "ok"),
    ] {
        expected.push((stream.len() as u64, bytes.len() as u64, what));
        stream.extend_from_slice(bytes);
    }
    for chunk in [1, 5, stream.len()] {
        let mut codec = FrameCodec::new(LengthPrefix::stream_peer(false), Options::godot4());
        let items = decode_in_chunks(&mut codec, &stream, chunk);
        let got: Vec<(u64, u64, &str)> = items
            .iter()
            .map(|item| match item {
                Ok(p) => (p.offset(), p.len() as u64, "ok"),
                Err(bad) => (bad.offset(), bad.len(), bad.reason()),
            })
            .collect();
        assert_eq!(got, expected, "chunks of {chunk}");
        let refused_item = items[1].as_ref().unwrap_err();
        assert_eq!(refused_item.bytes().unwrap(), &refused[..]);
        let FrameErrorKind::Value(inner) = refused_item.kind() else { panic!() };
        assert_eq!(
            (inner.offset(), inner.kind()),
            (good.len() + 4, ErrorKind::UnknownType { id: 0xEE })
        );
    }
}

#[test]
fn a_frame_over_the_limit_is_discarded_as_it_arrives_without_being_buffered() {
    let prefix = LengthPrefix::packet_peer_stream().with_max_frame_size(100);
    let mut stream = framed(&vec![0u8; 10_000]);
    let after = framed(&hp());
    stream.extend_from_slice(&after);
    let mut codec = FrameCodec::new(prefix, Options::godot4());
    let mut buffer = BytesMut::new();
    let mut items = Vec::new();
    for piece in stream.chunks(50) {
        buffer.extend_from_slice(piece);
        while let Some(item) = codec.decode(&mut buffer).unwrap() {
            items.push(item);
        }
        assert!(buffer.len() <= 50, "at most one read is ever held: {}", buffer.len());
    }
    assert_eq!(items.len(), 2);
    let bad = items[0].as_ref().unwrap_err();
    assert_eq!((bad.offset(), bad.len(), bad.bytes()), (0, 10_004, None));
    assert!(matches!(bad.kind(), FrameErrorKind::TooLarge { length: 10_000, max: 100 }));
    let packet = items[1].as_ref().unwrap();
    assert_eq!((packet.offset(), packet.raw_bytes()), (10_004, &after[..]));
}

#[test]
fn the_end_of_the_stream_inside_a_frame_is_a_last_bad_frame() {
    let whole = framed(&hp());
    let cut = &whole[..whole.len() - 3];
    let mut codec = FrameCodec::new(LengthPrefix::stream_peer(false), Options::godot4());
    let items = decode_in_chunks(&mut codec, cut, 4);
    assert_eq!(items.len(), 1);
    let bad = items[0].as_ref().unwrap_err();
    assert_eq!((bad.offset(), bad.len(), bad.reason()), (0, cut.len() as u64, "incomplete"));
    assert_eq!(bad.kind(), FrameErrorKind::Incomplete { needed: 3 });
    assert_eq!(bad.bytes().unwrap(), cut);
    // A prefix cut short, too; and nothing at all is no item.
    let mut codec = FrameCodec::new(LengthPrefix::stream_peer(false), Options::godot4());
    let items = decode_in_chunks(&mut codec, &whole[..2], 1);
    assert_eq!(items[0].as_ref().unwrap_err().kind(), FrameErrorKind::Incomplete { needed: 2 });
    assert!(decode_in_chunks(&mut codec, &[], 1).is_empty());
}

#[test]
fn offsets_count_from_where_the_codec_starts() {
    let whole = framed(&hp());
    let mut codec =
        FrameCodec::new(LengthPrefix::stream_peer(false), Options::godot4()).starting_at(1000);
    let mut buffer = BytesMut::from(&whole[..]);
    let packet = codec.decode(&mut buffer).unwrap().unwrap().unwrap();
    assert_eq!((packet.offset(), codec.position()), (1000, 1000 + whole.len() as u64));
}

#[test]
fn encoders_write_values_packets_payloads_and_values_built_in_place() {
    let value = gdvariant::decode(&hp(), Options::godot4()).unwrap();
    let prefix = LengthPrefix::stream_peer(false);
    let mut codec = FrameCodec::new(prefix, Options::godot4());
    let mut out = BytesMut::new();
    codec.encode(&value, &mut out).unwrap();
    codec.encode(value.clone(), &mut out).unwrap();
    codec.encode(&hp()[..], &mut out).unwrap();
    codec.encode(Bytes::from(hp()), &mut out).unwrap();
    codec
        .encode(
            Build::new(|w| {
                w.begin_dictionary(1)?;
                w.string("hp")?;
                w.int(90)
            }),
            &mut out,
        )
        .unwrap();
    assert_eq!(&out[..], &framed(&hp()).repeat(5)[..]);

    // A packet re-framed under a big-endian prefix: same payload, the prefix in the new order.
    let packet = codec.decode(&mut out).unwrap().unwrap().unwrap();
    let mut big = FrameCodec::new(LengthPrefix::stream_peer(true), Options::godot4());
    let mut reframed = BytesMut::new();
    big.encode(&packet, &mut reframed).unwrap();
    assert_eq!(&reframed[..4], &(hp().len() as u32).to_be_bytes());
    assert_eq!(&reframed[4..], packet.payload());
}

#[test]
fn encoding_errors_leave_the_output_as_it_was() {
    let small = LengthPrefix::stream_peer(false).with_max_frame_size(8);
    let mut codec = FrameCodec::new(small, Options::godot4());
    let mut out = BytesMut::from(&b"kept"[..]);
    let too_large = codec.encode(&hp()[..], &mut out).unwrap_err();
    assert!(matches!(too_large, SendError::Frame(e) if e.offset() == 0
        && matches!(e.kind(), FrameErrorKind::TooLarge { max: 8, .. })));
    let built = codec.encode(Build::new(|w| w.string("a long string")), &mut out);
    assert!(matches!(built, Err(SendError::Frame(_))));
    let unfinished = codec.encode(Build::new(|w| w.begin_array(2)), &mut out);
    assert!(matches!(
        unfinished,
        Err(SendError::Encode(gdvariant::encoder::EncodeError::Unfinished { missing: 2 }))
    ));
    let mut codec4 = FrameCodec::new(LengthPrefix::stream_peer(false), Options::godot4());
    let godot4 = codec4
        .encode(&Variant::Vector2i(gdvariant::math::Vector2 { x: 1, y: 2 }), &mut BytesMut::new());
    assert!(godot4.is_ok(), "Godot 4 has Vector2i");
    let mut codec3 = FrameCodec::new(LengthPrefix::stream_peer(false), Options::godot3());
    let mut out3 = BytesMut::from(&b"kept"[..]);
    let not_in_3 =
        codec3.encode(&Variant::Vector2i(gdvariant::math::Vector2 { x: 1, y: 2 }), &mut out3);
    assert!(matches!(
        not_in_3,
        Err(SendError::Encode(gdvariant::encoder::EncodeError::NotInVersion { .. }))
    ));
    assert_eq!(&out3[..], b"kept");
    assert_eq!(&out[..4], b"kept");
}

#[test]
fn every_corpus_value_is_a_datagram_and_refused_packets_are_bad_frames() {
    for version in VERSIONS {
        let mut codec = DatagramCodec::new(options_for(version, false));
        let mut position = 0u64;
        for path in corpus_files(version, 1 << 20) {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let case = manifest_case(version, &name);
            let bytes = std::fs::read(&path).unwrap();
            let mut buffer = BytesMut::from(&bytes[..]);
            let Some(item) = codec.decode(&mut buffer).unwrap() else {
                assert!(bytes.is_empty(), "{name}: only an empty buffer is no packet");
                continue;
            };
            assert!(buffer.is_empty());
            let verdict = gdvariant::validate(&bytes, options_for(version, false));
            match (item, verdict) {
                (Ok(packet), Ok(())) => {
                    assert_eq!(
                        (packet.offset(), packet.raw_bytes()),
                        (position, &bytes[..]),
                        "{name}"
                    );
                    let mut out = BytesMut::new();
                    codec.encode(&packet, &mut out).unwrap();
                    assert_eq!(&out[..], &bytes[..], "{name}: no prefix on datagrams");
                }
                (Err(bad), Err(error)) => {
                    assert_eq!(
                        bad.kind(),
                        FrameErrorKind::Value(error.offset_by(position as usize)),
                        "{name}"
                    );
                    assert_eq!((bad.offset(), bad.len()), (position, bytes.len() as u64));
                }
                (item, verdict) => {
                    panic!("{name} ({case}): {item:?} but validate says {verdict:?}")
                }
            }
            position += bytes.len() as u64;
        }
        assert_eq!(codec.position(), position);
    }
    let mut small = DatagramCodec::new(Options::godot4()).with_max_size(8);
    let mut buffer = BytesMut::from(&hp()[..]);
    let bad = small.decode(&mut buffer).unwrap().unwrap().unwrap_err();
    assert_eq!(bad.reason(), "too_large");
    assert!(small.decode(&mut BytesMut::new()).unwrap().is_none());
    let mut out = BytesMut::new();
    assert!(matches!(small.encode(&hp()[..], &mut out), Err(SendError::Frame(_))));
    assert!(out.is_empty());
}

#[test]
fn udp_framed_carries_values_over_loopback() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_util::udp::UdpFramed;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let a = tokio::net::UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let b = tokio::net::UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let to = b.local_addr().unwrap();
        let mut sender = UdpFramed::new(a, DatagramCodec::new(Options::godot3()));
        let mut receiver = UdpFramed::new(b, DatagramCodec::new(Options::godot3()));
        let values: Vec<Vec<u8>> = ["int_42", "dict_nested", "pool_color_basic"]
            .iter()
            .map(|name| corpus(Version::Godot3, name))
            .collect();
        for value in &values {
            sender.send((Bytes::from(value.clone()), to)).await.unwrap();
        }
        sender.send((Bytes::from_static(&[0xEE, 0, 0, 0]), to)).await.unwrap();
        for value in &values {
            let (item, _) =
                tokio::time::timeout(std::time::Duration::from_secs(10), receiver.next())
                    .await
                    .unwrap()
                    .unwrap()
                    .unwrap();
            assert_eq!(item.unwrap().raw_bytes(), &value[..]);
        }
        let (item, _) = receiver.next().await.unwrap().unwrap();
        assert_eq!(item.unwrap_err().reason(), "invalid_value");
    });
}

#[test]
fn framed_read_over_a_stream_written_one_byte_at_a_time() {
    use futures_util::StreamExt;
    use tokio::io::AsyncWriteExt;
    let bytes = corpus(Version::Godot4, "stream_packetpeerstream_put_var");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let (mut writer, reader) = tokio::io::duplex(16);
        let feed = bytes.clone();
        let writing = tokio::spawn(async move {
            for byte in feed {
                writer.write_all(&[byte]).await.unwrap();
            }
        });
        let codec = FrameCodec::new(LengthPrefix::packet_peer_stream(), Options::godot4());
        let mut frames = tokio_util::codec::FramedRead::new(reader, codec);
        let mut joined = Vec::new();
        while let Some(item) = frames.next().await {
            joined.extend_from_slice(item.unwrap().unwrap().raw_bytes());
        }
        writing.await.unwrap();
        assert_eq!(joined, bytes);
    });
}
