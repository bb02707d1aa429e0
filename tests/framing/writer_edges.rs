//! Writers on the edge: a full output, errors of the underlying writer.

use super::*;

#[test]
fn the_slice_writer_reports_a_full_output_without_writing() {
    let value = corpus(Version::Godot4, "string_len5");
    let needed = value.len() + 4;
    for available in 0..needed {
        let mut out = vec![0xEE; available];
        let error =
            framing::write_frame(&mut out, LengthPrefix::store_var(false), &value).unwrap_err();
        assert_eq!(error, FrameError::new(0, FrameErrorKind::OutputFull { needed, available }));
        assert!(out.iter().all(|&b| b == 0xEE), "nothing written");
        assert_eq!(io::Error::from(error).kind(), io::ErrorKind::WriteZero);
    }
    let mut out = vec![0xEE; needed + 3];
    assert_eq!(framing::write_frame(&mut out, LengthPrefix::store_var(false), &value), Ok(needed));
    assert_eq!(&out[needed..], &[0xEE; 3]);
    assert_eq!(framing::frame_len(value.len()), Some(needed));
    assert_eq!(framing::frame_len(usize::MAX), None);
    let (frame, used) =
        framing::read_frame(&out, LengthPrefix::store_var(false), Options::godot4()).unwrap();
    assert_eq!((frame.payload(), used), (&value[..], needed));
}

#[test]
fn the_io_writer_surfaces_errors_at_the_frame_offset() {
    /// Accepts `room` bytes, then fails; interrupts every write once first.
    struct Tight {
        room: usize,
        interrupted: bool,
        out: Vec<u8>,
    }
    impl Write for Tight {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.interrupted = !self.interrupted;
            if self.interrupted {
                return Err(io::ErrorKind::Interrupted.into());
            }
            let n = buf.len().min(self.room - self.out.len());
            if n == 0 {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            self.out.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let value = corpus(Version::Godot4, "int_42");
    let mut writer = FrameWriter::new(
        Tight { room: 20, interrupted: false, out: Vec::new() },
        LengthPrefix::stream_peer(false),
    );
    writer.write_frame(&value).unwrap();
    assert_eq!(writer.position(), 12);
    let error = writer.write_frame(&value).unwrap_err();
    assert_eq!(error, FrameError::new(12, FrameErrorKind::Io(io::ErrorKind::BrokenPipe)));
    assert_eq!(writer.position(), 12);
    assert_eq!(writer.get_ref().out.len(), 20);
    writer.get_mut().room = 100;
    writer.flush().unwrap();
}
