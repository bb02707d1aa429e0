//! The corpus streams read through the buffer iterators, `read_frame` and the `io::Read` reader.

use super::*;

#[test]
fn buffer_iterators_read_every_corpus_stream() {
    for stream in streams() {
        let frames: Vec<Frame<'_>> = framing::frames(&stream.bytes, stream.prefix, stream.options)
            .collect::<Result<_, _>>()
            .unwrap();
        check_frames(&stream, "frames", frames);

        let raw: Vec<usize> = framing::raw_frames(&stream.bytes, stream.prefix)
            .map(|f| f.unwrap().payload().len())
            .collect();
        assert_eq!(raw, stream.sizes, "{}: raw_frames", stream.name);

        // read_frame from the front of the buffer, dropping each frame's bytes.
        let mut rest = &stream.bytes[..];
        let mut payloads = Vec::new();
        while !rest.is_empty() {
            let (frame, used) = framing::read_frame(rest, stream.prefix, stream.options).unwrap();
            assert_eq!(used, frame.raw_bytes().len());
            payloads.push(frame.payload());
            rest = &rest[used..];
        }
        assert_eq!(payloads, stream.payloads(), "{}: read_frame", stream.name);
    }
}

#[test]
fn read_frame_on_a_receive_buffer_fed_chunk_by_chunk() {
    for stream in streams() {
        for chunk in [1, 3, 7, 64] {
            let mut pending: Vec<u8> = Vec::new();
            let mut consumed = 0u64;
            let mut got = Vec::new();
            for piece in stream.bytes.chunks(chunk) {
                pending.extend_from_slice(piece);
                loop {
                    match framing::read_frame(&pending, stream.prefix, stream.options) {
                        Ok((frame, used)) => {
                            got.push((consumed, frame.payload().to_vec()));
                            consumed += used as u64;
                            pending.drain(..used);
                        }
                        Err(e) => {
                            let FrameErrorKind::Incomplete { needed } = e.kind() else {
                                panic!("{}: {e}", stream.name);
                            };
                            assert!(needed > 0);
                            assert_eq!(e.offset(), 0);
                            break;
                        }
                    }
                }
            }
            assert!(pending.is_empty());
            let offsets: Vec<u64> =
                stream.boundaries()[..stream.sizes.len()].iter().map(|&o| o as u64).collect();
            assert_eq!(got.iter().map(|(o, _)| *o).collect::<Vec<_>>(), offsets);
            let payloads: Vec<&[u8]> = got.iter().map(|(_, p)| &p[..]).collect();
            assert_eq!(payloads, stream.payloads(), "{} in chunks of {chunk}", stream.name);
        }
    }
}

#[test]
fn io_reader_reads_every_corpus_stream() {
    for stream in streams() {
        let bytes = &stream.bytes[..];
        let expected_offsets: Vec<u64> =
            stream.boundaries()[..stream.sizes.len()].iter().map(|&o| o as u64).collect();

        // A plain slice; the frames are checked in place, borrowed from the reader's buffer.
        let mut reader = FrameReader::new(bytes, stream.prefix, stream.options);
        let mut i = 0;
        while let Some(frame) = reader.next_frame() {
            let frame = frame.unwrap();
            check_frame(&stream, "io", i, frame);
            i += 1;
        }
        assert_eq!(i, stream.sizes.len());
        assert_eq!(reader.position(), bytes.len() as u64);
        assert!(reader.next_frame().is_none(), "fused");
        assert!(reader.into_inner().is_empty(), "everything consumed");

        // One byte per read, a few bytes between `Interrupted` errors.
        let mut one = FrameReader::new(Trickle { bytes, chunk: 1 }, stream.prefix, stream.options);
        let owned = read_all(&mut one).unwrap();
        assert_eq!(owned.iter().map(|(o, _)| *o).collect::<Vec<_>>(), expected_offsets);
        check_owned_frames(&stream, "io one byte", &owned);

        let flaky = Flaky { bytes, kind: io::ErrorKind::Interrupted, calls: 0, served: 0 };
        let mut reader = FrameReader::new(flaky, stream.prefix, stream.options);
        let owned = read_all(&mut reader).unwrap();
        check_owned_frames(&stream, "io interrupted", &owned);
        assert_eq!(reader.get_ref().served, bytes.len());

        // Unchecked frames from the reader, checked afterwards.
        let mut reader = FrameReader::new(bytes, stream.prefix, stream.options);
        let mut sizes = Vec::new();
        while let Some(raw) = reader.next_raw() {
            let raw = raw.unwrap();
            sizes.push(raw.payload().len());
            raw.decode(stream.options).unwrap();
        }
        assert_eq!(sizes, stream.sizes);
    }
}

#[test]
fn io_reader_resumes_after_would_block_and_surfaces_other_errors() {
    for stream in streams() {
        let bytes = &stream.bytes[..];
        let flaky = Flaky { bytes, kind: io::ErrorKind::WouldBlock, calls: 0, served: 0 };
        let mut reader = FrameReader::new(flaky, stream.prefix, stream.options);
        let mut owned = Vec::new();
        let mut would_block = 0;
        while let Some(frame) = reader.next_frame() {
            match frame {
                Ok(frame) => owned.push((frame.offset(), frame.raw_bytes().to_vec())),
                Err(e) => {
                    assert_eq!(e.kind(), FrameErrorKind::Io(io::ErrorKind::WouldBlock));
                    would_block += 1;
                }
            }
        }
        assert!(would_block > stream.sizes.len());
        check_owned_frames(&stream, "io would block", &owned);
    }

    struct Broken;
    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::new(io::ErrorKind::ConnectionReset, "gone"))
        }
    }
    let mut reader = FrameReader::new(Broken, LengthPrefix::stream_peer(false), Options::godot4());
    let error = reader.next_frame().unwrap().unwrap_err();
    assert_eq!(error, FrameError::new(0, FrameErrorKind::Io(io::ErrorKind::ConnectionReset)));
    assert_eq!(io::Error::from(error).kind(), io::ErrorKind::ConnectionReset);
}
