//! `detect`, and `--godot auto`: every case whose type id means different things in Godot 3
//! and Godot 4 (ids 6 to 26), in both corpora.

use crate::support::*;

#[test]
fn every_case_whose_type_id_differs_between_versions() {
    for (version, godot) in VERSIONS {
        let v = if godot == "3" { gdvariant::Version::Godot3 } else { gdvariant::Version::Godot4 };
        let (mut cases, mut told) = (0, 0);
        for case in value_cases(version) {
            let id = case["type_id"].as_u64().unwrap();
            if !(6..=26).contains(&id) {
                continue;
            }
            let name = case["name"].as_str().unwrap();
            let file = case_file(version, name);
            let path = file.to_str().unwrap();
            let bytes = std::fs::read(&file).unwrap();
            let detection = gdvariant::detect(&bytes);

            let output = run(&["detect", path]);
            assert_eq!(stdout(&output), format!("{path}: {detection}\n"), "{version}/{name}");
            assert_eq!(code(&output), if detection.version().is_some() { 0 } else { 1 });
            cases += 1;

            // Whenever the bytes are one version's only, detection names it, and `auto`
            // reads them as that version.
            if detection.verdict() != gdvariant::detection::Verdict::Both {
                assert_eq!(detection.version(), Some(v), "{version}/{name}: {detection}");
                let mut args = vec!["dump", "--format", "json"];
                args.extend(objects_args(&case));
                args.push(path);
                let auto = run(&args);
                let explicit = run(&[args.clone(), vec!["--godot", godot]].concat());
                assert_eq!(code(&auto), 0, "{version}/{name}: {}", stderr(&auto));
                assert_eq!(auto.stdout, explicit.stdout, "{version}/{name}");
                told += 1;
            }
        }
        assert!(cases >= 40, "{version}: {cases} cases");
        // Only bytes that are valid in both versions (same-sized payloads) stay ambiguous.
        assert!(told * 10 >= cases * 7, "{version}: {told} of {cases} told apart");
    }
}

#[test]
fn an_explicit_version_always_wins() {
    // Godot 3's empty Dictionary (id 18) is a truncated Transform3D to Godot 4.
    let file = case_file("godot3", "dict_empty");
    let output = run(&["validate", file.to_str().unwrap()]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let output = run(&["validate", "--godot", "4", file.to_str().unwrap()]);
    assert_eq!(code(&output), 1);
}
