//! `--rules FILE` and `--project DIR`: the library's rules (`gdvariant_multiplayer::rules`) read
//! from the file, combined with the game's project (`gdvariant_multiplayer::project`: method
//! lists, spawn and sync property names), with the command's warnings: the project's own, and
//! a rules file's `methods`/`native` key that names no node. [`Names`] is what `gdvariant
//! multiplayer` and `gdvariant pcap --multiplayer` share.

use std::path::Path;
use std::sync::Arc;

use gdvariant_multiplayer::project::{Project, ProjectIndex};
use gdvariant_multiplayer::rules::Rules;
use gdvariant_multiplayer::session::RpcMethods;

use crate::failure::Failure;

/// What names a capture's messages: a rules file's method lists and the game's project
/// (`--rules`, `--project`), as `gdvariant multiplayer` and `gdvariant pcap --multiplayer` read
/// them.
#[derive(Debug, Default)]
pub struct Names {
    rules: Option<Rules>,
    index: Option<Arc<ProjectIndex>>,
}

impl Names {
    /// Reads the rules file and the project, when given (the project's warnings printed).
    pub fn read(rules: Option<&Path>, project: Option<&Path>) -> Result<Names, Failure> {
        let rules_file = rules.map(read_rules).transpose()?;
        let index = project.map(read).transpose()?.map(Arc::new);
        let rules = combine(rules_file, index.as_deref());
        Ok(Names { rules, index })
    }

    /// The Godot 4 method lists (empty without either).
    pub fn methods(&self) -> Arc<RpcMethods> {
        self.rules.as_ref().map(|r| Arc::clone(r.methods())).unwrap_or_default()
    }

    /// The project, when given.
    pub fn index(&self) -> Option<Arc<ProjectIndex>> {
        self.index.clone()
    }

    /// Warns that the project is not used: the traffic is Godot 3's (its packets name their
    /// methods), when a project was given.
    pub fn warn_godot3(&self, what: &str) {
        if self.index.is_some() {
            warn(&format!("--project: {what} names its methods itself; the project is not used"));
        }
    }

    /// Warns about each rules key that names no node of the project or of `paths` (the nodes
    /// the capture called and announced): likely misspelled.
    pub fn warn_unmatched<'p>(&self, paths: impl IntoIterator<Item = &'p str>) {
        let Some(rules) = &self.rules else { return };
        let mut paths: Vec<&str> = paths.into_iter().collect();
        if let Some(index) = &self.index {
            paths.extend(index.node_paths());
        }
        for key in rules.unmatched_keys(&paths) {
            warn(&format!(
                "rules file: `{key}` names no node of the {}capture",
                if self.index.is_some() { "project or of the " } else { "" }
            ));
        }
    }
}

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
