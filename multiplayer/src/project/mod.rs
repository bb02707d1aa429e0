//! A Godot 4 project's RPC method lists and replication configs, read from its files (feature
//! `alloc`; [`Project::read_dir`] with `std`).
//!
//! Godot 4 sends no method names and no property names: an RPC carries an index into the
//! target node's sorted method list ([`crate::session`]), a SPAWN the spawn properties' values
//! and a SYNC the replicated properties' values, by position. The project's files say what
//! they are, and this module reads them without running anything:
//!
//! - scripts (`*.gd`, [`parse_script`]): `@rpc` functions (with their annotation arguments),
//!   the base (`extends "res://…"`, `extends ClassName` with the base's `class_name`), and
//!   `rpc_config("name", {…})` calls whose name is a literal;
//! - scenes (`*.tscn`, [`parse_scene`]): which script each node uses, instanced sub-scenes
//!   (their nodes under the instancing node, its own properties over the sub-scene root's),
//!   each `MultiplayerSpawner`'s `_spawnable_scenes`, each `MultiplayerSynchronizer`'s
//!   `root_path` and `SceneReplicationConfig` (`properties/N/path`, `spawn`,
//!   `replication_mode` or the older `sync` / `watch`, applied as Godot 4.6 applies them);
//! - `project.godot` ([`parse_settings`]): the main scene and the autoloads, which are the
//!   nodes under `/root` (the default multiplayer root) whose paths peers announce.
//!
//! [`Project::index`] builds what Godot builds: per script, the `@rpc` names of the script and
//! of every base (an override without `@rpc` stays an RPC: Godot copies the base's config), the
//! `rpc_config` names the script gives its own node; both sorted by code point at
//! [`MethodList`] (Godot 4.6 sorts both lists with `StringLikeVariantOrder`, which compares
//! `char32_t` code points: Rust's `str` order). [`ProjectIndex::add_methods`] gives an
//! [`RpcMethods`] a list per node path of the main scene and the autoloads, and one per script
//! for any node announced with its checksum (nodes made at run time, other multiplayer roots);
//! `other.rpc_config("name", …)` names a node the text does not identify, so each such name
//! (up to 16) and all of them together are tried with every script's list, and the checksum the
//! peer sends picks the right one or none.
//!
//! What it cannot see: scripts built at run time (`GDScript.new()`), names that are not
//! literals, scripts set with `set_script`, built-in scripts inside scenes, C# and GDExtension
//! classes, a multiplayer root other than `/root` (the per-checksum lists still name those
//! nodes). A list that is wrong is detected, never silently used: the checksum does not match.
//!
//! Every reader is one pass over its text, never fails and never panics on any input; the
//! index expands instanced scenes at most [`MAX_NODES`] nodes in all and follows `extends`
//! at most [`MAX_DEPTH`] levels (cycles stop there), so building it is linear in the files'
//! size plus what those caps allow.

mod gdscript;
mod scene;

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::session::{MethodList, RpcMethods};

pub use gdscript::{Extends, RpcFunction, ScriptInfo, parse_script};
pub use scene::{
    ProjectSettings, ReplicatedProperty, ReplicationConfig, Scene, SceneNode, parse_scene,
    parse_settings,
};

/// Most scene nodes the index reads, instanced scenes expanded, over the whole project (the
/// spawnable scenes and the tree under `/root` together): 65,536.
pub const MAX_NODES: usize = 1 << 16;

/// Most levels of `extends` and of scenes instanced inside scenes: 64.
pub const MAX_DEPTH: usize = 64;

/// Most `other.rpc_config` names tried one by one with every script: 16.
const MAX_LOOSE: usize = 16;

/// A project's files, read: scripts and scenes by resource path, and `project.godot`.
#[derive(Clone, Debug, Default)]
pub struct Project {
    scripts: BTreeMap<String, ScriptInfo>,
    scenes: BTreeMap<String, Scene>,
    settings: ProjectSettings,
}

/// A node of the scene tree as the project's scenes build it.
#[derive(Clone, Debug, Default)]
struct TreeNode {
    path: String,
    script: Option<String>,
    spawnable: Option<Vec<String>>,
    root_path: Option<String>,
    replication: Option<ReplicationConfig>,
}

/// A scene a spawner can spawn: its resource path and the synchronizers whose root is the
/// scene's root (those a SPAWN carries ids and state for), in tree order.
#[derive(Clone, Debug)]
struct SpawnScene {
    path: String,
    synchronizers: Vec<ReplicationConfig>,
}

/// What [`ProjectIndex::spawn_scene`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpawnMatch {
    /// The scene, for [`ProjectIndex::scene_path`] and the property lookups.
    pub scene: usize,
    /// The spawner (or the scene index) is not in the project's scenes, or the spawn is custom:
    /// the scene is the only one of the project whose synchronizers fit the packet.
    pub inferred: bool,
}

/// What a project's files say, resolved: method lists per node and per script, spawners,
/// synchronizers. Built by [`Project::index`].
#[derive(Clone, Debug, Default)]
pub struct ProjectIndex {
    /// Node path (under `/root`) -> (native names, script names).
    nodes: BTreeMap<String, (Vec<String>, Vec<String>)>,
    /// Every node path of the main scene and the autoloads.
    paths: BTreeSet<String>,
    /// Per script: (native names, script names).
    scripts: Vec<(Vec<String>, Vec<String>)>,
    /// `other.rpc_config` names.
    loose: Vec<String>,
    /// Spawner path -> its scenes (indexes into `spawn_scenes`, `None` for one not in the
    /// project).
    spawners: BTreeMap<String, Vec<Option<usize>>>,
    /// Synchronizer path -> its config.
    synchronizers: BTreeMap<String, ReplicationConfig>,
    spawn_scenes: Vec<SpawnScene>,
    warnings: Vec<String>,
}

/// `rel` (a node path relative to `base`, `..` going up) from `base`; `None` when it leaves the
/// tree or is absolute.
fn resolve_path(base: &str, rel: &str) -> Option<String> {
    if rel.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            name => parts.push(name),
        }
    }
    Some(parts.join("/"))
}

/// `prefix/name`, or `name` at the top.
fn child(prefix: &str, name: &str) -> String {
    if prefix.is_empty() { name.into() } else { format!("{prefix}/{name}") }
}

/// The name a property path shows as: `.:position` is `position`; others as written.
pub fn property_name(path: &str) -> &str {
    path.strip_prefix(".:").unwrap_or(path)
}

impl Project {
    /// No files yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the file at resource path `path` (`res://player.gd`) holding `text`: a script
    /// (`.gd`), a scene (`.tscn`) or `res://project.godot`; other files are ignored. O(length).
    pub fn add_file(&mut self, path: &str, text: &str) {
        if path.ends_with(".gd") {
            self.scripts.insert(path.into(), parse_script(text));
        } else if path.ends_with(".tscn") {
            self.scenes.insert(path.into(), parse_scene(text));
        } else if path == "res://project.godot" {
            self.settings = parse_settings(text);
        }
    }

    /// Reads every `*.gd`, `*.tscn` and `project.godot` under `dir` (the folder holding
    /// `project.godot`), skipping hidden folders (`.godot`, `.git`) and not following symbolic
    /// links to folders. Files that are not UTF-8 are read with replacement characters.
    ///
    /// # Errors
    /// `dir` or a folder under it cannot be listed, or a file cannot be read.
    #[cfg(feature = "std")]
    pub fn read_dir(dir: &std::path::Path) -> std::io::Result<Self> {
        let mut project = Project::new();
        let mut pending = alloc::vec![(dir.to_path_buf(), String::from("res:/"))];
        while let Some((folder, res)) = pending.pop() {
            let mut entries = std::fs::read_dir(&folder)?.collect::<Result<Vec<_>, _>>()?;
            entries.sort_by_key(std::fs::DirEntry::file_name);
            for entry in entries {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') {
                    continue;
                }
                let kind = entry.file_type()?;
                let path = format!("{res}/{name}");
                if kind.is_dir() {
                    pending.push((entry.path(), path));
                } else if name.ends_with(".gd")
                    || name.ends_with(".tscn")
                    || path == "res://project.godot"
                {
                    let bytes = std::fs::read(entry.path())?;
                    project.add_file(&path, &String::from_utf8_lossy(&bytes));
                }
            }
        }
        Ok(project)
    }

    /// Reads the project in `dir` ([`Project::read_dir`]) and resolves it ([`Project::index`]).
    ///
    /// # Errors
    /// No `project.godot` in `dir` ([`std::io::ErrorKind::NotFound`]), or what
    /// [`Project::read_dir`] refuses.
    #[cfg(feature = "std")]
    pub fn read_index(dir: &std::path::Path) -> std::io::Result<ProjectIndex> {
        if !dir.join("project.godot").is_file() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("no project.godot in {}", dir.display()),
            ));
        }
        Ok(Project::read_dir(dir)?.index())
    }

    /// The scripts read, by resource path.
    pub fn scripts(&self) -> &BTreeMap<String, ScriptInfo> {
        &self.scripts
    }

    /// The scenes read, by resource path.
    pub fn scenes(&self) -> &BTreeMap<String, Scene> {
        &self.scenes
    }

    /// What `project.godot` says.
    pub fn settings(&self) -> &ProjectSettings {
        &self.settings
    }

    /// A scene's resource path from `res://…` or `uid://…`.
    fn scene_path(&self, reference: &str) -> Option<String> {
        if reference.starts_with("uid://") {
            return self
                .scenes
                .iter()
                .find(|(_, s)| s.uid.as_deref() == Some(reference))
                .map(|(p, _)| p.clone());
        }
        self.scenes.contains_key(reference).then(|| reference.into())
    }

    /// The script `reference` names from `from` (a relative `extends` path is relative to the
    /// script's folder; a class name is a project `class_name`).
    fn base_of(&self, from: &str, extends: &Extends) -> Option<String> {
        match extends {
            Extends::Path(path) if path.starts_with("res://") => Some(path.clone()),
            Extends::Path(path) => {
                let folder = from.rsplit_once('/').map_or("res:/", |(f, _)| f);
                let inside = folder.strip_prefix("res://").unwrap_or("");
                resolve_path(inside, path).map(|p| format!("res://{p}"))
            }
            Extends::Class(name) => self
                .scripts
                .iter()
                .find(|(_, s)| s.class_name.as_deref() == Some(name.as_str()))
                .map(|(p, _)| p.clone()),
        }
    }

    /// A script's names with its bases': (`rpc_config` names on its own node, `@rpc` names).
    fn script_names(&self, path: &str) -> (BTreeSet<String>, BTreeSet<String>) {
        let mut native = BTreeSet::new();
        let mut script = BTreeSet::new();
        let mut seen = BTreeSet::new();
        let mut current = Some(String::from(path));
        while let Some(at) = current.take() {
            if seen.len() >= MAX_DEPTH || !seen.insert(at.clone()) {
                break;
            }
            let Some(info) = self.scripts.get(&at) else { break };
            crate::work(info.rpc.len().saturating_add(info.self_config.len()).saturating_add(1));
            script.extend(info.rpc.iter().map(|f| f.name.clone()));
            native.extend(info.self_config.iter().cloned());
            current = info.extends.as_ref().and_then(|e| self.base_of(&at, e));
        }
        (native, script)
    }

    /// The nodes `scene` builds under `prefix` (its root at `prefix`), appended to `out`.
    fn expand(
        &self,
        scene: &str,
        prefix: &str,
        out: &mut Vec<TreeNode>,
        stack: &mut Vec<String>,
        budget: &mut usize,
        warnings: &mut Vec<String>,
    ) {
        if stack.len() >= MAX_DEPTH || stack.iter().any(|s| s == scene) {
            warnings.push(format!("{scene}: instanced inside itself, or too deep; not expanded"));
            return;
        }
        let Some(parsed) = self.scenes.get(scene) else { return };
        stack.push(scene.into());
        let mut index: BTreeMap<String, usize> = BTreeMap::new();
        for node in &parsed.nodes {
            crate::work(1);
            if *budget == 0 {
                warnings.push(format!(
                    "more than {MAX_NODES} nodes in the scenes: the rest is not read"
                ));
                break;
            }
            *budget = budget.saturating_sub(1);
            let path = match node.parent.as_deref() {
                None => String::from(prefix),
                Some(".") => child(prefix, &node.name),
                Some(parent) => match resolve_path(prefix, parent) {
                    Some(p) => child(&p, &node.name),
                    None => continue,
                },
            };
            if let Some(instance) = &node.instance {
                let start = out.len();
                self.expand(instance, &path, out, stack, budget, warnings);
                for (at, n) in out.iter().enumerate().skip(start) {
                    index.entry(n.path.clone()).or_insert(at);
                }
            }
            let at = match index.get(&path) {
                Some(&at) => at,
                None => {
                    out.push(TreeNode { path: path.clone(), ..TreeNode::default() });
                    let at = out.len().saturating_sub(1);
                    index.insert(path, at);
                    at
                }
            };
            if let Some(target) = out.get_mut(at) {
                if node.script.is_some() {
                    target.script.clone_from(&node.script);
                }
                if node.spawnable_scenes.is_some() {
                    target.spawnable.clone_from(&node.spawnable_scenes);
                }
                if node.root_path.is_some() {
                    target.root_path.clone_from(&node.root_path);
                }
                if node.replication.is_some() {
                    target.replication.clone_from(&node.replication);
                }
            }
        }
        stack.pop();
    }

    /// Resolves the project: scene trees, inheritance, method lists, spawners, synchronizers.
    /// Linear in the files' size plus the expanded nodes ([`MAX_NODES`]) and inherited names.
    pub fn index(&self) -> ProjectIndex {
        let mut index = ProjectIndex::default();
        let mut warnings = Vec::new();
        let mut budget = MAX_NODES;
        // The scenes a spawner can spawn.
        let scene_paths: Vec<&String> = self.scenes.keys().collect();
        for path in &scene_paths {
            let mut nodes = Vec::new();
            self.expand(path, "", &mut nodes, &mut Vec::new(), &mut budget, &mut warnings);
            let synchronizers = nodes
                .iter()
                .filter_map(|n| {
                    let config = n.replication.as_ref()?;
                    let root = resolve_path(&n.path, n.root_path.as_deref().unwrap_or(".."))?;
                    root.is_empty().then(|| config.clone())
                })
                .collect();
            index.spawn_scenes.push(SpawnScene { path: (*path).clone(), synchronizers });
        }
        // The tree under /root: the autoloads, then the main scene.
        let mut tree = Vec::new();
        for (name, path) in &self.settings.autoloads {
            if path.ends_with(".gd") {
                tree.push(TreeNode {
                    path: name.clone(),
                    script: Some(path.clone()),
                    ..TreeNode::default()
                });
            } else if let Some(scene) = self.scene_path(path) {
                self.expand(&scene, name, &mut tree, &mut Vec::new(), &mut budget, &mut warnings);
            }
        }
        if let Some(main) = self.settings.main_scene.as_deref().and_then(|m| self.scene_path(m)) {
            let root = self
                .scenes
                .get(&main)
                .and_then(|s| s.nodes.iter().find(|n| n.parent.is_none()))
                .map(|n| n.name.clone())
                .unwrap_or_default();
            if !root.is_empty() {
                self.expand(&main, &root, &mut tree, &mut Vec::new(), &mut budget, &mut warnings);
            }
        }
        let mut lists: BTreeMap<String, (Vec<String>, Vec<String>)> = BTreeMap::new();
        let mut names_of = |script: &str| {
            lists
                .entry(script.into())
                .or_insert_with(|| {
                    let (native, script) = self.script_names(script);
                    (native.into_iter().collect(), script.into_iter().collect())
                })
                .clone()
        };
        for node in &tree {
            index.paths.insert(node.path.clone());
            if let Some(script) = &node.script {
                index.nodes.entry(node.path.clone()).or_insert_with(|| names_of(script));
            }
            if let Some(scenes) = &node.spawnable {
                let resolved = scenes
                    .iter()
                    .map(|s| {
                        let path = self.scene_path(s)?;
                        index.spawn_scenes.iter().position(|x| x.path == path)
                    })
                    .collect();
                index.spawners.insert(node.path.clone(), resolved);
            }
            if let Some(config) = &node.replication {
                index.synchronizers.insert(node.path.clone(), config.clone());
            }
        }
        for path in self.scripts.keys() {
            index.scripts.push(names_of(path));
        }
        let mut loose = BTreeSet::new();
        for info in self.scripts.values() {
            loose.extend(info.other_config.iter().cloned());
        }
        index.loose = loose.into_iter().collect();
        warnings.sort_unstable();
        warnings.dedup();
        index.warnings = warnings;
        index
    }
}

impl ProjectIndex {
    /// Gives `methods` this project's lists: one per node path of the main scene and the
    /// autoloads ([`RpcMethods::project_node`]: a rules file's pattern given before wins), and
    /// one per script, with the `other.rpc_config` names tried one by one and together, for
    /// nodes found by the checksum their peer announces.
    pub fn add_methods(&self, methods: &mut RpcMethods) {
        for (path, (native, script)) in &self.nodes {
            methods.project_node(path, MethodList::new(native, script));
        }
        let none = (Vec::new(), Vec::new());
        let scripts = core::iter::once(&none).chain(self.scripts.iter());
        for (native, script) in scripts {
            // The empty list too: a node without RPCs (a synchronizer, a spawner) announces
            // the MD5 of no names.
            methods.script(MethodList::new(native, script));
            if self.loose.is_empty() {
                continue;
            }
            if self.loose.len() <= MAX_LOOSE {
                for name in &self.loose {
                    methods.script(MethodList::new(
                        native.iter().chain(core::iter::once(name)),
                        script,
                    ));
                }
            }
            methods.script(MethodList::new(native.iter().chain(&self.loose), script));
        }
    }

    /// Every node path of the main scene and the autoloads (relative to `/root`), in order.
    pub fn node_paths(&self) -> impl Iterator<Item = &str> {
        self.paths.iter().map(String::as_str)
    }

    /// The method names of the node at `path` (relative to `/root`): `rpc_config` ones and
    /// `@rpc` ones, each sorted as Godot sorts them.
    pub fn node_methods(&self, path: &str) -> Option<(&[String], &[String])> {
        self.nodes.get(path).map(|(n, s)| (n.as_slice(), s.as_slice()))
    }

    /// What reading the scenes left out (a scene instanced inside itself, too many nodes).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The scene a SPAWN by the spawner at `spawner` (its path, when the session knows it)
    /// with scene index `scene` carrying `sync_ids` synchronizer ids and `state` values made:
    /// the spawner's scene when the project places the spawner and the scene's synchronizers
    /// fit the packet; else (a spawner made at run time, a custom spawn) the only scene of the
    /// project whose synchronizers fit it, marked inferred. O(scenes).
    pub fn spawn_scene(
        &self,
        spawner: Option<&str>,
        scene: u8,
        sync_ids: usize,
        state: usize,
    ) -> Option<SpawnMatch> {
        let fits = |i: usize| {
            self.spawn_scenes.get(i).is_some_and(|s| {
                s.synchronizers.len() == sync_ids
                    && s.synchronizers.iter().map(|c| c.spawn().count()).sum::<usize>() == state
            })
        };
        let placed = spawner
            .and_then(|p| self.spawners.get(p))
            .filter(|_| scene != crate::godot4::CUSTOM_SPAWN);
        if let Some(scenes) = placed {
            return scenes
                .get(usize::from(scene))
                .copied()
                .flatten()
                .filter(|&i| fits(i))
                .map(|scene| SpawnMatch { scene, inferred: false });
        }
        if sync_ids == 0 {
            return None;
        }
        let mut found = (0..self.spawn_scenes.len()).filter(|&i| fits(i));
        match (found.next(), found.next()) {
            (Some(scene), None) => Some(SpawnMatch { scene, inferred: true }),
            _ => None,
        }
    }

    /// The resource path of scene `scene`.
    pub fn scene_path(&self, scene: usize) -> Option<&str> {
        self.spawn_scenes.get(scene).map(|s| s.path.as_str())
    }

    /// The property paths of a SPAWN's state for scene `scene`: every root synchronizer's spawn
    /// properties, in order.
    pub fn spawn_properties(&self, scene: usize) -> Vec<&str> {
        self.spawn_scenes
            .get(scene)
            .map(|s| s.synchronizers.iter().flat_map(ReplicationConfig::spawn).collect())
            .unwrap_or_default()
    }

    /// Synchronizer `index` (in the SPAWN's order) of scene `scene`.
    pub fn spawned_synchronizer(&self, scene: usize, index: usize) -> Option<&ReplicationConfig> {
        self.spawn_scenes.get(scene)?.synchronizers.get(index)
    }

    /// The synchronizer at `path` (relative to `/root`) in the main scene or an autoload.
    pub fn synchronizer(&self, path: &str) -> Option<&ReplicationConfig> {
        self.synchronizers.get(path)
    }
}

#[cfg(test)]
mod tests;
