//! Files are never lost under faults: an output that is the input is refused; a signal while a
//! file is written leaves the target as it was and no temporary file; the temporary file a
//! killed command left is removed by the next; an export of no rows does not replace a file;
//! columns that became JSON text are named; a refusal under a named version hints at the other.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use gdvariant::framing::{FrameWriter, LengthPrefix};
use gdvariant::{EncodeOptions, Writer};

use crate::records::events_dump;
use crate::support::*;

/// How long a test waits for the command to reach a state, at most.
const PATIENCE: Duration = Duration::from_secs(120);

/// The temporary files of `target` in its folder (`.NAME.gdvariant-partial.XXXXXX`).
fn temporaries(target: &Path) -> Vec<PathBuf> {
    let prefix = format!(".{}.gdvariant-partial.", target.file_name().unwrap().to_str().unwrap());
    let mut found: Vec<PathBuf> = std::fs::read_dir(target.parent().unwrap())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.file_name().unwrap().to_str().unwrap().starts_with(&prefix))
        .collect();
    found.sort();
    found
}

/// Starts `gdvariant ARGS` with its output and errors captured.
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_gdvariant"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until `ready` holds, or fails after [`PATIENCE`] (killing `child`).
fn wait_until(child: &mut Child, what: &str, ready: impl Fn() -> bool) {
    let start = Instant::now();
    while !ready() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the command ended ({status}) before {what}");
        }
        if start.elapsed() > PATIENCE {
            let _ = child.kill();
            panic!("{what}: not within {PATIENCE:?}");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Sends signal `name` (`INT`, `TERM`, `HUP`, `KILL`) to `child`.
fn signal(child: &Child, name: &str) {
    let status = Command::new("kill").args(["-s", name, &child.id().to_string()]).status().unwrap();
    assert!(status.success(), "kill -s {name}");
}

/// Waits for `child` to end, at most [`PATIENCE`].
fn finish(mut child: Child) -> std::process::Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > PATIENCE {
            let _ = child.kill();
            panic!("the command did not end within {PATIENCE:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.wait_with_output().unwrap()
}

/// A FIFO at `path` (opening it to write blocks until a reader comes, which none does).
fn fifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo");
}

#[test]
fn an_output_that_is_the_input_is_refused_before_anything_is_written() {
    let dir = folder("faults-self");
    let dump = events_dump("faults-self", 20);
    let input = dir.join("self.bin");
    std::fs::copy(&dump, &input).unwrap();
    let original = std::fs::read(&input).unwrap();
    std::os::unix::fs::symlink("self.bin", dir.join("link.bin")).unwrap();
    std::fs::hard_link(&input, dir.join("hard.bin")).unwrap();
    let before = names_in(&dir);
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let input_name = path("self.bin");
    for output in [
        path("self.bin"),
        path("link.bin"),
        path("hard.bin"),
        format!("{}/./self.bin", dir.display()),
    ] {
        for args in [
            vec!["export", &input_name, "--to", "csv", "-o", &output],
            vec!["export", &input_name, "--to", "jsonl", "-o", "-", "--rejects", &output],
            vec!["reencode", &input_name, "--frames", "-o", &output],
        ] {
            let result = run(&args);
            assert_eq!(code(&result), 2, "{args:?}: {}", stderr(&result));
            let option = if args.contains(&"--rejects") { "--rejects" } else { "-o" };
            assert_eq!(
                stderr(&result),
                format!(
                    "gdvariant: {option} {output}: is the input {input_name} (the same file); \
                     write to another file\n"
                ),
                "{args:?}"
            );
            assert_eq!(std::fs::read(&input).unwrap(), original, "{args:?}");
            assert_eq!(names_in(&dir), before, "{args:?}");
        }
    }
    // Standard input that is the output file, as `< self.bin -o self.bin` gives it.
    let result = Command::new(env!("CARGO_BIN_EXE_gdvariant"))
        .args(["export", "-", "--to", "csv", "-o", &input_name])
        .stdin(std::fs::File::open(&input).unwrap())
        .output()
        .unwrap();
    assert_eq!(code(&result), 2, "{}", stderr(&result));
    assert_eq!(
        stderr(&result),
        format!(
            "gdvariant: -o {input_name}: is the input - (the same file); write to another file\n"
        )
    );
    assert_eq!(std::fs::read(&input).unwrap(), original);
    // Two outputs that are one file, though it does not exist yet.
    let out = path("out.csv");
    let same = format!("{}/./out.csv", dir.display());
    let result = run(&["export", &input_name, "--to", "csv", "-o", &out, "--rejects", &same]);
    assert_eq!(code(&result), 2, "{}", stderr(&result));
    assert_eq!(
        stderr(&result),
        format!("gdvariant: --rejects {same}: is the file of -o {out}; give each its own file\n")
    );
    assert_eq!(names_in(&dir), before);
    // Another file is written as before.
    let result = run(&["export", &input_name, "--to", "csv", "-o", &out]);
    assert_eq!(code(&result), 0, "{}", stderr(&result));
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("id,kind,pos/x,pos/y,note\n"));
}

/// Starts an export of `dump` to `out` whose rejects go to a FIFO no one reads: the command
/// stops there, with the output's temporary file created and nothing written to it yet.
fn export_held_open(dir: &Path, dump: &Path, out: &Path) -> Child {
    let rejects = dir.join("rejects.fifo");
    if !rejects.exists() {
        fifo(&rejects);
    }
    let args = [
        "export",
        dump.to_str().unwrap(),
        "--to",
        "csv",
        "-o",
        out.to_str().unwrap(),
        "--rejects",
        rejects.to_str().unwrap(),
    ];
    let mut child = spawn(&args);
    wait_until(&mut child, "the temporary file exists", || temporaries(out).len() == 1);
    child
}

#[test]
fn a_signal_while_a_file_is_written_leaves_the_target_and_no_temporary_file() {
    let dir = folder("faults-signals");
    let dump = events_dump("faults-signals", 50);
    let out = dir.join("out.csv");
    for (name, number) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
        std::fs::write(&out, b"yesterday's export\n").unwrap();
        let child = export_held_open(&dir, &dump, &out);
        signal(&child, name);
        let result = finish(child);
        assert_eq!(result.status.code(), Some(128 + number), "SIG{name}: {}", stderr(&result));
        assert_eq!(
            stderr(&result),
            format!(
                "gdvariant: interrupted by SIG{name}: {} left as it was, its temporary file \
                 removed\n",
                out.display()
            )
        );
        assert_eq!(std::fs::read(&out).unwrap(), b"yesterday's export\n", "SIG{name}");
        assert_eq!(temporaries(&out), Vec::<PathBuf>::new(), "SIG{name}");
        assert_eq!(names_in(&dir), ["out.csv", "rejects.fifo"], "SIG{name}");
    }
}

#[test]
fn a_signal_in_the_middle_of_the_writing_leaves_the_target_and_no_temporary_file() {
    // Enough rows that the debug binary writes for seconds: the signal comes once the first
    // megabyte is in the temporary file.
    let dir = folder("faults-midway");
    let dump = events_dump("faults-midway", 400_000);
    let out = dir.join("out.jsonl");
    std::fs::write(&out, b"{\"kept\":true}\n").unwrap();
    let args = [
        "export",
        dump.to_str().unwrap(),
        "--to",
        "jsonl",
        "-o",
        out.to_str().unwrap(),
        "--jobs",
        "1",
    ];
    let mut child = spawn(&args);
    wait_until(&mut child, "the temporary file has bytes", || {
        temporaries(&out).first().is_some_and(|t| t.metadata().is_ok_and(|m| m.len() > 0))
    });
    signal(&child, "TERM");
    let result = finish(child);
    assert_eq!(result.status.code(), Some(128 + 15), "{}", stderr(&result));
    assert!(
        stderr(&result).ends_with(&format!(
            "gdvariant: interrupted by SIGTERM: {} left as it was, its temporary file removed\n",
            out.display()
        )),
        "{}",
        stderr(&result)
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"{\"kept\":true}\n");
    assert_eq!(names_in(&dir), ["out.jsonl"]);
    std::fs::remove_file(&dump).unwrap();
}

#[test]
fn the_temporary_file_of_a_killed_command_is_removed_by_the_next() {
    let dir = folder("faults-stale");
    let dump = events_dump("faults-stale", 30);
    let out = dir.join("out.csv");
    std::fs::write(&out, b"before\n").unwrap();
    // SIGKILL leaves the temporary file behind.
    let child = export_held_open(&dir, &dump, &out);
    signal(&child, "KILL");
    let result = finish(child);
    assert_eq!(result.status.code(), None);
    let stale = temporaries(&out);
    assert_eq!(stale.len(), 1);
    assert_eq!(std::fs::read(&out).unwrap(), b"before\n");
    // Names that only look alike, and one a running command holds, are left alone.
    let keep = [
        ".out.csv.gdvariant-partial.abc12",
        ".out.csv.gdvariant-partial.abc1234",
        ".out.csv.gdvariant-partial.abc-12",
        ".other.csv.gdvariant-partial.abc123",
        ".out.csv.tmp.abc123",
        "out.csv.gdvariant-partial.abc123",
    ];
    for name in keep {
        std::fs::write(dir.join(name), b"x").unwrap();
    }
    let held_path = dir.join(".out.csv.gdvariant-partial.Held99");
    let held = std::fs::File::create(&held_path).unwrap();
    held.lock().unwrap();
    std::fs::create_dir(dir.join(".out.csv.gdvariant-partial.folder")).unwrap();

    let result =
        run(&["export", dump.to_str().unwrap(), "--to", "csv", "-o", out.to_str().unwrap()]);
    assert_eq!(code(&result), 0, "{}", stderr(&result));
    assert_eq!(
        stderr(&result),
        format!(
            "gdvariant: removed {}: the temporary file of an earlier command that was stopped \
             before it finished\ngdvariant: 30 rows written to {}\n",
            stale[0].display(),
            out.display()
        )
    );
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("id,kind,"));
    let mut expected: Vec<String> = keep.iter().map(|n| n.to_string()).collect();
    expected.extend([
        ".out.csv.gdvariant-partial.Held99".to_owned(),
        ".out.csv.gdvariant-partial.folder".to_owned(),
        "out.csv".to_owned(),
        "rejects.fifo".to_owned(),
    ]);
    expected.sort();
    assert_eq!(names_in(&dir), expected);
    drop(held);
}

#[test]
fn an_export_of_no_rows_leaves_an_existing_file_unless_allowed() {
    let dir = folder("faults-empty");
    let dump = events_dump("faults-empty", 10);
    let out = dir.join("out.csv");
    std::fs::write(&out, b"last week's rows\n").unwrap();
    let export = |extra: &[&str]| {
        let mut args =
            vec!["export", dump.to_str().unwrap(), "--to", "csv", "-o", out.to_str().unwrap()];
        args.extend(extra);
        run(&args)
    };
    let result = export(&["--where", "kind=dance"]);
    assert_eq!(code(&result), 1, "{}", stderr(&result));
    assert_eq!(
        stderr(&result),
        format!(
            "gdvariant: no rows to write (--where matched no row): {} was left as it was; \
             --allow-empty replaces it with a file of no rows\n",
            out.display()
        )
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"last week's rows\n");
    assert_eq!(names_in(&dir), ["out.csv"]);

    let result = export(&["--where", "kind=dance", "--allow-empty"]);
    assert_eq!(code(&result), 0, "{}", stderr(&result));
    assert_eq!(
        stderr(&result),
        format!(
            "gdvariant: warning: no rows to write (--where matched no row)\n\
             gdvariant: 0 rows written to {}\ngdvariant: --where matched 0 of 10 frames\n",
            out.display()
        )
    );
    // No row to infer columns from: the one column `value`, of nulls.
    assert_eq!(std::fs::read(&out).unwrap(), b"value\n");

    // A new file is written, with the warning.
    let new = dir.join("new.csv");
    let result = run(&[
        "export",
        dump.to_str().unwrap(),
        "--to",
        "csv",
        "-o",
        new.to_str().unwrap(),
        "--where",
        "kind=dance",
    ]);
    assert_eq!(code(&result), 0, "{}", stderr(&result));
    assert!(
        stderr(&result)
            .starts_with("gdvariant: warning: no rows to write (--where matched no row)\n"),
        "{}",
        stderr(&result)
    );
    assert_eq!(std::fs::read(&new).unwrap(), b"value\n");
    assert_eq!(names_in(&dir), ["new.csv", "out.csv"]);
}

/// A store_var dump of dictionaries written by `each` (one call per frame).
fn dump_of(name: &str, frames: usize, each: impl Fn(usize, &mut Writer<Vec<u8>>)) -> PathBuf {
    let mut dump = FrameWriter::new(Vec::new(), LengthPrefix::store_var(false));
    for i in 0..frames {
        let mut w = Writer::new(Vec::new(), EncodeOptions::godot4());
        each(i, &mut w);
        dump.write_frame(&w.finish().unwrap()).unwrap();
    }
    let path = folder(name).join("dump.bin");
    std::fs::write(&path, dump.into_inner()).unwrap();
    path
}

#[test]
fn columns_that_became_json_text_are_named_with_the_types_they_mixed() {
    // {"score": 1, "stats": {"hp": 3}, "tags": [1]}, then a String score and hp, a float
    // score, a null score, a missing score; tags arrays mixing elements.
    let dump = dump_of("faults-json", 5, |i, w| {
        w.begin_dictionary(if i == 4 { 2 } else { 3 }).unwrap();
        if i != 4 {
            w.string("score").unwrap();
            match i {
                0 => w.int(1).unwrap(),
                1 => w.string("high").unwrap(),
                2 => w.float(2.5).unwrap(),
                _ => w.nil().unwrap(),
            }
        }
        w.string("stats").unwrap();
        w.begin_dictionary(1).unwrap();
        w.string("hp").unwrap();
        if i == 1 {
            w.string("low").unwrap()
        } else {
            w.int(3).unwrap()
        }
        w.string("tags").unwrap();
        w.begin_array(2).unwrap();
        w.int(1).unwrap();
        if i == 3 { w.string("two").unwrap() } else { w.int(2).unwrap() }
    });
    let out = dump.with_file_name("out.csv");
    let result =
        run(&["export", dump.to_str().unwrap(), "--to", "csv", "-o", out.to_str().unwrap()]);
    assert_eq!(code(&result), 0, "{}", stderr(&result));
    assert_eq!(
        stderr(&result),
        format!(
            "gdvariant: column \"score\" is JSON text: its values mix int, float, String\n\
             gdvariant: column \"stats/hp\" is JSON text: its values mix int, String\n\
             gdvariant: column \"tags\" is JSON text: its arrays mix element types, or hold \
             what has no Arrow type\n\
             gdvariant: 5 rows written to {}\n",
            out.display()
        )
    );
    // A Godot null and a missing key are both a null: an empty CSV field, not the text `null`.
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "score,stats/hp,tags\n1,3,\"[1,2]\"\n\"\"\"high\"\"\",\"\"\"low\"\"\",\"[1,2]\"\n\
         2.5,3,\"[1,2]\"\n,3,\"[1,\"\"two\"\"]\"\n,3,\"[1,2]\"\n"
    );
}

#[test]
fn a_refusal_under_a_named_version_hints_at_the_other() {
    let godot4 = case_file("godot4", "dict_order");
    let godot4 = godot4.to_str().unwrap();
    let result = run(&["dump", "--godot", "3", godot4]);
    assert_eq!(code(&result), 1);
    assert_eq!(
        stderr(&result),
        format!(
            "gdvariant: {godot4}: unknown type id 27 at byte offset 0\n\
             gdvariant: hint: these bytes read as Godot 4: try --godot 4\n"
        )
    );
    for command in ["get", "reencode"] {
        let mut args = vec![command, "--godot", "3", godot4];
        if command == "get" {
            args.push("z");
        }
        let result = run_with_input(&args, &[]);
        assert_eq!(code(&result), 1, "{command}");
        assert!(
            stderr(&result)
                .ends_with("gdvariant: hint: these bytes read as Godot 4: try --godot 4\n"),
            "{command}: {}",
            stderr(&result)
        );
    }
    // `validate` answers for the version it is asked about: one line per refused file.
    let result = run(&["validate", "--godot", "3", godot4]);
    assert_eq!(code(&result), 1);
    assert_eq!(
        stderr(&result),
        format!("gdvariant: {godot4}: unknown type id 27 at byte offset 0\n")
    );
    // Bytes only Godot 3 reads, under --godot 4.
    let godot3 = manifest("godot3")
        .into_iter()
        .map(|case| case_file("godot3", case["name"].as_str().unwrap()))
        .filter(|file| file.exists())
        .find(|file| {
            let detection = gdvariant::detect(&std::fs::read(file).unwrap());
            detection.godot3_error().is_none() && detection.godot4_error().is_some()
        })
        .unwrap();
    let result = run(&["dump", "--godot", "4", godot3.to_str().unwrap()]);
    assert_eq!(code(&result), 1);
    assert!(
        stderr(&result).ends_with("gdvariant: hint: these bytes read as Godot 3: try --godot 3\n"),
        "{}",
        stderr(&result)
    );
    // No hint when neither version reads the bytes, nor without a named version.
    let result = run_with_input(&["dump", "--godot", "3", "-"], &[0xff, 0, 0, 0]);
    assert_eq!(stderr(&result), "gdvariant: -: unknown type id 255 at byte offset 0\n");
    let result = run(&["dump", godot4]);
    assert_eq!(code(&result), 0);
    assert_eq!(stderr(&result), "");

    // A dump whose first frame the other version reads.
    let dump = dump_of("faults-hint", 2, |i, w| {
        w.begin_dictionary(1).unwrap();
        w.string("id").unwrap();
        w.int(i as i64).unwrap();
    });
    let result = run(&["dump", "--frames", "--godot", "3", dump.to_str().unwrap()]);
    assert_eq!(code(&result), 1);
    assert!(
        stderr(&result).starts_with(&format!(
            "gdvariant: {}: hint: frame 0's bytes read as Godot 4: try --godot 4\n",
            dump.display()
        )),
        "{}",
        stderr(&result)
    );
}
