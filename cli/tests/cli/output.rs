//! Files the commands write: replaced only once complete, never removed or truncated when the
//! command fails (`reencode -o`, `proxy --capture`; `export` in `export.rs`).

use crate::support::*;

#[test]
fn reencode_replaces_its_output_only_when_it_succeeds() {
    let dir = folder("reencode-output");
    let out = dir.join("out.bin");
    std::fs::write(&out, b"precious").unwrap();
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, [0xFFu8, 0, 0, 0]).unwrap();
    let output =
        run(&["reencode", bad.to_str().unwrap(), "--godot", "4", "-o", out.to_str().unwrap()]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    assert_eq!(std::fs::read(&out).unwrap(), b"precious");
    assert_eq!(names_in(&dir), ["bad.bin", "out.bin"]);

    let good = dir.join("int.bin");
    std::fs::write(&good, [2u8, 0, 0, 0, 7, 0, 0, 0]).unwrap();
    let output =
        run(&["reencode", good.to_str().unwrap(), "--godot", "4", "-o", out.to_str().unwrap()]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(std::fs::read(&out).unwrap(), [2u8, 0, 0, 0, 7, 0, 0, 0]);
    assert_eq!(names_in(&dir), ["bad.bin", "int.bin", "out.bin"]);
}

#[test]
fn a_capture_never_truncates_an_existing_file() {
    let dir = folder("capture-existing");
    let capture = dir.join("session.capture");
    std::fs::write(&capture, b"yesterday's capture").unwrap();
    let output = run(&[
        "proxy",
        "--websocket",
        "--multiplayer",
        "--godot",
        "4",
        "--listen",
        "127.0.0.1:0",
        "--upstream",
        "127.0.0.1:9",
        "--capture",
        capture.to_str().unwrap(),
    ]);
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    assert!(stderr(&output).contains("exists"), "{}", stderr(&output));
    assert_eq!(std::fs::read(&capture).unwrap(), b"yesterday's capture");
}
