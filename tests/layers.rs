//! The layering of `src/` (ARCHITECTURE.md): every layer imports only the layers below it, and
//! none reaches a layer above through the crate root's re-exports (each root name is resolved to
//! the layer that defines it); Godot's high-level multiplayer is not a layer of the core but a
//! crate of its own (`multiplayer/`). The other crates' edges are Cargo's: each names only the
//! crates below it (`crate_edges_point_down`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The layer (folder of `src/`, or `detection`) each name re-exported at the crate root comes
/// from, so that `crate::Options` counts as an import of `wire`.
const ROOT_NAMES: &[(&str, &str)] = &[
    ("detect", "detection"),
    ("encode", "encoder"),
    ("EncodeOptions", "encoder"),
    ("Writer", "encoder"),
    ("Variant", "owned"),
    ("decode", "owned"),
    ("ElementType", "view"),
    ("Key", "view"),
    ("VariantRef", "view"),
    ("game", "view"),
    ("math", "view"),
    ("packed", "view"),
    ("parse", "view"),
    ("parse_prefix", "view"),
    ("validate", "view"),
    ("Error", "wire"),
    ("ErrorKind", "wire"),
    ("GodotError", "wire"),
    ("Result", "wire"),
    ("MAX_DEPTH", "wire"),
    ("Options", "wire"),
    ("Version", "wire"),
    ("VariantType", "wire"),
    ("work", "wire"),
];

/// The layer named by a path's first segment after `crate::` (a root re-export resolved).
fn layer_of(segment: &str) -> String {
    let name = segment.split_whitespace().next().unwrap_or("");
    ROOT_NAMES.iter().find(|(n, _)| *n == name).map_or(name, |(_, layer)| layer).to_string()
}

/// The layers that the code (not comments) of `file` imports through `crate::` paths, with the
/// line of each: `crate::owned::Variant` gives `owned`, `crate::{Options, view::GdStr}` gives
/// `wire` and `view` (braces may span lines).
fn crate_paths(file: &Path) -> Vec<(usize, String)> {
    let text = fs::read_to_string(file).unwrap();
    let code: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(n, line)| (n + 1, line.split("//").next().unwrap_or("")))
        .collect();
    let mut found = Vec::new();
    for (index, &(number, line)) in code.iter().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            if let Some(group) = after.strip_prefix('{') {
                // The group's text up to its closing brace, on this line or the next ones.
                let mut inner = group.to_string();
                let mut next = index + 1;
                while !balanced_close(&inner) && next < code.len() {
                    inner.push(' ');
                    inner.push_str(code[next].1);
                    next += 1;
                }
                for item in top_level_items(&inner) {
                    found.push((number, layer_of(&item)));
                }
                rest = "";
            } else {
                let end =
                    after.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(after.len());
                found.push((number, layer_of(&after[..end])));
                rest = &after[end..];
            }
        }
    }
    found
}

/// Whether `text` (after an opening brace) holds the matching closing brace.
fn balanced_close(text: &str) -> bool {
    let mut depth = 1i32;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            return true;
        }
    }
    false
}

/// The first path segment of each top-level item of a brace group (`A, b::{C, D}, E as F}`).
fn top_level_items(text: &str) -> Vec<String> {
    let mut items = Vec::new();
    let (mut depth, mut current) = (0i32, String::new());
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    items.push(current);
    items
        .iter()
        .map(|item| item.trim().split("::").next().unwrap_or("").trim().to_string())
        .filter(|first| !first.is_empty() && first != "self")
        .collect()
}

/// Checks that every `crate::` path in `folder` (a folder of `src/`, or a file such as
/// `detection.rs`) names one of `allowed` (layers; a root re-export counts as its layer).
fn assert_imports_only(folder: &str, allowed: &[&str]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(folder);
    let files = if root.is_file() { vec![root] } else { rust_files(&root) };
    assert!(!files.is_empty(), "{folder}: no files");
    let (mut wrong, mut seen) = (Vec::new(), 0);
    for file in &files {
        for (line, layer) in crate_paths(file) {
            seen += 1;
            if !allowed.contains(&layer.as_str()) {
                wrong.push(format!("{}:{line}: crate::{layer}", file.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "imports from outside the allowed layers:\n{}", wrong.join("\n"));
    // A layer with allowed imports uses some (else the reader found nothing: a broken check).
    assert!(allowed.is_empty() || seen > 0, "{folder}: no crate:: path found");
}

#[test]
fn the_ground_floor_imports_nothing_above_it() {
    assert_imports_only("wire", &["wire"]);
}

#[test]
fn the_view_imports_only_the_ground_floor() {
    assert_imports_only("view", &["wire", "view"]);
}

/// Godot's high-level multiplayer is its own crate (`multiplayer/`, `gdvariant-multiplayer`),
/// built on the core's public API: no folder of `src/` holds it, and no code of `src/` (outside
/// comments) names it.
#[test]
fn multiplayer_is_not_a_layer_of_the_core() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    assert!(!src.join("multiplayer").exists(), "src/multiplayer/ is back");
    let files = rust_files(&src);
    assert!(files.len() > 50, "expected the core's files, found {}", files.len());
    let mut named = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap();
        named.extend(
            code_naming(&text, "multiplayer").map(|line| format!("{}:{line}", file.display())),
        );
    }
    assert!(named.is_empty(), "the core's code names multiplayer:\n{}", named.join("\n"));
}

/// The numbers of the lines of `text` whose code (not a `//` comment) holds `word`, lowercase
/// (class names such as `"MultiplayerAPI"` in the class tables are not code about it).
fn code_naming<'t>(text: &'t str, word: &'t str) -> impl Iterator<Item = usize> + 't {
    text.lines()
        .enumerate()
        .filter(move |(_, line)| line.split("//").next().unwrap_or("").contains(word))
        .map(|(number, _)| number + 1)
}

#[test]
fn the_multiplayer_check_sees_code_but_not_comments() {
    let text = "//! multiplayer in docs\nuse crate::multiplayer::godot4; // multiplayer\n\"MultiplayerAPI\",\n";
    assert_eq!(code_naming(text, "multiplayer").collect::<Vec<_>>(), vec![2]);
}

#[test]
fn the_check_sees_an_upward_import() {
    let dir = std::env::temp_dir().join(format!("gdvariant-layers-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("probe.rs");
    fs::write(
        &file,
        "use crate::owned::Variant; // crate::text in a comment\nuse crate::{Options,\n    view::{GdStr, Key}, Writer as W};\nlet x = crate::decode(b);\n",
    )
    .unwrap();
    let paths = crate_paths(&file);
    fs::remove_dir_all(&dir).unwrap();
    let expected = [(1, "owned"), (2, "wire"), (2, "view"), (2, "encoder"), (4, "owned")];
    assert_eq!(paths, expected.map(|(n, l)| (n, l.to_string())));
}

#[test]
fn the_network_layer_stands_on_framing_the_view_and_the_encoder() {
    assert_imports_only("net", &["net", "framing", "view", "wire", "encoder", "owned"]);
}

#[test]
fn owned_values_stand_on_the_view_and_the_encoder() {
    assert_imports_only("owned", &["owned", "view", "wire", "encoder"]);
}

#[test]
fn the_encoder_stands_on_the_view_and_reads_owned_values_only_to_write_them() {
    assert_imports_only("encoder", &["encoder", "view", "wire", "owned"]);
    // Only `variant.rs` (`encode`, `Variant::encode`) knows owned values.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/encoder");
    for file in rust_files(&root) {
        if file.file_name().is_some_and(|n| n != "variant.rs") {
            let owned = crate_paths(&file).into_iter().filter(|(_, l)| l == "owned").count();
            assert_eq!(owned, 0, "{} imports owned values", file.display());
        }
    }
}

#[test]
fn framing_stands_on_the_view_and_the_encoder() {
    assert_imports_only("framing", &["framing", "view", "wire", "encoder"]);
}

#[test]
fn serde_stands_on_the_view_and_owned_values() {
    assert_imports_only("serde", &["serde", "view", "owned", "wire", "encoder"]);
}

#[test]
fn text_json_and_detection_stand_on_the_view() {
    assert_imports_only("text", &["text", "view", "wire"]);
    assert_imports_only("json", &["json", "view", "wire"]);
    assert_imports_only("detection.rs", &["view", "wire"]);
}

#[test]
fn the_guides_import_nothing() {
    assert_imports_only("guide", &[]);
}

/// The workspace's crates name only crates below them: the core none of the others, the export
/// and the multiplayer crate only the core, the relay and the capture reader those two, the
/// command-line tool the five libraries.
#[test]
fn crate_edges_point_down() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = [
        "gdvariant-arrow",
        "gdvariant-multiplayer",
        "gdvariant-pcap",
        "gdvariant-relay",
        "gdvariant-cli",
    ];
    let depends = |manifest: &str| -> Vec<String> {
        let text = fs::read_to_string(root.join(manifest)).unwrap();
        let normal = text
            .split("\n[")
            .filter(|section| section.starts_with("dependencies]"))
            .collect::<String>();
        let mut names: Vec<String> = normal
            .lines()
            .filter_map(|line| line.split_once('=').map(|(name, _)| name.trim().to_string()))
            .filter(|name| name == "gdvariant" || workspace.contains(&name.as_str()))
            .collect();
        names.sort();
        names
    };
    assert_eq!(depends("Cargo.toml"), Vec::<String>::new());
    assert_eq!(depends("export/Cargo.toml"), ["gdvariant"]);
    assert_eq!(depends("multiplayer/Cargo.toml"), ["gdvariant"]);
    assert_eq!(depends("relay/Cargo.toml"), ["gdvariant", "gdvariant-multiplayer"]);
    assert_eq!(depends("pcap/Cargo.toml"), ["gdvariant", "gdvariant-multiplayer"]);
    assert_eq!(
        depends("cli/Cargo.toml"),
        [
            "gdvariant",
            "gdvariant-arrow",
            "gdvariant-multiplayer",
            "gdvariant-pcap",
            "gdvariant-relay"
        ]
    );
}
