//! The layering of `src/` (ARCHITECTURE.md): the ground floor imports nothing of the crate, the
//! view imports only the ground floor, and neither reaches a layer above through the crate
//! root's re-exports; Godot's high-level multiplayer is not a layer of the core but a crate of
//! its own (`multiplayer/`).
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

/// The `crate::...` paths named in code (not comments) of `file`, each as the text after
/// `crate::` up to the next non-identifier character other than `:`.
fn crate_paths(file: &Path) -> Vec<(usize, String)> {
    let text = fs::read_to_string(file).unwrap();
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let end = after
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '{'))
                .unwrap_or(after.len());
            found.push((number + 1, after[..end].to_string()));
            rest = &after[end..];
        }
    }
    found
}

/// Checks that every `crate::` path in `folder` starts with one of `allowed`.
fn assert_imports_only(folder: &str, allowed: &[&str]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(folder);
    let files = rust_files(&root);
    assert!(files.len() >= 5, "{folder}: expected the layer's files, found {}", files.len());
    let mut wrong = Vec::new();
    for file in &files {
        for (line, path) in crate_paths(file) {
            if !allowed.iter().any(|a| path.starts_with(a)) {
                wrong.push(format!("{}:{line}: crate::{path}", file.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "imports from outside the allowed layers:\n{}", wrong.join("\n"));
}

#[test]
fn the_ground_floor_imports_nothing_above_it() {
    assert_imports_only("wire", &["wire::"]);
}

#[test]
fn the_view_imports_only_the_ground_floor() {
    assert_imports_only("view", &["wire::", "view::"]);
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
        "use crate::owned::Variant; // crate::text in a comment\nuse crate::{Options};\n",
    )
    .unwrap();
    let paths = crate_paths(&file);
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(paths, vec![(1, "owned::Variant".to_string()), (2, "{Options".to_string())]);
}

#[test]
fn the_network_layer_stands_on_framing_the_view_and_the_encoder() {
    assert_imports_only("net", &["net::", "framing::", "view::", "wire::", "encoder::", "owned::"]);
}
