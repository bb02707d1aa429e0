//! Hostile lengths: oversized and negative prefixes refused before the payload, memory only as
//! bytes arrive, the frame size limit.

use super::*;

#[test]
fn oversized_and_negative_lengths_are_refused_before_reading_the_payload() {
    let limit = DEFAULT_MAX_FRAME_SIZE;
    let cases: Vec<(LengthPrefix, u32, FrameErrorKind)> = vec![
        (
            LengthPrefix::store_var(false),
            u32::MAX,
            FrameErrorKind::TooLarge { length: u32::MAX.into(), max: limit },
        ),
        (
            LengthPrefix::store_var(false),
            limit + 1,
            FrameErrorKind::TooLarge { length: (limit + 1).into(), max: limit },
        ),
        (
            LengthPrefix::packet_peer_stream().with_max_frame_size(1 << 16),
            1 << 17,
            FrameErrorKind::TooLarge { length: 1 << 17, max: 1 << 16 },
        ),
        (LengthPrefix::stream_peer(false), u32::MAX, FrameErrorKind::NegativeLength { length: -1 }),
        (
            LengthPrefix::stream_peer(false).with_max_frame_size(u32::MAX),
            0x8000_0000,
            FrameErrorKind::NegativeLength { length: i32::MIN },
        ),
        (
            LengthPrefix::stream_peer(true),
            0x8000_0000,
            FrameErrorKind::NegativeLength { length: i32::MIN },
        ),
        // An unsigned reader with the limit raised takes the same length as positive.
        (
            LengthPrefix::store_var(false).with_max_frame_size(u32::MAX),
            0x8000_0000,
            FrameErrorKind::Incomplete { needed: 0x8000_0000 - 16 },
        ),
    ];
    for (prefix, length, kind) in cases {
        let head = match prefix.byte_order() {
            ByteOrder::LittleEndian => length.to_le_bytes(),
            ByteOrder::BigEndian => length.to_be_bytes(),
        };
        // The prefix, then 16 bytes of what would be the payload.
        let bytes = [&head[..], &[0u8; 16]].concat();
        let expected = FrameError::new(0, kind);
        let mut frames = framing::frames(&bytes, prefix, Options::godot4());
        assert_eq!(frames.next(), Some(Err(expected)), "{prefix:?} {length:#x}");
        assert_eq!(frames.next(), None);
        assert_eq!(framing::read_frame(&bytes, prefix, Options::godot4()).err(), Some(expected));
        assert_eq!(framing::split_frame(&bytes, prefix).err(), Some(expected));

        // The reader stops after the prefix when it is refused; otherwise it reads what there is,
        // and its buffer grows with the bytes that arrived, not with the declared length.
        let source = Counting { inner: &bytes[..], read: 0 };
        let mut reader = FrameReader::new(source, prefix, Options::godot4());
        assert_eq!(reader.next_frame().unwrap().unwrap_err(), expected);
        assert!(reader.next_frame().is_none());
        let read = reader.get_ref().read;
        if matches!(kind, FrameErrorKind::Incomplete { .. }) {
            assert_eq!(read, bytes.len());
        } else {
            assert_eq!(read, 4, "nothing read past a refused prefix");
        }
        assert!(reader.capacity() <= 16 << 10, "buffer {} bytes", reader.capacity());
    }
}

#[test]
fn a_lying_prefix_costs_memory_only_as_bytes_arrive() {
    // The prefix announces 2 GiB; 100 KiB follow, one byte at a time, then the input ends.
    let prefix = LengthPrefix::store_var(false).with_max_frame_size(u32::MAX);
    let claimed = 1u32 << 31;
    let body = vec![0u8; 100 << 10];
    let bytes = [&claimed.to_le_bytes()[..], &body].concat();
    let mut reader =
        FrameReader::new(Trickle { bytes: &bytes, chunk: 4096 }, prefix, Options::godot4());
    let error = reader.next_frame().unwrap().unwrap_err();
    assert_eq!(error.kind(), FrameErrorKind::Incomplete { needed: claimed as usize - body.len() });
    assert!(reader.capacity() <= 2 * bytes.len() + (8 << 10), "buffer {} bytes", reader.capacity());
}

#[test]
fn the_frame_size_limit_is_inclusive_and_clamped_to_the_prefix() {
    let value = corpus(Version::Godot4, "int_42");
    let exact = LengthPrefix::store_var(false).with_max_frame_size(8);
    let mut bytes = Vec::new();
    framing::append_frame(&mut bytes, exact, &value).unwrap();
    assert!(framing::read_frame(&bytes, exact, Options::godot4()).is_ok());
    let small = LengthPrefix::store_var(false).with_max_frame_size(7);
    let too_large = FrameError::new(0, FrameErrorKind::TooLarge { length: 8, max: 7 });
    assert_eq!(framing::read_frame(&bytes, small, Options::godot4()).err(), Some(too_large));
    assert_eq!(framing::append_frame(&mut Vec::new(), small, &value), Err(too_large));
    let mut out = [0u8; 64];
    assert_eq!(framing::write_frame(&mut out, small, &value), Err(too_large));
    assert_eq!(out, [0u8; 64], "nothing written");
    assert_eq!(FrameWriter::new(Vec::new(), small).write_frame(&value), Err(too_large));

    assert_eq!(LengthPrefix::default().max_frame_size(), DEFAULT_MAX_FRAME_SIZE);
    assert_eq!(DEFAULT_MAX_FRAME_SIZE, 16 << 20);
    let stream_peer = LengthPrefix::stream_peer(false).with_max_frame_size(u32::MAX);
    assert_eq!(stream_peer.max_frame_size(), i32::MAX as u32);
    let file = LengthPrefix::store_var(false).with_max_frame_size(u32::MAX);
    assert_eq!(file.max_frame_size(), u32::MAX);

    // Lengths the prefix cannot express, checked without making such a payload.
    assert_eq!(file.encode(u32::MAX as usize), Ok(u32::MAX.to_le_bytes()));
    assert_eq!(
        file.encode(u32::MAX as usize + 1),
        Err(FrameError::new(0, FrameErrorKind::TooLarge { length: 1 << 32, max: u32::MAX }))
    );
    assert_eq!(stream_peer.encode(i32::MAX as usize), Ok(i32::MAX.to_le_bytes()));
    assert_eq!(
        stream_peer.encode(i32::MAX as usize + 1),
        Err(FrameError::new(0, FrameErrorKind::TooLarge { length: 1 << 31, max: i32::MAX as u32 }))
    );
    assert_eq!(LengthPrefix::stream_peer(true).encode(8), Ok([0, 0, 0, 8]));
}
