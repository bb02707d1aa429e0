//! `--rules FILE` and `--project DIR`: the library's rules (`gdvariant_multiplayer::rules`) read
//! from the file, combined with the game's project (`gdvariant_multiplayer::project`: method
//! lists, spawn and sync property names), with the command's warnings: the project's own, and
//! a rules file's `methods`/`native` key that names no node.

use std::path::Path;
use std::sync::Arc;

use gdvariant_multiplayer::project::{Project, ProjectIndex};
use gdvariant_multiplayer::rules::Rules;

use crate::failure::Failure;

/// Reads the rules file at `path`.
pub fn read_rules(path: &Path) -> Result<Rules, Failure> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| Failure::input(&name, e))?;
    Rules::parse(&text).map_err(|e| Failure::Usage(format!("{name}: {e}")))
}

/// Reads the project in `dir` (the folder of `project.godot`), warning about what it could not
/// resolve.
pub fn read(dir: &Path) -> Result<ProjectIndex, Failure> {
    let name = dir.display().to_string();
    if !dir.join("project.godot").is_file() {
        return Err(Failure::Usage(format!("--project {name}: no project.godot in this folder")));
    }
    let index = Project::read_index(dir).map_err(|e| Failure::input(&name, e))?;
    for warning in index.warnings() {
        warn(&format!("--project {name}: {warning}"));
    }
    Ok(index)
}

/// The rules file's method lists (when given) and the project's, in that order.
pub fn combine(rules: Option<Rules>, project: Option<&ProjectIndex>) -> Option<Rules> {
    let Some(project) = project else { return rules };
    Some(rules.unwrap_or_default().with_project(project))
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
        for key in rules.unmatched_keys(&paths) {
            warn(&format!(
                "rules file: `{key}` names no node of the project's scenes (a node made at run \
                 time is not in them)"
            ));
        }
    }
    let rules = combine(rules, Some(&index));
    Ok((rules, Some(Arc::new(index))))
}

/// Prints `gdvariant: warning: TEXT` on standard error.
pub fn warn(text: &str) {
    crate::failure::error_line(format_args!("warning: {text}"));
}
