//! The writers rebuild every stream byte for byte; big-endian prefixes round-trip.

use super::*;

#[test]
fn writers_rebuild_every_stream_byte_for_byte() {
    for stream in streams() {
        let payloads = stream.payloads();

        let mut vec = Vec::new();
        for payload in &payloads {
            framing::append_frame(&mut vec, stream.prefix, payload).unwrap();
        }
        assert_eq!(vec, stream.bytes, "{}: append_frame", stream.name);

        let mut slice = vec![0xAA; stream.bytes.len()];
        let mut at = 0;
        for payload in &payloads {
            at += framing::write_frame(&mut slice[at..], stream.prefix, payload).unwrap();
        }
        assert_eq!(at, slice.len());
        assert_eq!(slice, stream.bytes, "{}: write_frame", stream.name);

        let mut writer = FrameWriter::new(Vec::new(), stream.prefix);
        for payload in &payloads {
            writer.write_frame(payload).unwrap();
        }
        writer.flush().unwrap();
        assert_eq!(writer.position(), stream.bytes.len() as u64);
        assert_eq!(writer.prefix(), stream.prefix);
        assert_eq!(writer.into_inner(), stream.bytes, "{}: FrameWriter", stream.name);
    }
}

#[test]
fn file_streampeer_and_packetpeerstream_frames_are_the_same_bytes_without_byte_order_flags() {
    let value = corpus(Version::Godot4, "int_42");
    let frame = |prefix| {
        let mut out = Vec::new();
        framing::append_frame(&mut out, prefix, &value).unwrap();
        out
    };
    let file = frame(LengthPrefix::store_var(false));
    assert_eq!(file, frame(LengthPrefix::stream_peer(false)));
    assert_eq!(file, frame(LengthPrefix::packet_peer_stream()));
    assert_eq!(file, frame(LengthPrefix::default()));
    assert_eq!(&file[..4], &[8, 0, 0, 0]);
    assert_eq!(&frame(LengthPrefix::store_var(true))[..4], &[0, 0, 0, 8]);
    assert_eq!(&frame(LengthPrefix::stream_peer(true))[..4], &[0, 0, 0, 8]);
    assert_eq!(LengthPrefix::packet_peer_stream().byte_order(), ByteOrder::LittleEndian);
    assert!(LengthPrefix::stream_peer(true).is_signed());
    assert!(!LengthPrefix::store_var(true).is_signed());
}

#[test]
fn big_endian_prefixes_round_trip() {
    for stream in streams() {
        let payloads = stream.payloads();
        for prefix in [LengthPrefix::store_var(true), LengthPrefix::stream_peer(true)] {
            assert_eq!(prefix.byte_order(), ByteOrder::BigEndian);
            let mut writer = FrameWriter::new(Vec::new(), prefix);
            for payload in &payloads {
                writer.write_frame(payload).unwrap();
            }
            let be = writer.into_inner();
            // Only the prefixes differ from the little-endian capture.
            let at = stream.boundaries();
            for (i, size) in stream.sizes.iter().enumerate() {
                assert_eq!(be[at[i]..at[i] + 4], (*size as u32).to_be_bytes());
                assert_eq!(be[at[i] + 4..at[i + 1]], stream.bytes[at[i] + 4..at[i + 1]]);
            }
            let be_stream = Stream { bytes: be.clone(), prefix, ..clone_stream(&stream) };
            let frames: Vec<Frame<'_>> =
                framing::frames(&be, prefix, stream.options).collect::<Result<_, _>>().unwrap();
            check_frames(&be_stream, "big-endian frames", frames);
            let mut reader =
                FrameReader::new(Trickle { bytes: &be, chunk: 5 }, prefix, stream.options);
            let owned = read_all(&mut reader).unwrap();
            check_owned_frames(&be_stream, "big-endian io", &owned);

            // Read with the wrong byte order, the first length (8 → 0x08000000) is over the
            // limit and nothing is yielded.
            let wrong = LengthPrefix::store_var(false);
            let mut frames = framing::frames(&be, wrong, stream.options);
            let error = frames.next().unwrap().unwrap_err();
            assert!(matches!(error.kind(), FrameErrorKind::TooLarge { .. }), "{error}");
            assert!(frames.next().is_none());
        }
    }
}
