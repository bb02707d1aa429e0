//! Frame errors: display and conversions.

use super::*;

#[test]
fn frame_errors_display_and_convert() {
    let cases = [
        (
            FrameErrorKind::Incomplete { needed: 3 },
            "frame at byte offset 7: input ends 3 bytes before the frame is complete",
            io::ErrorKind::UnexpectedEof,
        ),
        (
            FrameErrorKind::TooLarge { length: 99, max: 10 },
            "frame at byte offset 7: frame length 99 exceeds the limit of 10 bytes",
            io::ErrorKind::InvalidData,
        ),
        (
            FrameErrorKind::NegativeLength { length: -2 },
            "frame at byte offset 7: negative frame length -2",
            io::ErrorKind::InvalidData,
        ),
        (
            FrameErrorKind::Value(gdvariant::Error::new(11, ErrorKind::UnknownType { id: 99 })),
            "frame at byte offset 7: invalid value: unknown type id 99 at byte offset 11",
            io::ErrorKind::InvalidData,
        ),
        (
            FrameErrorKind::OutputFull { needed: 12, available: 4 },
            "frame at byte offset 7: frame needs 12 bytes, the output has 4",
            io::ErrorKind::WriteZero,
        ),
        (
            FrameErrorKind::Io(io::ErrorKind::TimedOut),
            "frame at byte offset 7: I/O error: timed out",
            io::ErrorKind::TimedOut,
        ),
    ];
    for (kind, text, io_kind) in cases {
        let error = FrameError::new(7, kind);
        assert_eq!(error.to_string(), text);
        assert_eq!(error.offset(), 7);
        assert_eq!(error.kind(), kind);
        let io_error = io::Error::from(error);
        assert_eq!(io_error.kind(), io_kind);
        assert_eq!(
            io_error.into_inner().unwrap().downcast::<FrameError>().map(|e| *e).ok(),
            Some(error)
        );
        assert_eq!(
            std::error::Error::source(&error).is_some(),
            matches!(kind, FrameErrorKind::Value(_))
        );
    }

    // Errors of a frame read from a buffer that starts later in a stream.
    let inner = gdvariant::Error::new(5, ErrorKind::InvalidUtf8);
    let moved = FrameError::new(1, FrameErrorKind::Value(inner)).offset_by(100);
    assert_eq!(moved, FrameError::new(101, FrameErrorKind::Value(inner.offset_by(100))));
    assert_eq!(
        FrameError::new(u64::MAX, FrameErrorKind::Incomplete { needed: 1 }).offset_by(1).offset(),
        u64::MAX
    );
    assert!(std::mem::size_of::<FrameError>() <= 40);
}
