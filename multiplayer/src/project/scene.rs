//! What a Godot 4 text scene (`.tscn`) says: its nodes (name, parent, type, script, instanced
//! scene), its spawners' spawnable scenes, its synchronizers' root and replication config, and
//! the `SceneReplicationConfig` sub-resources; and what `project.godot` says (the main scene,
//! the autoloads). One string-aware pass over the text: O(length).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

/// One property of a `SceneReplicationConfig`, as Godot 4.6 keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicatedProperty {
    /// The property path relative to the synchronizer's root (`.:position`, `Sprite:modulate`).
    pub path: String,
    /// Sent in the SPAWN packet (`spawn`, default true).
    pub spawn: bool,
    /// `replication_mode`: 0 never, 1 always (the SYNC packet), 2 on change (the delta SYNC);
    /// default 1. The deprecated `sync` and `watch` keys set it as Godot does.
    pub mode: u8,
}

/// A `SceneReplicationConfig`: its properties in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplicationConfig {
    /// The properties, in the order Godot adds them (`properties/0`, `properties/1`, ...).
    pub properties: Vec<ReplicatedProperty>,
}

impl ReplicationConfig {
    /// Applies one `properties/N/WHAT = value` line as `SceneReplicationConfig::_set` does: a
    /// path is added only as the next index, other keys change an existing index.
    fn set(&mut self, index: usize, what: &str, value: &str) {
        if what == "path" {
            if index == self.properties.len() {
                if let Some(path) = call_strings(value, "NodePath").into_iter().next() {
                    // Godot refuses a path without a property (no `:`) and a repeated one.
                    if path.contains(':') && !self.properties.iter().any(|p| p.path == path) {
                        self.properties.push(ReplicatedProperty { path, spawn: true, mode: 1 });
                    }
                }
            }
            return;
        }
        let Some(property) = self.properties.get_mut(index) else { return };
        match (what, value.trim()) {
            ("replication_mode", mode) => {
                if let Ok(mode @ 0..=2) = mode.parse::<u8>() {
                    property.mode = mode;
                }
            }
            ("spawn", "true") => property.spawn = true,
            ("spawn", "false") => property.spawn = false,
            ("sync", "true") => property.mode = 1,
            ("sync", "false") if property.mode == 1 => property.mode = 0,
            ("watch", "true") => property.mode = 2,
            ("watch", "false") if property.mode == 2 => property.mode = 0,
            _ => {}
        }
    }

    /// The paths of the properties with `spawn` (the SPAWN packet's state), in order.
    pub fn spawn(&self) -> impl Iterator<Item = &str> {
        self.properties.iter().filter(|p| p.spawn).map(|p| p.path.as_str())
    }

    /// The paths replicated always (the SYNC packet's values), in order.
    pub fn sync(&self) -> impl Iterator<Item = &str> {
        self.properties.iter().filter(|p| p.mode == 1).map(|p| p.path.as_str())
    }

    /// The paths replicated on change (the delta SYNC's indexes count these), in order.
    pub fn watch(&self) -> impl Iterator<Item = &str> {
        self.properties.iter().filter(|p| p.mode == 2).map(|p| p.path.as_str())
    }
}

/// One `[node]` section.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SceneNode {
    /// `name`.
    pub name: String,
    /// `parent` (`None`: the scene's root; `.`: a child of the root; `A/B`).
    pub parent: Option<String>,
    /// `type`, when given.
    pub class: Option<String>,
    /// The instanced scene (`instance=ExtResource(…)`), as a resource path.
    pub instance: Option<String>,
    /// The script (`script = ExtResource(…)`), as a resource path.
    pub script: Option<String>,
    /// A spawner's `_spawnable_scenes`, as written (`res://…` or `uid://…`).
    pub spawnable_scenes: Option<Vec<String>>,
    /// A synchronizer's `root_path`.
    pub root_path: Option<String>,
    /// A synchronizer's `replication_config`, when it is a sub-resource of this scene.
    pub replication: Option<ReplicationConfig>,
}

/// A parsed `.tscn`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scene {
    /// The scene's `uid` (`uid://…`), when given.
    pub uid: Option<String>,
    /// The nodes, in file order (Godot writes them parents first).
    pub nodes: Vec<SceneNode>,
}

/// The statements of a Godot text resource: section headers and `key = value` lines (values
/// may span lines inside brackets or strings). O(length).
fn statements(text: &str) -> Vec<(bool, &str)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0usize;
    while i < bytes.len() {
        crate::work(1);
        // Skip blank space and comment lines (`;`).
        match bytes.get(i) {
            Some(b' ' | b'\t' | b'\r' | b'\n') => {
                i = i.saturating_add(1);
                continue;
            }
            Some(b';') => {
                while bytes.get(i).is_some_and(|&c| c != b'\n') {
                    i = i.saturating_add(1);
                }
                continue;
            }
            _ => {}
        }
        let header = bytes.get(i) == Some(&b'[');
        let start = i;
        let mut depth = 0usize;
        let mut in_string = false;
        while let Some(&c) = bytes.get(i) {
            if in_string {
                match c {
                    b'\\' => i = i.saturating_add(1),
                    b'"' => in_string = false,
                    _ => {}
                }
            } else {
                match c {
                    b'"' => in_string = true,
                    b'[' | b'(' | b'{' => depth = depth.saturating_add(1),
                    b']' | b')' | b'}' => {
                        depth = depth.saturating_sub(1);
                        if header && depth == 0 {
                            i = i.saturating_add(1);
                            break;
                        }
                    }
                    b'\n' if depth == 0 => break,
                    _ => {}
                }
            }
            i = i.saturating_add(1);
        }
        let end = i.min(bytes.len());
        crate::work(end.saturating_sub(start) >> 4);
        out.push((header, text.get(start..end).unwrap_or("")));
    }
    out
}

/// A Godot string literal's content starting at the opening quote of `text`; the rest after it.
fn quoted(text: &str) -> Option<(String, &str)> {
    let body = text.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => return Some((out, body.get(at.saturating_add(1)..).unwrap_or(""))),
            '\\' => match chars.next() {
                Some((_, 'n')) => out.push('\n'),
                Some((_, 't')) => out.push('\t'),
                Some((_, other)) => out.push(other),
                None => {}
            },
            c => out.push(c),
        }
    }
    None
}

/// The string arguments of `Name(…)` in `value` (`ExtResource("1_ab")`, `NodePath(".:x")`,
/// `PackedStringArray("a", "b")`); bare arguments (`ExtResource( 2 )`) as written.
fn call_strings(value: &str, name: &str) -> Vec<String> {
    let Some(rest) = value.trim().strip_prefix(name) else { return Vec::new() };
    let Some(mut rest) = rest.trim_start().strip_prefix('(') else { return Vec::new() };
    let mut out = Vec::new();
    loop {
        rest = rest.trim_start();
        if rest.starts_with('"') {
            match quoted(rest) {
                Some((s, after)) => {
                    out.push(s);
                    rest = after;
                }
                None => break,
            }
        } else {
            let end = rest.find([',', ')']).unwrap_or(rest.len());
            let bare = rest.get(..end).unwrap_or("").trim();
            if !bare.is_empty() {
                out.push(bare.into());
            }
            rest = rest.get(end..).unwrap_or("");
        }
        rest = rest.trim_start();
        match rest.strip_prefix(',') {
            Some(after) => rest = after,
            None => break,
        }
    }
    out
}

/// The `key=value` attributes of a section header (`[node name="A" parent="." …]`).
fn attributes(header: &str) -> (&str, Vec<(&str, String)>) {
    let inner = header.trim().trim_start_matches('[').trim_end_matches(']');
    let (kind, mut rest) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
    let mut out = Vec::new();
    loop {
        rest = rest.trim_start();
        let Some(eq) = rest.find('=') else { break };
        let key = rest.get(..eq).unwrap_or("").trim();
        rest = rest.get(eq.saturating_add(1)..).unwrap_or("").trim_start();
        if rest.starts_with('"') {
            let Some((value, after)) = quoted(rest) else { break };
            out.push((key, value));
            rest = after;
        } else {
            // A bare value or a call: up to whitespace outside parentheses.
            let mut depth = 0usize;
            let mut end = rest.len();
            let mut in_string = false;
            for (at, c) in rest.char_indices() {
                match c {
                    '"' => in_string = !in_string,
                    '(' if !in_string => depth = depth.saturating_add(1),
                    ')' if !in_string => depth = depth.saturating_sub(1),
                    c if c.is_whitespace() && depth == 0 && !in_string => {
                        end = at;
                        break;
                    }
                    _ => {}
                }
            }
            out.push((key, rest.get(..end).unwrap_or("").into()));
            rest = rest.get(end..).unwrap_or("");
        }
    }
    (kind, out)
}

/// Reads a Godot 4 text scene. Never fails: what it cannot read, it skips. O(length).
///
/// ```
/// use gdvariant_multiplayer::project::parse_scene;
///
/// let scene = parse_scene(
///     "[gd_scene format=3]\n\
///      [ext_resource type=\"Script\" path=\"res://player.gd\" id=\"1_a\"]\n\
///      [node name=\"Player\" type=\"Node2D\"]\n\
///      script = ExtResource(\"1_a\")\n",
/// );
/// assert_eq!(scene.nodes[0].name, "Player");
/// assert_eq!(scene.nodes[0].script.as_deref(), Some("res://player.gd"));
/// ```
pub fn parse_scene(text: &str) -> Scene {
    let mut scene = Scene::default();
    // ext_resource id -> path; sub_resource id -> replication config.
    let mut external: BTreeMap<String, String> = BTreeMap::new();
    let mut configs: BTreeMap<String, ReplicationConfig> = BTreeMap::new();
    enum Section {
        Other,
        Config(String),
        Node,
    }
    let mut section = Section::Other;
    // Nodes' replication configs by sub-resource id, resolved at the end (a sub-resource is
    // written before the nodes that use it, but be lenient).
    let mut node_configs: Vec<(usize, String)> = Vec::new();
    for (header, statement) in statements(text) {
        if header {
            let (kind, attrs) = attributes(statement);
            let get = |key: &str| attrs.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone());
            section = match kind {
                "gd_scene" => {
                    scene.uid = get("uid");
                    Section::Other
                }
                "ext_resource" => {
                    if let (Some(id), Some(path)) = (get("id"), get("path")) {
                        external.insert(id, path);
                    }
                    Section::Other
                }
                "sub_resource" if get("type").as_deref() == Some("SceneReplicationConfig") => {
                    let id = get("id").unwrap_or_default();
                    configs.insert(id.clone(), ReplicationConfig::default());
                    Section::Config(id)
                }
                "node" => {
                    let instance = get("instance").and_then(|v| {
                        call_strings(&v, "ExtResource")
                            .into_iter()
                            .next()
                            .and_then(|id| external.get(&id).cloned())
                    });
                    scene.nodes.push(SceneNode {
                        name: get("name").unwrap_or_default(),
                        parent: get("parent"),
                        class: get("type"),
                        instance,
                        ..SceneNode::default()
                    });
                    Section::Node
                }
                _ => Section::Other,
            };
            continue;
        }
        let Some((key, value)) = statement.split_once('=') else { continue };
        let (key, value) = (key.trim(), value.trim());
        match &section {
            Section::Config(id) => {
                let Some(rest) = key.strip_prefix("properties/") else { continue };
                let Some((index, what)) = rest.split_once('/') else { continue };
                let (Ok(index), Some(config)) = (index.parse::<usize>(), configs.get_mut(id))
                else {
                    continue;
                };
                config.set(index, what, value);
            }
            Section::Node => {
                let at = scene.nodes.len().saturating_sub(1);
                let Some(node) = scene.nodes.last_mut() else { continue };
                match key {
                    "script" => {
                        node.script = call_strings(value, "ExtResource")
                            .into_iter()
                            .next()
                            .and_then(|id| external.get(&id).cloned());
                    }
                    "_spawnable_scenes" => {
                        node.spawnable_scenes = Some(call_strings(value, "PackedStringArray"));
                    }
                    "root_path" => {
                        node.root_path = call_strings(value, "NodePath").into_iter().next();
                    }
                    "replication_config" => {
                        if let Some(id) = call_strings(value, "SubResource").into_iter().next() {
                            node_configs.push((at, id));
                        }
                    }
                    _ => {}
                }
            }
            Section::Other => {}
        }
    }
    for (at, id) in node_configs {
        if let (Some(node), Some(config)) = (scene.nodes.get_mut(at), configs.get(&id)) {
            node.replication = Some(config.clone());
        }
    }
    scene
}

/// What `project.godot` says about the scene tree: the main scene and the autoloads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProjectSettings {
    /// `application/run/main_scene` (`res://…` or `uid://…`).
    pub main_scene: Option<String>,
    /// The `[autoload]` entries in order: the node's name and its script or scene.
    pub autoloads: Vec<(String, String)>,
}

/// Reads `project.godot`. O(length).
pub fn parse_settings(text: &str) -> ProjectSettings {
    let mut settings = ProjectSettings::default();
    let mut section = "";
    for (header, statement) in statements(text) {
        if header {
            section = statement.trim().trim_start_matches('[').trim_end_matches(']').trim();
            continue;
        }
        let Some((key, value)) = statement.split_once('=') else { continue };
        let (key, value) = (key.trim(), value.trim());
        let Some((value, _)) = quoted(value) else { continue };
        match (section, key) {
            ("application", "run/main_scene") => settings.main_scene = Some(value),
            ("autoload", name) => {
                let path = value.strip_prefix('*').unwrap_or(&value);
                settings.autoloads.push((name.into(), path.into()));
            }
            _ => {}
        }
    }
    settings
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn a_scene_with_a_synchronizer_and_a_spawner() {
        let scene = parse_scene(
            "[gd_scene load_steps=3 format=3 uid=\"uid://abc\"]\n\n[ext_resource type=\"Script\" path=\"res://a.gd\" id=\"1_x\"]\n[ext_resource type=\"PackedScene\" path=\"res://level.tscn\" id=\"2\"]\n\n[sub_resource type=\"SceneReplicationConfig\" id=\"cfg\"]\nproperties/0/path = NodePath(\".:position\")\nproperties/0/spawn = true\nproperties/0/replication_mode = 1\nproperties/1/path = NodePath(\".:hp\")\nproperties/1/spawn = false\nproperties/1/replication_mode = 2\nproperties/3/path = NodePath(\".:skipped\")\nproperties/2/path = NodePath(\"no_property\")\nproperties/2/path = NodePath(\".:old\")\nproperties/2/sync = false\nproperties/2/watch = true\n\n[node name=\"Main\" type=\"Node\"]\nscript = ExtResource(\"1_x\")\nmeta = {\n\"[node name=\\\"Fake\\\"]\": 1\n}\n\n[node name=\"Sync\" type=\"MultiplayerSynchronizer\" parent=\".\"]\nroot_path = NodePath(\"..\")\nreplication_config = SubResource(\"cfg\")\n\n[node name=\"Spawner\" type=\"MultiplayerSpawner\" parent=\".\"]\n_spawnable_scenes = PackedStringArray(\"res://p.tscn\", \"uid://q\")\nspawn_path = NodePath(\"..\")\n\n[node name=\"Level\" parent=\".\" instance=ExtResource(\"2\")]\n",
        );
        assert_eq!(scene.uid.as_deref(), Some("uid://abc"));
        let names: Vec<&str> = scene.nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["Main", "Sync", "Spawner", "Level"]);
        assert_eq!(scene.nodes[0].script.as_deref(), Some("res://a.gd"));
        let config = scene.nodes[1].replication.as_ref().unwrap();
        assert_eq!(config.spawn().collect::<Vec<_>>(), [".:position", ".:old"]);
        assert_eq!(config.sync().collect::<Vec<_>>(), [".:position"]);
        assert_eq!(config.watch().collect::<Vec<_>>(), [".:hp", ".:old"]);
        assert_eq!(scene.nodes[1].root_path.as_deref(), Some(".."));
        assert_eq!(
            scene.nodes[2].spawnable_scenes.as_deref(),
            Some(&[String::from("res://p.tscn"), String::from("uid://q")][..])
        );
        assert_eq!(scene.nodes[3].instance.as_deref(), Some("res://level.tscn"));
        assert_eq!(scene.nodes[3].parent.as_deref(), Some("."));
    }

    #[test]
    fn settings() {
        let settings = parse_settings(
            "; comment\nconfig_version=5\n[application]\nconfig/name=\"x\"\nrun/main_scene=\"res://main.tscn\"\n[autoload]\nLobby=\"*res://lobby.gd\"\nHud=\"res://hud.tscn\"\n",
        );
        assert_eq!(settings.main_scene.as_deref(), Some("res://main.tscn"));
        assert_eq!(
            settings.autoloads,
            [("Lobby".into(), "res://lobby.gd".into()), ("Hud".into(), "res://hud.tscn".into())]
        );
    }

    #[test]
    fn malformed_scenes_do_not_panic() {
        for text in [
            "",
            "[",
            "[node",
            "[node name=\"",
            "[node name=\"a\" parent=",
            "script = ExtResource(",
            "[node name=\"a\"]\nscript = ExtResource(\"",
            "[sub_resource type=\"SceneReplicationConfig\" id=\"c\"]\nproperties/x/path = 1\nproperties/0/path = NodePath(\n",
            "\"",
            "[gd_scene uid=\"\\",
            "[node name=a instance=ExtResource( 9 )]\n_spawnable_scenes = PackedStringArray(\"",
        ] {
            let _ = parse_scene(text);
            let _ = parse_settings(text);
        }
    }
}
