//! Frames as records: `--where`, `get --frames`, JSON lines with frame index and offset, text
//! records behind a length header, and the same output whatever `--jobs` is.

use std::path::PathBuf;

use gdvariant::framing::{FrameWriter, LengthPrefix};
use gdvariant::math::Vector2;
use gdvariant::{EncodeOptions, Writer};
use serde_json::{Value, json};

use crate::support::*;

/// A Godot 4 dump of `count` event dictionaries `{id, kind, pos, note}` (`note` a multi-line
/// string on every fifth frame), written to a scratch file.
pub fn events_dump(name: &str, count: i64) -> PathBuf {
    let mut frames = FrameWriter::new(Vec::new(), LengthPrefix::store_var(false));
    for i in 0..count {
        let mut w = Writer::new(Vec::new(), EncodeOptions::godot4());
        let note = i % 5 == 0;
        w.begin_dictionary(if note { 4 } else { 3 }).unwrap();
        w.string("id").unwrap();
        w.int(i).unwrap();
        w.string("kind").unwrap();
        w.string(["move", "attack", "chat"][(i % 3) as usize]).unwrap();
        w.string("pos").unwrap();
        w.vector2(Vector2 { x: i as f32 * 0.5, y: -1.0 }).unwrap();
        if note {
            w.string("note").unwrap();
            w.string(&format!("line one\n# frame 99 at offset 0: 3 bytes\n{i}")).unwrap();
        }
        frames.write_frame(&w.finish().unwrap()).unwrap();
    }
    let path =
        std::env::temp_dir().join(format!("gdvariant-cli-{}-{name}.bin", std::process::id()));
    std::fs::write(&path, frames.into_inner()).unwrap();
    path
}

/// Runs the command with `--jobs 1`, `2` and `3` and small chunks; asserts the same output and
/// exit code each time, and returns the first.
pub fn same_for_any_jobs(args: &[&str]) -> std::process::Output {
    let run_with = |jobs: &str| {
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--jobs", jobs, "--chunk-frames", "7"]);
        run(&all)
    };
    let one = run_with("1");
    for jobs in ["2", "3"] {
        let other = run_with(jobs);
        assert_eq!(one.stdout, other.stdout, "{args:?} --jobs {jobs}");
        assert_eq!(one.stderr, other.stderr, "{args:?} --jobs {jobs}");
        assert_eq!(one.status.code(), other.status.code(), "{args:?} --jobs {jobs}");
    }
    one
}

#[test]
fn json_records_carry_the_frame_index_and_offset() {
    let dump = events_dump("records", 50);
    let path = dump.to_str().unwrap();
    let output = same_for_any_jobs(&["dump", "--frames", "--format", "natural", path]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let lines: Vec<Value> = stdout(&output).lines().map(parse_json).collect();
    assert_eq!(lines.len(), 50);
    let mut offset = 0u64;
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["frame"], i as u64);
        assert_eq!(line["offset"], offset);
        assert_eq!(line["value"]["id"], i as u64);
        assert_eq!(line["value"]["pos"], json!({"x": i as f64 * 0.5, "y": -1.0}));
        // The frame's bytes: its prefix says how long it is.
        let bytes = std::fs::read(&dump).unwrap();
        let len = u32::from_le_bytes(bytes[offset as usize..][..4].try_into().unwrap());
        offset += 4 + u64::from(len);
    }
    let lossless = same_for_any_jobs(&["dump", "--frames", "--format", "json", path]);
    let first = parse_json(stdout(&lossless).lines().next().unwrap());
    assert_eq!(first["value"]["type"], "Dictionary");
}

#[test]
fn text_records_are_split_by_their_headers_even_when_the_text_mimics_one() {
    let dump = events_dump("text", 12);
    let output = same_for_any_jobs(&["dump", "--frames", dump.to_str().unwrap()]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    let mut rest = text.as_str();
    let mut values = Vec::new();
    while !rest.is_empty() {
        let (header, after) = rest.split_once('\n').unwrap();
        let words: Vec<&str> = header.split(' ').collect();
        assert_eq!((words[0], words[1], words[3], words[4]), ("#", "frame", "at", "offset"));
        assert_eq!(words[2], values.len().to_string());
        let len: usize = words[6].parse().unwrap();
        values.push(after[..len].to_owned());
        assert_eq!(&after[len..len + 1], "\n");
        rest = &after[len + 1..];
    }
    assert_eq!(values.len(), 12);
    // Frame 0 has a note whose text holds a line that looks like a header.
    assert!(values[0].contains("# frame 99 at offset 0: 3 bytes"), "{}", values[0]);
    assert!(
        values[1].starts_with('{') && values[1].contains("\"kind\": \"attack\""),
        "{}",
        values[1]
    );
}

#[test]
fn where_selects_frames_by_a_value_inside_them() {
    let dump = events_dump("where", 30);
    let path = dump.to_str().unwrap();
    let ids = |args: &[&str]| -> Vec<u64> {
        let mut all = vec!["get", "--frames", path, "id", "--format", "json"];
        all.extend(args);
        let output = same_for_any_jobs(&all);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        stdout(&output).lines().map(|l| parse_json(l)["value"].as_u64().unwrap()).collect()
    };
    assert_eq!(ids(&["--where", "kind=chat"]), (2..30).step_by(3).collect::<Vec<_>>());
    assert_eq!(ids(&["--where", "kind=\"chat\"", "--where", "note"]), vec![5, 20]);
    assert_eq!(ids(&["--where", "kind!=move", "--where", "id=4"]), vec![4]);
    // Numbers compare by value: the int 4 equals 4.0.
    assert_eq!(ids(&["--where", "id=4.0"]), vec![4]);
    // A path found in some frame but not in the frames a condition before it keeps.
    assert_eq!(
        ids(&["--where", "kind=move", "--where", "note!=x"]),
        vec![0, 3, 6, 9, 12, 15, 18, 21, 24, 27]
    );

    // The same filter on frames, validate and dump.
    let frames = same_for_any_jobs(&["frames", path, "--where", "kind=chat"]);
    assert_eq!(stdout(&frames).lines().count(), 1 + 10);
    let stats = same_for_any_jobs(&["frames", "--stats", path, "--where", "note"]);
    assert!(stdout(&stats).starts_with("frames: 6 ("), "{}", stdout(&stats));
    let validate = same_for_any_jobs(&["validate", "--frames", path, "--where", "kind=move"]);
    assert_eq!(stdout(&validate), format!("{path}\t10\t30\n"));
    let dumped =
        same_for_any_jobs(&["dump", "--frames", "--format", "natural", path, "--where", "id=29"]);
    assert_eq!(parse_json(stdout(&dumped).trim())["frame"], 29);
    let bad = run(&["dump", "--frames", path, "--where", "\"a=1"]);
    assert_eq!(code(&bad), 2, "{}", stderr(&bad));
}

#[test]
fn bad_frames_are_reported_in_order_whatever_the_jobs() {
    let dump = events_dump("bad", 40);
    let mut bytes = std::fs::read(&dump).unwrap();
    // Frames 10 and 30 get an unknown type id.
    let mut offset = 0usize;
    for i in 0..40 {
        let len = u32::from_le_bytes(bytes[offset..][..4].try_into().unwrap()) as usize;
        if i == 10 || i == 30 {
            bytes[offset + 4] = 99;
        }
        offset += 4 + len;
    }
    std::fs::write(&dump, &bytes).unwrap();
    let path = dump.to_str().unwrap();
    let validate = same_for_any_jobs(&["validate", "--frames", path]);
    assert_eq!(code(&validate), 1);
    assert_eq!(stderr(&validate).lines().count(), 2, "{}", stderr(&validate));
    let skipped =
        same_for_any_jobs(&["get", "--frames", path, "id", "--format", "json", "--skip-bad"]);
    assert_eq!(code(&skipped), 1);
    assert_eq!(stdout(&skipped).lines().count(), 38);
    let stopped = same_for_any_jobs(&["dump", "--frames", "--format", "json", path]);
    assert_eq!(code(&stopped), 1);
    assert_eq!(stdout(&stopped).lines().count(), 10);
    assert!(stderr(&stopped).contains("unknown type id 99"), "{}", stderr(&stopped));
    let stats = same_for_any_jobs(&["frames", "--stats", "--skip-bad", path]);
    assert!(stdout(&stats).contains("bad frames: 2 ("), "{}", stdout(&stats));
}

#[test]
fn where_reports_how_many_frames_matched_and_fails_on_a_path_found_nowhere() {
    let dump = events_dump("where-report", 30);
    let path = dump.to_str().unwrap();
    let matched = same_for_any_jobs(&["dump", "--frames", path, "--where", "kind=chat"]);
    assert_eq!(code(&matched), 0, "{}", stderr(&matched));
    assert_eq!(stderr(&matched), "gdvariant: --where matched 10 of 30 frames\n");
    // Without --where, nothing is said.
    let all = run(&["frames", path]);
    assert_eq!((code(&all), stderr(&all)), (0, String::new()));
    // A value found nowhere is 0 matches, said so, and not an error: the path exists.
    let none = same_for_any_jobs(&["frames", path, "--where", "kind=fly"]);
    assert_eq!(code(&none), 0, "{}", stderr(&none));
    assert_eq!(stderr(&none), "gdvariant: --where matched 0 of 30 frames\n");
    // A path found in no frame fails every frame-walking command, naming the path.
    for command in [
        vec!["dump", "--frames", path],
        vec!["get", "--frames", path, "id"],
        vec!["frames", path],
        vec!["validate", "--frames", path],
    ] {
        for (condition, hint) in
            [("meta.zone=z3", true), ("missing", false), ("missing!=1", false), ("kind/x=1", false)]
        {
            let mut args = command.clone();
            args.extend(["--where", condition]);
            let output = same_for_any_jobs(&args);
            assert_eq!(code(&output), 1, "{args:?}: {}", stderr(&output));
            let message = stderr(&output);
            let path_text = condition.split(['!', '=']).next().unwrap();
            assert!(
                message.contains(&format!(
                    "the path {path_text} matched no field in any of the 30 frames"
                )),
                "{args:?}: {message}"
            );
            assert_eq!(
                message.contains("paths use `/` between keys: meta/zone"),
                hint,
                "{message}"
            );
        }
    }
    // export too (and leaves no file behind).
    let out = std::env::temp_dir().join(format!("gdvariant-cli-{}-where.csv", std::process::id()));
    let out_text = out.to_str().unwrap();
    let export = run(&["export", path, "--to", "csv", "-o", out_text, "--where", "meta.zone=z3"]);
    assert_eq!(code(&export), 1, "{}", stderr(&export));
    assert!(stderr(&export).contains("the path meta.zone matched no field"), "{}", stderr(&export));
    let export = run(&["export", path, "--to", "csv", "-o", out_text, "--where", "kind=chat"]);
    assert_eq!(code(&export), 0, "{}", stderr(&export));
    assert!(stderr(&export).contains("--where matched 10 of 30 frames"), "{}", stderr(&export));
    let _ = std::fs::remove_file(&out);
}

/// `export` walks the frames twice (the schema, then the rows): `--where` reports one walk.
#[test]
fn export_reports_where_matches_once() {
    let mut dump = Vec::new();
    for i in 0..10i32 {
        // Godot 4 {"k": i}
        let mut value = Vec::new();
        for word in [27u32, 1, 4, 1] {
            value.extend_from_slice(&word.to_le_bytes());
        }
        value.extend_from_slice(b"k\0\0\0");
        value.extend_from_slice(&2u32.to_le_bytes());
        value.extend_from_slice(&i.to_le_bytes());
        dump.extend_from_slice(&(value.len() as u32).to_le_bytes());
        dump.extend_from_slice(&value);
    }
    let file = std::env::temp_dir().join(format!("gdvariant-where-once-{}", std::process::id()));
    std::fs::write(&file, &dump).unwrap();
    let output =
        run(&["export", file.to_str().unwrap(), "--to", "csv", "-o", "-", "--where", "k=3"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(stdout(&output), "k\n3\n");
    assert!(stderr(&output).contains("--where matched 1 of 10 frames"), "{}", stderr(&output));
    let _ = std::fs::remove_file(&file);
}
