//! `--project DIR` (Godot 4): the game's own scripts and scenes name RPC methods and the
//! properties SPAWN and SYNC carry (`gdvariant_multiplayer::project`), combined with a rules
//! file: the rules file's method lines come first, so a node a rules pattern names keeps the
//! rules file's list, and every other node gets the project's.

use std::path::Path;
use std::sync::Arc;

use gdvariant_multiplayer::project::{Project, ProjectIndex};
use gdvariant_multiplayer::session::PathPattern;

use super::rules::Rules;
use crate::failure::Failure;

/// Reads the project in `dir` (the folder of `project.godot`).
pub fn read(dir: &Path) -> Result<ProjectIndex, Failure> {
    let name = dir.display().to_string();
    if !dir.join("project.godot").is_file() {
        return Err(Failure::Usage(format!("--project {name}: no project.godot in this folder")));
    }
    let project = Project::read_dir(dir).map_err(|e| Failure::input(&name, e))?;
    let index = project.index();
    for warning in index.warnings() {
        warn(&format!("--project {name}: {warning}"));
    }
    Ok(index)
}

/// The rules file's method lists (when given) and the project's, in that order.
pub fn combine(rules: Option<Rules>, project: Option<&ProjectIndex>) -> Option<Rules> {
    let Some(project) = project else { return rules };
    let mut rules = rules.unwrap_or_default();
    let mut methods = (*rules.methods).clone();
    project.add_methods(&mut methods);
    rules.methods = Arc::new(methods);
    Some(rules)
}

/// The proxy's rules (`--rules`, `--project`) and the project (which names what SPAWN and SYNC
/// carry, for `allow-sync` and `allow-spawn`): with a project, the rules file's keys that name
/// no node of the project's scenes are warned about at start (a node made at run time is not
/// in the scenes: the warning says so), and the lists combined. Godot 3 packets carry their
/// method names: `--project` is refused there.
pub fn for_proxy(
    rules: Option<Rules>,
    dir: Option<&Path>,
    version: gdvariant::Version,
) -> Result<(Option<Rules>, Option<Arc<ProjectIndex>>), Failure> {
    let Some(dir) = dir else { return Ok((rules, None)) };
    if version == gdvariant::Version::Godot3 {
        return Err(Failure::Usage(
            "--project names Godot 4 methods; Godot 3 packets carry their method names".into(),
        ));
    }
    let index = read(dir)?;
    if let Some(rules) = &rules {
        let paths: Vec<&str> = index.node_paths().collect();
        for key in unmatched(rules, &paths) {
            warn(&format!(
                "rules file: `{key}` names no node of the project's scenes (a node made at run \
                 time is not in them)"
            ));
        }
    }
    let rules = combine(rules, Some(&index));
    Ok((rules, Some(Arc::new(index))))
}

/// The rules file's node keys (`methods` and `native` lines) that match none of `paths`.
pub fn unmatched<'a>(rules: &'a Rules, paths: &[&str]) -> Vec<&'a str> {
    rules
        .keys
        .iter()
        .filter(|key| {
            let pattern = PathPattern::new(key);
            !paths.iter().any(|path| pattern.matches(path))
        })
        .map(String::as_str)
        .collect()
}

/// Prints `gdvariant: warning: TEXT` on standard error.
pub fn warn(text: &str) {
    crate::failure::error_line(format_args!("warning: {text}"));
}
