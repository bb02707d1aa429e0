//! `validate`: the engines' verdicts on their crafted inputs, one line per refused file.

use crate::support::*;

#[test]
fn verdicts_equal_the_engines_on_every_crafted_input() {
    for (version, godot) in VERSIONS {
        let cases = read_jsonl(&corpus_dir(version).join("decode.jsonl"));
        assert!(cases.len() >= 28, "{version}");
        let (mut accepted, mut refused) = (Vec::new(), Vec::new());
        for case in &cases {
            let name = case["name"].as_str().unwrap();
            let file = corpus_dir(version).join("decode").join(format!("{name}.bin"));
            let file = file.to_str().unwrap().to_owned();
            let mut args = vec!["validate", "--godot", godot];
            args.extend(objects_args(case));
            args.push(&file);
            let output = run(&args);
            let err = stderr(&output);
            if case["accepted"] == true {
                assert_eq!(code(&output), 0, "{version}/{name}: {err}");
                assert_eq!(err, "", "{version}/{name}");
                if objects_args(case).is_empty() {
                    accepted.push(file);
                }
            } else {
                assert_eq!(code(&output), 1, "{version}/{name}: Godot refuses it");
                let prefix = format!("gdvariant: {file}: ");
                assert!(err.starts_with(&prefix), "{version}/{name}: {err}");
                let empty = err == format!("{prefix}empty input: no Godot value\n");
                assert!(err.contains(" at byte offset ") || empty, "{version}/{name}: {err}");
                assert_eq!(err.lines().count(), 1, "{version}/{name}: {err}");
                if objects_args(case).is_empty() {
                    refused.push(file);
                }
            }
            assert_eq!(stdout(&output), "");
        }
        // Several files at once: every refused one is named, once.
        let mut args = vec!["validate".to_owned(), "--godot".to_owned(), godot.to_owned()];
        args.extend(accepted.iter().cloned());
        assert_eq!(code(&run(&args)), 0, "{version}: the accepted files together");
        args.extend(refused.iter().cloned());
        let output = run(&args);
        assert_eq!(code(&output), 1);
        assert_eq!(stderr(&output).lines().count(), refused.len(), "{version}");
    }
}

#[test]
fn every_value_of_the_corpora_is_valid() {
    for (version, godot) in VERSIONS {
        for case in value_cases(version) {
            let name = case["name"].as_str().unwrap();
            let file = case_file(version, name);
            let mut args = vec!["validate", "--godot", godot];
            args.extend(objects_args(&case));
            let output = run(&[args, vec![file.to_str().unwrap()]].concat());
            assert_eq!(code(&output), 0, "{version}/{name}: {}", stderr(&output));
        }
    }
}
