//! What the command says about input it cannot read: empty input, other kinds of files, text,
//! a single value given as a dump, a frame over the limit; and the form of its error lines.

use std::path::PathBuf;
use std::process::Output;

use crate::support::*;

/// `BYTES` written to a temporary file named after `tag`.
fn temp(tag: &str, bytes: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("gdvariant-diag-{}-{tag}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

/// A 1x1 PNG: the signature, IHDR, an IDAT and IEND (each chunk with its CRC).
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0\x90wS\xde\
\0\0\0\x0cIDATx\x9cc\xf8\xcf\xc0\0\0\x03\x01\x01\0\xc9\xfe\x92\xef\0\0\0\0IEND\xaeB`\x82";

/// The first 64 bytes of an x86-64 ELF executable (its file header).
const ELF: &[u8] = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0\x01\0\0\0\xd0a\0\0\0\0\0\0\
@\0\0\0\0\0\0\0pG\x02\0\0\0\0\0\0\0\0\0@\08\0\r\0@\0\x1f\0\x1e\0";

/// `gzip` of "hello, godot\n" (time stamp 1700000000).
const GZIP: &[u8] = b"\x1f\x8b\x08\0\0\xf1\x53\x65\x02\xff\xcb\x48\xcd\xc9\xc9\xd7\x51\x48\xcf\
\x4f\xc9\x2f\xe1\x02\0\x83\xd2\x04\xca\x0d\0\0\0";

/// Files of other kinds, and the words that name each.
fn other_files() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    vec![
        ("png", PNG.to_vec(), "a PNG image"),
        ("elf", ELF.to_vec(), "an ELF executable"),
        ("gzip", GZIP.to_vec(), "gzip-compressed data"),
        (
            "jpeg",
            b"\xff\xd8\xff\xe0\0\x10JFIF\0\x01\x01\0\0\x01\0\x01\0\0".to_vec(),
            "a JPEG image",
        ),
        ("gif", b"GIF89a\x01\0\x01\0\x80\0\0\0\0\0\xff\xff\xff!\xf9\x04".to_vec(), "a GIF image"),
        ("pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n".to_vec(), "a PDF document"),
        (
            "exe",
            b"MZ\x90\0\x03\0\0\0\x04\0\0\0\xff\xff\0\0\xb8\0\0\0".to_vec(),
            "(PE/MZ) executable",
        ),
        ("zstd", b"\x28\xb5\x2f\xfd\x24\x05\x29\0\0hello\x9a\x1b\xf4\x10".to_vec(), "Zstandard"),
        ("zip", b"PK\x05\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0".to_vec(), "a zip archive"),
        ("pck", b"GDPC\x02\0\0\0\x04\0\0\0\x06\0\0\0\x01\0\0\0".to_vec(), "a Godot PCK archive"),
        ("res", b"RSRC\0\0\0\0\0\0\0\0\x06\0\0\0\x03\0\0\0".to_vec(), "a Godot binary resource"),
        (
            "tscn",
            b"[gd_scene format=3 uid=\"uid://b\"]\n\n[node name=\"Main\" type=\"Node2D\"]\n"
                .to_vec(),
            "a Godot text scene (.tscn) (ResourceLoader reads it",
        ),
        (
            "text",
            b"{\n\"hp\": 10,\n\"pos\": Vector2(1, 2)\n}".to_vec(),
            "var_to_str text (str_to_var",
        ),
        ("json", b"{\"hp\": 10, \"pos\": [1, 2]}\n".to_vec(), "JSON text"),
    ]
}

/// Runs `export` on `file` into a fresh output path; the output must not be left behind.
fn export(file: &str, tag: &str) -> Output {
    let out = std::env::temp_dir().join(format!("gdvariant-diag-{}-{tag}.out", std::process::id()));
    let output = run(&["export", "--to", "jsonl", "-o", out.to_str().unwrap(), file]);
    assert!(!out.exists(), "{tag}: no output file after a refusal");
    output
}

#[test]
fn other_kinds_of_files_are_named_by_every_command() {
    for (tag, bytes, words) in other_files() {
        let path = temp(tag, &bytes);
        let file = path.to_str().unwrap();
        let value = format!("gdvariant: {file}: not Godot Variant data: this looks like ");
        for args in [&["dump", file][..], &["validate", file], &["get", file, ""]] {
            let output = run(args);
            assert_eq!(code(&output), 1, "{tag} {args:?}");
            let err = stderr(&output);
            assert!(err.starts_with(&value) && err.contains(words), "{tag} {args:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{tag} {args:?}: {err}");
            assert_eq!(output.stdout, b"", "{tag} {args:?}");
        }
        // An explicit version says the same.
        let output = run(&["dump", "--godot", "3", file]);
        assert!(stderr(&output).starts_with(&value), "{tag}: {}", stderr(&output));

        let output = run(&["detect", file]);
        assert_eq!(code(&output), 1, "{tag}");
        let out = stdout(&output);
        assert!(out.starts_with(&format!("{file}: neither: not Godot Variant data: ")), "{out}");
        assert!(out.contains(words), "{tag}: {out}");

        let dump = format!("gdvariant: {file}: not a store_var dump: this looks like ");
        for output in [
            run(&["frames", file]),
            run(&["frames", "--skip-bad", file]),
            run(&["dump", "--frames", file]),
            run(&["validate", "--frames", file]),
            export(file, tag),
        ] {
            assert_eq!(code(&output), 1, "{tag}");
            let err = stderr(&output);
            assert!(err.starts_with(&dump) && err.contains(words), "{tag}: {err}");
            assert_eq!(err.lines().count(), 1, "{tag}: {err}");
        }
        std::fs::remove_file(path).unwrap();
    }
}

#[test]
fn empty_input_is_refused_by_every_command() {
    let value = "gdvariant: -: empty input: no Godot value\n";
    let frames = "gdvariant: -: empty input: no frames\n";
    let commands: [(&[&str], &str); 12] = [
        (&["dump", "-"], value),
        (&["dump", "--godot", "3", "-"], value),
        (&["validate", "--godot", "4", "-"], value),
        (&["get", "-", "a"], value),
        (&["reencode", "-o", "/dev/null", "-"], value),
        (&["dump", "--frames", "-"], frames),
        (&["get", "--frames", "-", "a"], frames),
        (&["validate", "--frames", "-"], frames),
        (&["reencode", "--frames", "-o", "/dev/null", "-"], frames),
        (&["frames", "-"], frames),
        (&["frames", "--stats", "--godot", "3", "-"], frames),
        (&["frames", "--prefix", "stream-peer", "-"], frames),
    ];
    for (args, message) in commands {
        let output = run_with_input(args, &[]);
        assert_eq!((code(&output), stderr(&output).as_str()), (1, message), "{args:?}");
        assert_eq!(output.stdout, b"", "{args:?}");
    }
    let output = run_with_input(&["detect", "-"], &[]);
    assert_eq!(
        (code(&output), stdout(&output)),
        (1, "-: neither: empty input: no Godot value\n".into())
    );
    // export: no rows, no file, exit 1.
    let path = temp("empty", &[]);
    let output = export(path.to_str().unwrap(), "empty");
    assert_eq!(code(&output), 1);
    assert_eq!(stderr(&output), format!("gdvariant: {}: empty input: no frames\n", path.display()));
    std::fs::remove_file(path).unwrap();
}

#[test]
fn a_truncated_godot4_value_leads_with_godot4s_reason() {
    // Godot 4's {"z": 1, "a": 2, "m": 3} cut to 20 bytes: Godot 4 reads up to the entries,
    // Godot 3 stops at the header (it has no type id 27).
    let bytes = std::fs::read(case_file("godot4", "dict_order")).unwrap();
    let cut = &bytes[..20];
    let output = run_with_input(&["dump", "-"], cut);
    assert_eq!(code(&output), 1);
    assert_eq!(
        stderr(&output),
        "gdvariant: -: invalid as Godot 4 bytes: element count 3 does not fit in the remaining \
         bytes at byte offset 4; invalid as Godot 3 bytes: unknown type id 27 at byte offset 0\n"
    );
    let output = run_with_input(&["detect", "-"], cut);
    assert_eq!(
        stdout(&output),
        "-: neither: Godot 4 refuses it: element count 3 does not fit in the remaining bytes at \
         byte offset 4; Godot 3 refuses it: unknown type id 27 at byte offset 0\n"
    );
    // The same reason in both versions is given once, by detect too.
    let output = run_with_input(&["detect", "-"], &[0xff, 0, 0, 0]);
    assert_eq!(
        stdout(&output),
        "-: neither: both versions refuse it: unknown type id 255 at byte offset 0\n"
    );
}

#[test]
fn a_single_value_read_as_a_dump_is_called_what_it_is() {
    // Godot 4's {"a": 1, "b": "two"} cut to 31 bytes: its header (27, the Dictionary id) reads
    // as a frame length of 27, and the frame's value is the element count (2, the int id) and
    // 8 bytes after it: a dump of one int, with 19 bytes the int does not use.
    let bytes = std::fs::read(case_file("godot4", "dict_simple")).unwrap();
    let output = run_with_input(&["frames", "-"], &bytes[..31]);
    assert_eq!(code(&output), 0, "Godot's get_var reads this frame: {}", stderr(&output));
    assert_eq!(stdout(&output), "index\toffset\tbytes\ttype\tdepth\n0\t0\t31\tint\t0\n");
    assert_eq!(
        stderr(&output),
        "gdvariant: -: warning: frame 0 ends 19 bytes after its value (int), which store_var and \
         put_var never write: the input looks like one Godot 4 Dictionary value cut short, not a \
         dump (its header, type id 27, was read as the frame's length); as one value: input \
         ends inside a field that needs 4 bytes at byte offset 28\n"
    );
    let output = run_with_input(&["dump", "-"], &bytes[..31]);
    assert!(stderr(&output).starts_with("gdvariant: -: invalid as Godot 4 bytes: "));

    // The whole value: the same frame, and the warning says it is one value.
    let output = run_with_input(&["frames", "-"], &bytes);
    assert_eq!(code(&output), 1, "the second frame is cut short");
    let err = stderr(&output);
    assert!(
        err.starts_with(
            "gdvariant: -: warning: frame 0 ends 19 bytes after its value (int), which store_var \
             and put_var never write: the input is one Godot 4 Dictionary value, not a dump"
        ),
        "{err}"
    );
    assert!(err.lines().all(|line| line.starts_with("gdvariant: -: ")), "{err}");

    // A value whose first frame Godot refuses is refused as what it is.
    let file = case_file("godot4", "int_42");
    let file = file.to_str().unwrap();
    for args in
        [&["frames", file][..], &["dump", "--frames", file], &["frames", "--skip-bad", file]]
    {
        let output = run(args);
        assert_eq!(code(&output), 1);
        assert_eq!(
            stderr(&output),
            format!(
                "gdvariant: {file}: not a store_var dump: the bytes are one Godot 4 int value, \
                 as var_to_bytes writes it (`gdvariant dump` without --frames reads it)\n"
            )
        );
    }

    // Real dumps of both engines get no warning.
    for (version, godot) in VERSIONS {
        let file = case_file(version, "stream_file_store_var");
        let output = run(&["frames", file.to_str().unwrap()]);
        assert_eq!((code(&output), stderr(&output)), (0, String::new()), "{godot}");
    }
}

#[test]
fn max_frame_len_lowers_and_raises_the_limit() {
    let file = case_file("godot4", "stream_file_store_var");
    let file = file.to_str().unwrap();
    // Frame 3 (at byte 48) is 32 bytes of value.
    let too_large = format!(
        "gdvariant: {file}: frame at byte offset 48: frame length 32 exceeds the limit of 31 \
         bytes (set by --max-frame-len)\n"
    );
    let output = run(&["frames", "--max-frame-len", "31", file]);
    assert_eq!(code(&output), 1);
    assert_eq!(stdout(&output).lines().count(), 4, "the header and frames 0 to 2");
    assert_eq!(stderr(&output), too_large);
    for args in [
        &["dump", "--frames", "--max-frame-len", "31", file][..],
        &["validate", "--frames", "--max-frame-len", "31", file],
        &["get", "--frames", "--max-frame-len", "31", file, ""],
    ] {
        let output = run(args);
        assert_eq!((code(&output), stderr(&output)), (1, too_large.clone()), "{args:?}");
    }
    let out = std::env::temp_dir().join(format!("gdvariant-diag-{}-limit.out", std::process::id()));
    let output = run(&[
        "export",
        "--to",
        "jsonl",
        "-o",
        out.to_str().unwrap(),
        "--max-frame-len",
        "31",
        file,
    ]);
    assert_eq!((code(&output), stderr(&output)), (1, too_large.clone()));
    assert!(!out.exists());
    // At 40 every frame fits (the largest, at byte 172, is 40 bytes of value).
    let output = run(&["frames", "--max-frame-len", "40", file]);
    assert_eq!((code(&output), stdout(&output).lines().count()), (0, 12));

    // One 17 MiB PackedByteArray: over the default limit, read with a higher one.
    let len = 17 << 20;
    let mut payload = vec![29, 0, 0, 0];
    payload.extend_from_slice(&(len as u32).to_le_bytes());
    payload.resize(8 + len, 7);
    let mut dump = (payload.len() as u32).to_le_bytes().to_vec();
    dump.extend_from_slice(&payload);
    let path = temp("large", &dump);
    let large = path.to_str().unwrap();
    let output = run(&["frames", large]);
    assert_eq!(code(&output), 1);
    assert_eq!(
        stderr(&output),
        format!(
            "gdvariant: {large}: frame at byte offset 0: frame length {} exceeds the limit of \
             16777216 bytes (set by --max-frame-len)\n",
            payload.len()
        )
    );
    let output = run(&["frames", "--max-frame-len", "20000000", large]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(
        stdout(&output).lines().nth(1),
        Some(format!("0\t0\t{}\tPackedByteArray\t0", dump.len()).as_str())
    );
    let output =
        run(&["validate", "--frames", "--godot", "4", "--max-frame-len", "20000000", large]);
    assert_eq!((code(&output), stderr(&output)), (0, String::new()));
    std::fs::remove_file(path).unwrap();

    // The proxy's --max-frame answers to the same name.
    let help = stdout(&run(&["proxy", "--help"]));
    assert!(help.contains("--max-frame <BYTES>") && help.contains("--max-frame-len"), "{help}");
}

#[test]
fn every_error_line_begins_with_the_command_name() {
    // Frames 3 and 8 of a Godot 4 dump refused (their type ids made unknown).
    let mut bytes = std::fs::read(case_file("godot4", "stream_file_store_var")).unwrap();
    bytes[52] = 0xee;
    bytes[176] = 0xee;
    let path = temp("two-bad", &bytes);
    let file = path.to_str().unwrap();
    let bad = temp("bad-value", &[0xee, 0, 0, 0]);
    let bad = bad.to_str().unwrap();
    let out = std::env::temp_dir().join(format!("gdvariant-diag-{}-lines.out", std::process::id()));
    for (args, lines) in [
        (&["frames", "--skip-bad", file][..], 2),
        (&["frames", "--skip-bad", "--stats", file], 2),
        (&["frames", file], 1),
        (&["dump", "--frames", "--skip-bad", file], 2),
        (&["get", "--frames", "--skip-bad", file, ""], 2),
        (&["validate", "--frames", file, file], 4),
        // The damaged dump read as one value is a valid Godot 4 Rect2i (frame 0's prefix, 8, is
        // its header): only the bad file is named, twice.
        (&["validate", bad, file, bad], 2),
        (&["export", "--to", "jsonl", "-o", out.to_str().unwrap(), "--skip-bad", file], 3),
    ] {
        let output = run(args);
        assert_eq!(code(&output), 1, "{args:?}");
        let err = stderr(&output);
        assert_eq!(err.lines().count(), lines, "{args:?}: {err}");
        assert!(err.lines().all(|line| line.starts_with("gdvariant: ")), "{args:?}: {err}");
    }
    let output = run(&["validate", bad]);
    assert_eq!(
        stderr(&output),
        format!("gdvariant: {bad}: unknown type id 238 at byte offset 0\n")
    );
    std::fs::remove_file(path).unwrap();
    std::fs::remove_file(bad).unwrap();
    std::fs::remove_file(out).unwrap();
}

#[test]
fn help_texts_are_each_commands_own() {
    for command in ["dump", "validate", "frames", "get"] {
        let help = stdout(&run(&[command, "--help"]));
        assert!(help.contains("--chunk-frames"), "{command}: {help}");
        assert!(!help.contains("row group"), "{command}: {help}");
        assert!(help.contains("--max-frame-len"), "{command}: {help}");
    }
    let help = stdout(&run(&["export", "--help"]));
    assert!(help.contains("one row group per chunk"), "{help}");
    let dump = stdout(&run(&["dump", "--help"]));
    assert!(dump.contains("each chunk is checked and printed on one thread"), "{dump}");
}
