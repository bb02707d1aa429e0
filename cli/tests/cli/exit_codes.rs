//! Exit codes, usage errors, standard input, and inputs that are not Godot values at all.

use crate::support::*;

#[test]
fn usage_errors_exit_with_2() {
    for args in [
        vec![],
        vec!["frobnicate"],
        vec!["dump"],
        vec!["validate"],
        vec!["dump", "--godot", "5", "x.bin"],
        vec!["dump", "--format", "yaml", "x.bin"],
        vec!["get", "x.bin"],
    ] {
        let output = run(&args);
        assert_eq!(code(&output), 2, "{args:?}: {}", stderr(&output));
    }
    assert_eq!(code(&run(&["--help"])), 0);
    assert_eq!(code(&run(&["--version"])), 0);
}

#[test]
fn a_missing_file_is_one_line_and_exit_1() {
    for command in ["dump", "validate", "reencode", "frames", "detect"] {
        let output = run(&[command, "--godot", "4", "/nonexistent/x.bin"]);
        let output =
            if command == "detect" { run(&[command, "/nonexistent/x.bin"]) } else { output };
        assert_eq!(code(&output), 1, "{command}");
        let err = stderr(&output);
        assert_eq!(err.lines().count(), 1, "{command}: {err}");
        assert!(err.contains("/nonexistent/x.bin: "), "{command}: {err}");
    }
}

#[test]
fn empty_and_garbage_inputs_never_panic() {
    let inputs: Vec<Vec<u8>> = vec![
        vec![],
        vec![0xff],
        vec![0xff; 64],
        b"hello, world, this is not a variant".to_vec(),
        vec![0x1c, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f],
        vec![0x12, 0, 0, 0, 0xff, 0xff, 0xff, 0xff],
        (0..=255).collect(),
    ];
    let commands: [&[&str]; 9] = [
        &["dump", "--godot", "4", "-"],
        &["dump", "--godot", "3", "--format", "json", "-"],
        &["dump", "--frames", "--godot", "4", "-"],
        &["validate", "--godot", "4", "-"],
        &["reencode", "--godot", "3", "-"],
        &["frames", "--godot", "4", "--skip-bad", "--stats", "-"],
        &["frames", "--godot", "3", "--prefix", "stream-peer", "-"],
        &["get", "--godot", "4", "-", "a/0"],
        &["detect", "-"],
    ];
    for input in &inputs {
        for args in commands {
            let output = run_with_input(args, input);
            let err = stderr(&output);
            assert!(!err.contains("panicked"), "{args:?} {input:?}: {err}");
            let code = code(&output);
            assert!(code == 0 || code == 1, "{args:?} {input:?}: {code}");
            if code == 1 && args[0] != "frames" && args[0] != "detect" {
                assert_eq!(err.lines().count(), 1, "{args:?} {input:?}: {err}");
            }
        }
    }
    // The empty input is refused everywhere a value is needed, with the same words whether
    // the version is given or detected.
    for godot in [&["--godot", "3"][..], &["--godot", "4"], &[]] {
        let args = [&["validate"][..], godot, &["-"]].concat();
        let output = run_with_input(&args, &[]);
        assert_eq!(code(&output), 1);
        assert_eq!(stderr(&output), "gdvariant: -: empty input: no Godot value\n", "{args:?}");
        let args = [&["dump"][..], godot, &["-"]].concat();
        let output = run_with_input(&args, &[]);
        assert_eq!(stderr(&output), "gdvariant: -: empty input: no Godot value\n", "{args:?}");
    }
}

#[test]
fn bytes_neither_version_accepts_are_refused_with_each_versions_reason() {
    // Godot 4's Dictionary id (27) is unknown to Godot 3; Godot 4 reads on to byte 4, where the
    // bytes end: its reason comes first.
    let output = run_with_input(&["dump", "-"], &[0x1b, 0, 0, 0]);
    assert_eq!(code(&output), 1);
    assert_eq!(
        stderr(&output),
        "gdvariant: -: invalid as Godot 4 bytes: input ends inside a field that needs 4 bytes at \
         byte offset 4; invalid as Godot 3 bytes: unknown type id 27 at byte offset 0\n"
    );
    // The same reason in both versions is given once.
    let output = run_with_input(&["validate", "-"], &[0xff, 0, 0, 0]);
    assert_eq!(stderr(&output), "gdvariant: -: unknown type id 255 at byte offset 0\n");
}

#[test]
fn standard_input_reads_like_a_file() {
    let file = case_file("godot3", "array_mixed");
    let bytes = std::fs::read(&file).unwrap();
    let from_file = run(&["dump", "--godot", "3", "--format", "json", file.to_str().unwrap()]);
    let from_stdin = run_with_input(&["dump", "--godot", "3", "--format", "json", "-"], &bytes);
    assert_eq!(code(&from_stdin), 0);
    assert_eq!(from_file.stdout, from_stdin.stdout);
}

#[test]
fn binary_output_is_written_where_asked() {
    let file = case_file("godot4", "int_42");
    let out = std::env::temp_dir().join(format!("gdvariant-cli-out-{}.bin", std::process::id()));
    let output =
        run(&["reencode", "--godot", "4", file.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code(&output), 0);
    assert_eq!(output.stdout, b"");
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&file).unwrap());
    std::fs::remove_file(out).unwrap();
}
