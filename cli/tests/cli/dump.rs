//! `dump`: JSON against committed golden files and against the corpora's expected values; text
//! against Godot's own `var_to_str` / `var2str`.
//!
//! The golden files are this command's own output (written with `GDVARIANT_BLESS=1`), kept to
//! catch any change; they are not engine output. What the engines say is checked by comparing
//! each case's JSON with the value Godot recorded for it (`expected` in the corpus manifest).

use crate::support::*;

/// Cases larger than this have no golden file (their JSON would be megabytes).
const GOLDEN_MAX_SIZE: u64 = 64 << 10;

#[test]
fn json_matches_the_golden_files_and_the_engines_values() {
    let bless = std::env::var_os("GDVARIANT_BLESS").is_some();
    for (version, godot) in VERSIONS {
        let dir = golden_dir("json").join(version);
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
        }
        let (mut compared, mut checked) = (0, 0);
        for case in value_cases(version) {
            if case["size"].as_u64().unwrap() > GOLDEN_MAX_SIZE {
                continue;
            }
            let name = case["name"].as_str().unwrap();
            let file = case_file(version, name);
            let mut args = vec!["dump", "--format", "json", "--godot", godot];
            args.extend(objects_args(&case));
            let output = run(&[args, vec![file.to_str().unwrap()]].concat());
            assert_eq!(code(&output), 0, "{version}/{name}: {}", stderr(&output));
            let text = stdout(&output);
            let golden = dir.join(format!("{name}.json"));
            if bless {
                std::fs::write(&golden, &text).unwrap();
            }
            let want = std::fs::read_to_string(&golden)
                .unwrap_or_else(|e| panic!("{}: {e}", golden.display()));
            assert_eq!(text, want, "{version}/{name}");
            compared += 1;
            let json = parse_json(&text);
            if let Some(mine) = to_expected(&json) {
                assert!(
                    agrees(&mine, &case["expected"]),
                    "{version}/{name}: {mine} vs {}",
                    case["expected"]
                );
                checked += 1;
            }
        }
        // Every small case has a golden file; most also read back to Godot's value.
        assert!(compared >= 140, "{version}: {compared} golden files");
        assert!(checked * 10 >= compared * 8, "{version}: {checked} of {compared} checked");
    }
}

#[test]
fn json_keeps_what_json_numbers_would_lose() {
    // Godot 4.6: var_to_bytes(NAN), INF, -0.0 and 0.1 as float values.
    for (name, want) in [
        ("float_nan", r#"{"type":"float","value":"nan"}"#),
        ("float_inf", r#"{"type":"float","value":"inf"}"#),
        ("float_neg_inf", r#"{"type":"float","value":"-inf"}"#),
        ("float_neg0", "-0.0"),
        ("float_0_1", "0.1"),
        ("float_1e20", "1e20"),
        ("float_1", "1.0"),
        ("int_1", "1"),
    ] {
        let file = case_file("godot4", name);
        let output = run(&["dump", "--format", "json", "--godot", "4", file.to_str().unwrap()]);
        assert_eq!(stdout(&output).trim_end(), want, "{name}");
    }
}

#[test]
fn text_is_the_librarys_godot_text() {
    for (version, godot) in VERSIONS {
        let (v, field) = match version {
            "godot3" => (gdvariant::Version::Godot3, "var2str"),
            _ => (gdvariant::Version::Godot4, "var_to_str"),
        };
        let (mut cases, mut as_godot) = (0, 0);
        for case in value_cases(version) {
            let name = case["name"].as_str().unwrap();
            let file = case_file(version, name);
            let bytes = std::fs::read(&file).unwrap();
            let mut args = vec!["dump", "--godot", godot];
            args.extend(objects_args(&case));
            let output = run(&[args, vec![file.to_str().unwrap()]].concat());
            assert_eq!(code(&output), 0, "{version}/{name}: {}", stderr(&output));
            let options =
                gdvariant::Options::new(v).with_allow_objects(!objects_args(&case).is_empty());
            let value = gdvariant::parse(&bytes, options).unwrap();
            let library = gdvariant::text::to_text_as(value, v).unwrap();
            let text = stdout(&output);
            assert_eq!(text, format!("{library}\n"), "{version}/{name}");
            cases += 1;
            if case[field].as_str() == Some(library.as_str()) {
                as_godot += 1;
            }
        }
        // Godot's own text, wherever the library writes it exactly.
        assert!(
            as_godot * 10 >= cases * 9,
            "{version}: {as_godot} of {cases} as Godot prints them"
        );
    }
}
