//! Damaged input: truncations, corrupt values, short and zero-length frames, trailing bytes.

use super::*;

#[test]
fn every_truncation_yields_the_frames_before_the_cut_then_incomplete() {
    for stream in streams() {
        let at = stream.boundaries();
        for cut in 0..=stream.bytes.len() {
            let bytes = &stream.bytes[..cut];
            // Frames that end at or before the cut.
            let complete = at[1..].iter().filter(|&&end| end <= cut).count();
            let start = at[complete];
            let expected_error = (cut > start).then(|| {
                let needed =
                    if cut - start < 4 { 4 - (cut - start) } else { at[complete + 1] - cut };
                FrameError::new(start as u64, FrameErrorKind::Incomplete { needed })
            });

            let mut frames = framing::frames(bytes, stream.prefix, stream.options);
            for i in 0..complete {
                let frame = frames.next().unwrap().unwrap();
                assert_eq!(frame.raw_bytes(), &stream.bytes[at[i]..at[i + 1]]);
            }
            assert_eq!(
                frames.next().map(Result::unwrap_err),
                expected_error,
                "{} cut at {cut}",
                stream.name
            );
            assert!(frames.next().is_none(), "fused");
            if expected_error.is_some() {
                assert_eq!(frames.position(), start);
                assert_eq!(frames.remainder(), &stream.bytes[start..cut]);
            }

            let mut reader = FrameReader::new(bytes, stream.prefix, stream.options);
            for i in 0..complete {
                let frame = reader.next_frame().unwrap().unwrap();
                assert_eq!(frame.raw_bytes(), &stream.bytes[at[i]..at[i + 1]]);
            }
            assert_eq!(reader.next_frame().map(Result::unwrap_err), expected_error);
            assert!(reader.next_frame().is_none(), "fused");

            let mut reader =
                FrameReader::new(Trickle { bytes, chunk: 1 }, stream.prefix, stream.options);
            assert_eq!(read_all(&mut reader).err(), expected_error);

            if complete == 0 {
                let first = framing::read_frame(bytes, stream.prefix, stream.options);
                assert_eq!(
                    first.err(),
                    expected_error
                        .or(Some(FrameError::new(0, FrameErrorKind::Incomplete { needed: 4 })))
                );
            }
        }
    }
}

/// The Godot 4 `store_var` stream with byte `at` set to `byte`.
fn damaged(at: usize, byte: u8) -> Vec<u8> {
    let mut bytes = corpus(Version::Godot4, "stream_file_store_var");
    bytes[at] = byte;
    bytes
}

#[test]
fn a_corrupt_value_is_reported_at_its_absolute_offset_and_iteration_goes_on() {
    let stream = streams()
        .into_iter()
        .find(|s| s.version == Version::Godot4 && s.name == "stream_file_store_var")
        .unwrap();
    let at = stream.boundaries();
    let prefix = stream.prefix;
    let options = stream.options;
    for bad in 0..stream.sizes.len() {
        // An unknown type id in the value's header, and an invalid byte in the "hello" text.
        let mut cases = vec![(at[bad] + 4, 0xFF)];
        if bad == 1 {
            cases.push((at[1] + 4 + 8, 0xFF));
        }
        for (pos, byte) in cases {
            let bytes = damaged(pos, byte);
            let payload = &bytes[at[bad] + 4..at[bad + 1]];
            let inner = gdvariant::validate(payload, options).unwrap_err();
            let absolute = inner.offset_by(at[bad] + 4);
            let expected = FrameError::new(at[bad] as u64, FrameErrorKind::Value(absolute));
            if pos == at[bad] + 4 {
                assert_eq!(absolute.offset(), pos);
                assert!(matches!(absolute.kind(), ErrorKind::UnknownType { id: 0xFF }));
            } else {
                assert_eq!(absolute.kind(), ErrorKind::InvalidUtf8);
                assert!(absolute.offset() > at[1] + 4 && absolute.offset() <= pos);
            }

            let results: Vec<_> = framing::frames(&bytes, prefix, options).collect();
            assert_eq!(results.len(), stream.sizes.len(), "no frame lost");
            for (i, result) in results.iter().enumerate() {
                match result {
                    Ok(frame) => {
                        assert_ne!(i, bad);
                        assert_eq!(frame.raw_bytes(), &bytes[at[i]..at[i + 1]]);
                    }
                    Err(error) => {
                        assert_eq!(i, bad);
                        assert_eq!(*error, expected);
                        assert!(
                            error
                                .to_string()
                                .contains(&format!("frame at byte offset {}", at[bad]))
                        );
                        let source = std::error::Error::source(error).unwrap().to_string();
                        assert_eq!(source, absolute.to_string());
                    }
                }
            }

            let mut reader = FrameReader::new(Trickle { bytes: &bytes, chunk: 2 }, prefix, options);
            let mut seen = 0;
            while let Some(result) = reader.next_frame() {
                match result {
                    Ok(frame) => assert_eq!(frame.offset(), at[seen] as u64),
                    Err(error) => assert_eq!((seen, error), (bad, expected)),
                }
                seen += 1;
            }
            assert_eq!(seen, stream.sizes.len());

            // The raw iterator does not look at values.
            assert_eq!(
                framing::raw_frames(&bytes, prefix).filter(Result::is_ok).count(),
                stream.sizes.len()
            );
        }
    }
}

#[test]
fn a_frame_shorter_than_its_value_fails_as_a_value_and_the_next_frame_follows_it() {
    // Godot 4.6: var_to_bytes(42) is 8 bytes; a prefix of 4 leaves its last 4 bytes as the next
    // frame's prefix (42 → a 42-byte frame that the buffer does not hold).
    let value = corpus(Version::Godot4, "int_42");
    let bytes = [&4u32.to_le_bytes()[..], &value].concat();
    let mut frames = framing::frames(&bytes, LengthPrefix::store_var(false), Options::godot4());
    let error = frames.next().unwrap().unwrap_err();
    let FrameErrorKind::Value(inner) = error.kind() else { panic!("{error}") };
    // The integer's 4 bytes after its header are missing: at payload offset 4, absolute 8.
    assert_eq!((error.offset(), inner.offset()), (0, 8));
    assert_eq!(inner.kind(), ErrorKind::Truncated { needed: 4 });
    assert_eq!(
        frames.next().unwrap().unwrap_err(),
        FrameError::new(8, FrameErrorKind::Incomplete { needed: 42 })
    );
    assert!(frames.next().is_none());
}

#[test]
fn trailing_bytes_in_a_frame_are_ignored() {
    let value = corpus(Version::Godot4, "int_42");
    let bytes = [&12u32.to_le_bytes()[..], &value, &[9, 9, 9, 9]].concat();
    let (frame, used) =
        framing::read_frame(&bytes, LengthPrefix::stream_peer(false), Options::godot4()).unwrap();
    assert_eq!(used, 16);
    assert_eq!(frame.value().as_int(), Some(42));
    assert_eq!(frame.payload().len(), 12);
    assert_eq!(frame.element().raw_bytes(), &value[..]);
    assert_eq!(frame.trailing_bytes(), &[9, 9, 9, 9]);
    assert_eq!(frame.raw().payload(), frame.payload());
    assert!(format!("{frame:?}").contains("Int"));
}

#[test]
fn zero_length_frames_fail_as_values_and_iteration_goes_on() {
    let value = corpus(Version::Godot4, "int_42");
    let mut bytes = Vec::new();
    framing::append_frame(&mut bytes, LengthPrefix::store_var(false), &[]).unwrap();
    framing::append_frame(&mut bytes, LengthPrefix::store_var(false), &value).unwrap();
    framing::append_frame(&mut bytes, LengthPrefix::store_var(false), &[]).unwrap();
    assert_eq!(bytes.len(), 4 + 12 + 4);

    let empty = |offset: u64| {
        let inner = gdvariant::Error::new(offset as usize + 4, ErrorKind::Truncated { needed: 4 });
        FrameError::new(offset, FrameErrorKind::Value(inner))
    };
    let results: Vec<_> =
        framing::frames(&bytes, LengthPrefix::store_var(false), Options::godot4()).collect();
    assert_eq!(results.len(), 3);
    assert_eq!(results[0], Err(empty(0)));
    assert_eq!(results[1].unwrap().value().as_int(), Some(42));
    assert_eq!(results[2], Err(empty(16)));

    let mut reader =
        FrameReader::new(&bytes[..], LengthPrefix::store_var(false), Options::godot4());
    assert_eq!(reader.next_frame().unwrap().unwrap_err(), empty(0));
    assert_eq!(reader.next_frame().unwrap().unwrap().value().as_int(), Some(42));
    assert_eq!(reader.next_frame().unwrap().unwrap_err(), empty(16));
    assert!(reader.next_frame().is_none());

    let (raw, used) = framing::split_frame(&bytes, LengthPrefix::store_var(false)).unwrap();
    assert_eq!((raw.payload(), used), (&[][..], 4));
}
