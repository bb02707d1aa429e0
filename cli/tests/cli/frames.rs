//! `frames` and `dump --frames` on every stream capture of both engines, and on damaged dumps.

use serde_json::Value;

use crate::support::*;

/// The stream cases of a corpus, with the `--prefix` of each.
fn stream_cases(version: &str) -> Vec<(Value, &'static str)> {
    manifest(version)
        .into_iter()
        .filter_map(|case| {
            let prefix = match case["kind"].as_str()? {
                "file_store_var" => "store-var",
                "streampeer_put_var" => "stream-peer",
                "packetpeerstream_put_var" => "packet-peer-stream",
                _ => return None,
            };
            Some((case, prefix))
        })
        .collect()
}

/// The first line of the frame list.
const HEADER: &str = "index\toffset\tbytes\ttype\tdepth";

#[test]
fn every_stream_case_lists_its_frames() {
    let mut seen = 0;
    for (version, godot) in VERSIONS {
        for (case, prefix) in stream_cases(version) {
            let name = case["name"].as_str().unwrap();
            let file = case_file(version, name);
            let file = file.to_str().unwrap();
            let mut args = vec!["frames", "--godot", godot, "--prefix", prefix, file];
            args.extend(objects_args(&case));
            let output = run(&args);
            assert_eq!(code(&output), 0, "{version}/{name}: {}", stderr(&output));
            let types: Vec<&str> = case["item_types"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect();
            let sizes: Vec<u64> = case["item_encoded_sizes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_u64().unwrap())
                .collect();
            let text = stdout(&output);
            let lines: Vec<&str> = text.lines().skip(1).collect();
            assert_eq!(text.lines().next(), Some(HEADER), "{version}/{name}");
            assert_eq!(lines.len(), types.len(), "{version}/{name}");
            let mut offset = 0;
            for (index, line) in lines.iter().enumerate() {
                let columns: Vec<&str> = line.split('\t').collect();
                assert_eq!(columns[0], index.to_string(), "{version}/{name}: {line}");
                assert_eq!(columns[1], offset.to_string(), "{version}/{name}: {line}");
                assert_eq!(columns[2], (sizes[index] + 4).to_string(), "{version}/{name}");
                assert_eq!(columns[3], types[index], "{version}/{name}: {line}");
                offset += sizes[index] + 4;
            }
            assert_eq!(Some(offset), case["size"].as_u64(), "{version}/{name}");

            // --stats: the totals.
            let output = run(&[args.clone(), vec!["--stats"]].concat());
            assert_eq!(code(&output), 0);
            let text = stdout(&output);
            let first = text.lines().next().unwrap();
            assert_eq!(first, format!("frames: {} ({offset} bytes)", types.len()));
            assert!(text.contains("bad frames: 0 (0 bytes)"), "{text}");

            // dump --frames: one JSON value per line, each Godot's value.
            let mut dump = vec!["dump", "--frames", "--format", "json", "--godot", godot];
            dump.extend(["--prefix", prefix, file]);
            dump.extend(objects_args(&case));
            let output = run(&dump);
            assert_eq!(code(&output), 0, "{}", stderr(&output));
            let expected = case["expected_items"].as_array().unwrap();
            let text = stdout(&output);
            assert_eq!(text.lines().count(), expected.len());
            for (line, want) in text.lines().zip(expected) {
                if let Some(mine) = to_expected(&parse_json(line)) {
                    assert!(agrees(&mine, want), "{version}/{name}: {mine} vs {want}");
                }
            }
            seen += 1;
        }
    }
    assert_eq!(seen, 7);
}

/// A copy of the Godot 4 `store_var` capture in a temporary file, changed by `damage`.
fn damaged(tag: &str, damage: impl FnOnce(&mut Vec<u8>)) -> std::path::PathBuf {
    let mut bytes = std::fs::read(case_file("godot4", "stream_file_store_var")).unwrap();
    damage(&mut bytes);
    let path = std::env::temp_dir().join(format!("gdvariant-cli-{tag}-{}.bin", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn a_bad_value_is_reported_and_skipped() {
    // Frame 1 (at byte 12) holds "hello": make its type id unknown.
    let path = damaged("bad-value", |bytes| bytes[16] = 0xee);
    let file = path.to_str().unwrap();
    let output = run(&["frames", "--godot", "4", file]);
    assert_eq!(code(&output), 1);
    assert_eq!(stdout(&output).lines().count(), 2, "the header and the frame before the bad one");
    let err = stderr(&output);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with(&format!("gdvariant: {file}: frame at byte offset 12: ")), "{err}");
    assert!(err.contains("at byte offset 16"), "{err}");

    let output = run(&["frames", "--godot", "4", "--skip-bad", file]);
    assert_eq!(code(&output), 1, "a bad frame was met");
    assert_eq!(stdout(&output).lines().count(), 11, "the header and every good frame");
    let output = run(&["frames", "--godot", "4", "--skip-bad", "--stats", file]);
    let text = stdout(&output);
    assert!(text.starts_with("frames: 10 (212 bytes)\nbad frames: 1 (20 bytes)\n"), "{text}");
    std::fs::remove_file(path).unwrap();
}

#[test]
fn a_bad_prefix_is_skipped_to_the_next_good_frame() {
    // Frame 3 (at byte 48, an Array of 32 bytes): a length far past the end.
    let path = damaged("bad-prefix", |bytes| bytes[48..52].copy_from_slice(&[0, 0, 0, 0x40]));
    let file = path.to_str().unwrap();
    let output = run(&["frames", "--godot", "4", file]);
    assert_eq!(code(&output), 1);
    assert_eq!(stdout(&output).lines().count(), 4, "the header and three frames");
    assert!(stderr(&output).contains("frame at byte offset 48: "), "{}", stderr(&output));

    let output = run(&["frames", "--godot", "4", "--skip-bad", file]);
    assert_eq!(code(&output), 1);
    let text = stdout(&output);
    let offsets: Vec<&str> = text.lines().skip(1).map(|l| l.split('\t').nth(1).unwrap()).collect();
    assert_eq!(offsets, ["0", "12", "32", "84", "120", "128", "140", "156", "172", "216"]);
    std::fs::remove_file(path).unwrap();
}

#[test]
fn frames_read_standard_input() {
    let bytes = std::fs::read(case_file("godot3", "stream_streampeer_put_var")).unwrap();
    let output =
        run_with_input(&["frames", "--godot", "3", "--prefix", "stream-peer", "-"], &bytes);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(stdout(&output).lines().count(), 11);
}

#[test]
fn the_version_is_detected_from_the_first_frame_either_version_accepts() {
    // A first frame that neither version accepts, then Godot 3 frames (a Godot 3 Dictionary
    // is a truncated Transform3D to Godot 4).
    let godot3 = std::fs::read(case_file("godot3", "stream_file_store_var")).unwrap();
    let mut bytes = vec![4, 0, 0, 0, 0xff, 0, 0, 0];
    bytes.extend_from_slice(&godot3);
    let detected = run_with_input(&["frames", "--skip-bad", "-"], &bytes);
    let explicit = run_with_input(&["frames", "--godot", "3", "--skip-bad", "-"], &bytes);
    assert_eq!(stdout(&detected), stdout(&explicit));
    assert_eq!(
        stderr(&detected),
        "gdvariant: -: frame at byte offset 0: invalid value: unknown type id 255 at byte offset 4\n"
    );
    assert_eq!(code(&detected), 1);
    // Empty input is no dump: refused, with no list.
    let output = run_with_input(&["frames", "-"], &[]);
    assert_eq!((code(&output), stdout(&output)), (1, String::new()));
    assert_eq!(stderr(&output), "gdvariant: -: empty input: no frames\n");
}
