//! `reencode`: byte for byte what Godot writes, wherever Godot itself round-trips.

use crate::support::*;

/// Bytes Godot leaves uninitialised (NodePath padding), which the encoder writes as zeros:
/// the re-encoded bytes must equal Godot's everywhere else, and be zero there.
fn same_but_padding(mine: &[u8], godot: &[u8]) -> bool {
    mine.len() == godot.len() && mine.iter().zip(godot).all(|(m, g)| m == g || *m == 0)
}

#[test]
fn reencoding_reproduces_godots_bytes() {
    let dir = std::env::temp_dir().join(format!("gdvariant-cli-reencode-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (version, godot) in VERSIONS {
        let mut exact = 0;
        for case in value_cases(version) {
            if case["godot_roundtrip_same_bytes"] != true {
                continue;
            }
            let name = case["name"].as_str().unwrap();
            let file = case_file(version, name);
            let want = std::fs::read(&file).unwrap();
            let out = dir.join(format!("{version}-{name}.bin"));
            let mut args = vec!["reencode", "--godot", godot];
            args.extend(objects_args(&case));
            args.extend([file.to_str().unwrap(), "-o", out.to_str().unwrap()]);
            let output = run(&args);
            assert_eq!(code(&output), 0, "{version}/{name}: {}", stderr(&output));
            let mine = std::fs::read(&out).unwrap();
            if mine == want {
                exact += 1;
            } else {
                assert!(
                    case["type"] == "NodePath" && same_but_padding(&mine, &want),
                    "{version}/{name}"
                );
            }
        }
        assert!(exact >= 100, "{version}: {exact} byte-exact");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn reencoding_to_standard_output_and_from_standard_input() {
    let file = case_file("godot4", "dict_nested");
    let bytes = std::fs::read(&file).unwrap();
    let output = run_with_input(&["reencode", "--godot", "4", "-"], &bytes);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(output.stdout, bytes);
}

#[test]
fn reencoding_frames_keeps_the_framing() {
    for (version, godot) in VERSIONS {
        let file = case_file(version, "stream_file_store_var");
        let bytes = std::fs::read(&file).unwrap();
        let output = run(&["reencode", "--frames", "--godot", godot, file.to_str().unwrap()]);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        // The stream holds no NodePath padding garbage only if it round-trips exactly; at
        // least the frames and their types must come back.
        assert_eq!(output.stdout.len(), bytes.len(), "{version}");
        assert!(same_but_padding(&output.stdout, &bytes), "{version}");
    }
}
