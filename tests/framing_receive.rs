//! The blocking framing API's receive-buffer and write-in-place calls: `framing::receive`
//! (absolute offsets, how long a bad frame is), `Frame::offset_by`, `append_frame_with` and
//! `write_frame_with` (the value built straight after a reserved prefix), on the engines'
//! captures and on crafted bad frames.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use common::*;
use gdvariant::framing::{self, FrameErrorKind, LengthPrefix, Received, WriteError};
use gdvariant::{EncodeOptions, ErrorKind, Options, Version, encoder::EncodeError};

#[test]
fn receive_reads_a_capture_frame_by_frame_at_absolute_offsets() {
    for (version, options) in
        [(Version::Godot3, Options::godot3()), (Version::Godot4, Options::godot4())]
    {
        let bytes = corpus(version, "stream_streampeer_put_var");
        let prefix = LengthPrefix::stream_peer(false);
        let expected: Vec<_> =
            framing::frames(&bytes, prefix, options).map(|f| f.unwrap()).collect();
        let base = 1 << 40; // the buffer starts a terabyte into the connection
        let mut at = 0;
        for frame in &expected {
            // Every cut of the frame is Incomplete with the exact bytes missing.
            for cut in [0, 3, 4, frame.len() - 1] {
                let needed = if cut < 4 { 4 - cut } else { frame.len() - cut };
                assert_eq!(
                    framing::receive(&bytes[at..at + cut], base + at as u64, prefix, options),
                    Received::Incomplete { needed }
                );
            }
            let Received::Frame(got) =
                framing::receive(&bytes[at..], base + at as u64, prefix, options)
            else {
                panic!("frame at {at}");
            };
            assert_eq!(got, frame.offset_by(base));
            assert_eq!(got.offset(), base + frame.offset());
            assert_eq!(got.raw_bytes(), frame.raw_bytes());
            assert_eq!((got.len(), got.is_empty()), (frame.raw_bytes().len(), false));
            at += got.len();
        }
        assert_eq!(at, bytes.len());
    }
}

#[test]
fn a_bad_frame_says_how_many_bytes_to_drop() {
    let prefix = LengthPrefix::stream_peer(false).with_max_frame_size(100);
    let options = Options::godot4();
    let base = 500;
    type Case<'a> = (&'a [u8], u64, fn(FrameErrorKind) -> bool);
    let cases: [Case<'_>; 4] = [
        (
            &[8, 0, 0, 0, 0xEE, 0, 0, 0, 1, 0, 0, 0, 9],
            12,
            |k| matches!(k, FrameErrorKind::Value(e) if e.offset() == 504 && e.kind() == ErrorKind::UnknownType { id: 0xEE }),
        ),
        (&[0, 0, 0, 0, 1, 2], 4, |k| matches!(k, FrameErrorKind::Value(_))),
        (&[0xFF, 0xFF, 0xFF, 0xFF, 1, 2], 4, |k| {
            matches!(k, FrameErrorKind::NegativeLength { length: -1 })
        }),
        (&[0x10, 0x27, 0, 0, 1, 2], 10_004, |k| {
            matches!(k, FrameErrorKind::TooLarge { length: 10_000, max: 100 })
        }),
    ];
    for (bytes, len, kind) in cases {
        let Received::Bad { error, len: got } = framing::receive(bytes, base, prefix, options)
        else {
            panic!("{bytes:?} is a bad frame");
        };
        assert_eq!((error.offset(), got), (base, len), "{bytes:?}");
        assert!(kind(error.kind()), "{bytes:?}: {error}");
    }
}

#[test]
fn values_are_built_straight_into_frames() {
    let prefix = LengthPrefix::store_var(true);
    let options = EncodeOptions::godot4();
    let value = corpus(Version::Godot4, "dict_nested");
    let parsed = gdvariant::parse(&value, Options::godot4()).unwrap();
    let a = parsed.as_dictionary().unwrap().get_element("a").unwrap().unwrap();
    fn build<O: gdvariant::encoder::Output>(
        w: &mut gdvariant::Writer<O>,
        a: &gdvariant::view::Element<'_>,
    ) -> Result<(), EncodeError> {
        w.begin_array(2)?;
        w.splice(a)?;
        w.string("tail")
    }
    let mut expected_value = gdvariant::Writer::new(Vec::new(), options);
    build(&mut expected_value, &a).unwrap();
    let expected_value = expected_value.finish().unwrap();
    let mut expected = Vec::from(b"head".as_slice());
    framing::append_frame(&mut expected, prefix, &expected_value).unwrap();

    let mut out = Vec::from(b"head".as_slice());
    let len = framing::append_frame_with(&mut out, prefix, options, |w| build(w, &a)).unwrap();
    assert_eq!((len, &out), (expected.len() - 4, &expected));

    let mut slice = [0u8; 256];
    let len = framing::write_frame_with(&mut slice, prefix, options, |w| build(w, &a)).unwrap();
    assert_eq!(&slice[..len], &expected[4..]);

    // Errors leave a Vec as it was.
    let mut out = Vec::from(b"head".as_slice());
    let small = prefix.with_max_frame_size(8);
    let error = framing::append_frame_with(&mut out, small, options, |w| build(w, &a)).unwrap_err();
    assert!(matches!(error, WriteError::Frame(e) if e.offset() == 4
        && matches!(e.kind(), FrameErrorKind::TooLarge { max: 8, .. })));
    let error =
        framing::append_frame_with(&mut out, prefix, options, |w| w.begin_array(1)).unwrap_err();
    assert_eq!(error, WriteError::Encode(EncodeError::Unfinished { missing: 1 }));
    assert_eq!(out, b"head");
    // A slice too small, for the prefix or for the value.
    let error = framing::write_frame_with(&mut [0u8; 3], prefix, options, |w| w.nil()).unwrap_err();
    assert!(
        matches!(error, WriteError::Frame(e) if matches!(e.kind(), FrameErrorKind::OutputFull { needed: 4, available: 3 }))
    );
    let error =
        framing::write_frame_with(&mut [0u8; 6], prefix, options, |w| w.int(1)).unwrap_err();
    assert!(matches!(error, WriteError::Encode(EncodeError::OutputFull { .. })));
}
