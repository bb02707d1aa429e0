//! Godot 3.2.3's own big-endian captures, and its reader's verdicts on odd prefixes.

use super::*;

fn probe_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/probes/framing")
}

#[test]
fn godot3_big_endian_captures_read_back() {
    let reference = streams()
        .into_iter()
        .find(|s| s.version == Version::Godot3 && s.name == "stream_file_store_var")
        .unwrap();
    for (file, prefix) in [
        ("stream_file_store_var_be.bin", LengthPrefix::store_var(true)),
        ("stream_streampeer_put_var_be.bin", LengthPrefix::stream_peer(true)),
        // PacketPeerStream writes little-endian lengths even over a big-endian StreamPeer.
        ("stream_packetpeerstream_put_var_be.bin", LengthPrefix::packet_peer_stream()),
    ] {
        let bytes = std::fs::read(probe_dir().join(file)).unwrap();
        let stream = Stream { bytes, prefix, name: file.to_owned(), ..clone_stream(&reference) };
        let frames: Vec<Frame<'_>> = framing::frames(&stream.bytes, prefix, stream.options)
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        check_frames(&stream, file, frames);
        let mut reader = FrameReader::new(&stream.bytes[..], prefix, stream.options);
        let owned = read_all(&mut reader).unwrap();
        check_owned_frames(&stream, file, &owned);
    }
}

/// Godot 3.2.3's `StreamPeer.get_var` / `File.get_var` on odd prefixes (`verdicts.txt`, made by
/// `capture3.gd`), against this crate's reader on the same bytes.
#[test]
fn godot3_reader_verdicts_on_odd_prefixes() {
    let text = std::fs::read_to_string(probe_dir().join("verdicts.txt")).unwrap();
    let int7: &[u8] = &[2, 0, 0, 0, 7, 0, 0, 0];
    let with = |head: [u8; 4], tail: &[u8]| [&head[..], int7, tail].concat();
    let mut checked = 0;
    for line in text.lines() {
        let (name, result) = line.split_once('\t').unwrap();
        if name == "file_be_readback" {
            assert_eq!(result, "ok");
            continue;
        }
        let (value, position) = result.split_once(" position=").unwrap();
        let godot_position: usize = position.parse().unwrap();
        let (bytes, prefix) = match name.split_once('_').unwrap().1 {
            "len_exact" => (with([8, 0, 0, 0], &[]), false),
            "len_longer" => (with([12, 0, 0, 0], &[9, 9, 9, 9]), false),
            "len_shorter" => (with([4, 0, 0, 0], &[]), false),
            "len_zero" => (with([0, 0, 0, 0], &[]), false),
            "len_negative" => (with([255, 255, 255, 255], &[]), false),
            "len_past_end" => (with([9, 0, 0, 0], &[]), false),
            "be_len" => (with([0, 0, 0, 8], &[]), true),
            other => panic!("unknown verdict {other}"),
        };
        let prefix = if name.starts_with("file") {
            LengthPrefix::store_var(prefix)
        } else {
            LengthPrefix::stream_peer(prefix)
        };
        let mut frames = framing::frames(&bytes, prefix, Options::godot3());
        let first = frames.next().unwrap();
        match (value, first) {
            ("7", Ok(frame)) => {
                assert_eq!(frame.value().as_int(), Some(7), "{name}");
                assert_eq!(frame.raw_bytes().len(), godot_position, "{name}: bytes consumed");
            }
            ("null", Err(error)) => {
                // Where Godot's reader stopped is where the next frame is looked for, for the
                // errors after which iteration goes on.
                if matches!(error.kind(), FrameErrorKind::Value(_)) {
                    assert_eq!(frames.position(), godot_position, "{name}: bytes consumed");
                }
            }
            // Godot 3.2.3's File.get_var pads a frame cut short by the end of the file and
            // decodes it; here it is incomplete (see the framing module docs).
            ("7", Err(error)) if name == "file_len_past_end" => {
                assert_eq!(error.kind(), FrameErrorKind::Incomplete { needed: 1 });
            }
            (value, ours) => panic!("{name}: Godot {value}, ours {ours:?}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 12);
}
