//! `get`: values at paths in nested cases of both engines.

use crate::support::*;

fn get(version: &str, godot: &str, name: &str, path: &str, extra: &[&str]) -> std::process::Output {
    let file = case_file(version, name);
    let args = [&["get", "--godot", godot, file.to_str().unwrap(), path], extra].concat();
    run(&args)
}

#[test]
fn paths_into_nested_dictionaries_and_arrays() {
    for (version, godot) in VERSIONS {
        // {"a": {"b": {"c": [1, 2, {"d": null}]}}, "e": []}
        let json = |path: &str| {
            let output = get(version, godot, "dict_nested", path, &["--format", "json"]);
            assert_eq!(code(&output), 0, "{version} {path}: {}", stderr(&output));
            stdout(&output)
        };
        assert_eq!(json("a/b/c/1"), "2\n");
        assert_eq!(json("a/b/c/2/d"), "null\n");
        assert_eq!(json("e"), "[]\n");
        assert_eq!(json("a/b/c"), "[1,2,{\"type\":\"Dictionary\",\"entries\":[[\"d\",null]]}]\n");
        assert_eq!(json("\"a\"/b/c/-0"), "1\n");

        // --raw: the element's exact bytes, a slice of the file.
        let bytes = std::fs::read(case_file(version, "dict_nested")).unwrap();
        let output = get(version, godot, "dict_nested", "a/b", &["--raw"]);
        assert_eq!(code(&output), 0);
        let raw = output.stdout;
        assert!(raw.len() > 8 && bytes.windows(raw.len()).any(|w| w == raw), "{version}");
        let output = run_with_input(&["dump", "--godot", godot, "--format", "json", "-"], &raw);
        assert_eq!(stdout(&output), json("a/b"));

        // Absent, or stepping into a scalar: refused (exit 1), one line.
        for path in ["a/x", "a/b/c/3", "e/0"] {
            let output = get(version, godot, "dict_nested", path, &[]);
            assert_eq!(code(&output), 1, "{version} {path}");
            assert!(stderr(&output).contains("no value at path"), "{}", stderr(&output));
        }
        let output = get(version, godot, "dict_nested", "a/b/c/0/x", &[]);
        assert_eq!(code(&output), 1);
        assert_eq!(stderr(&output).lines().count(), 1);
        assert!(stderr(&output).contains("at byte offset"), "{}", stderr(&output));

        // A malformed path is a usage error.
        let output = get(version, godot, "dict_nested", "a//b", &[]);
        assert_eq!(code(&output), 2);
        assert!(stderr(&output).contains("empty path segment at byte offset 2"));
    }
}

#[test]
fn a_path_one_hundred_levels_deep() {
    for (version, godot) in VERSIONS {
        let path = vec!["0"; 99].join("/");
        let output = get(version, godot, "array_nested_depth100", &path, &["--format", "json"]);
        assert_eq!(code(&output), 0, "{version}: {}", stderr(&output));
        let whole = get(version, godot, "array_nested_depth100", "", &["--format", "json"]);
        let whole = stdout(&whole);
        let inner = stdout(&output);
        // The innermost array, inside 99 others.
        assert_eq!(
            whole.trim_end(),
            format!("{}{}{}", "[".repeat(99), inner.trim_end(), "]".repeat(99))
        );
    }
}

/// A Godot 3 dictionary key spelled with an overlong `t` (`E0 81 B4`) is the key `type` to the
/// game, and so to `get`: alone, and repeated after the plain spelling (the last value wins).
/// The bytes are cases of `corpus/probes/strings/godot3.jsonl`, where Godot 3.2.3 answered
/// `get("type")` with 1 and 2.
#[test]
fn a_key_spelled_with_overlong_forms_is_found_by_its_text() {
    let cases = [
        ("12000000010000000400000006000000e081b479706500000200000001000000", "1\n"),
        (
            "120000000200000004000000040000007479706502000000010000000400000006000000e081b479706500000200000002000000",
            "2\n",
        ),
    ];
    for (hex, godot) in cases {
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        let output =
            run_with_input(&["get", "--godot", "3", "-", "type", "--format", "json"], &bytes);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        assert_eq!(stdout(&output), godot);
        let output = run_with_input(&["dump", "--godot", "3", "-"], &bytes);
        assert_eq!(stdout(&output), format!("{{\n\"type\": {}}}\n", godot));
    }
}
