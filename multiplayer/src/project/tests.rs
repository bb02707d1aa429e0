//! The project reader's unit tests.

#![allow(clippy::indexing_slicing)]

use super::*;

fn project(files: &[(&str, &str)]) -> ProjectIndex {
    let mut project = Project::new();
    for (path, text) in files {
        project.add_file(path, text);
    }
    project.index()
}

#[test]
fn inheritance_by_path_and_by_class_name() {
    let index = project(&[
        ("res://project.godot", "[application]\nrun/main_scene=\"res://main.tscn\"\n"),
        (
            "res://base.gd",
            "class_name Base extends Node\n@rpc\nfunc zeta(): pass\n@rpc\nfunc Alpha(): pass\nfunc _ready():\n\trpc_config(\"native_b\", {})\n",
        ),
        ("res://mid.gd", "extends Base\n@rpc\nfunc _under(): pass\nfunc zeta(): pass\n"),
        ("res://sub/leaf.gd", "extends \"../mid.gd\"\n@rpc\nfunc émile(): pass\n"),
        ("res://loop_a.gd", "extends \"res://loop_b.gd\"\n@rpc\nfunc a(): pass\n"),
        ("res://loop_b.gd", "extends \"res://loop_a.gd\"\n@rpc\nfunc b(): pass\n"),
        (
            "res://main.tscn",
            "[gd_scene format=3]\n[ext_resource type=\"Script\" path=\"res://sub/leaf.gd\" id=\"1\"]\n[ext_resource type=\"Script\" path=\"res://loop_a.gd\" id=\"2\"]\n[node name=\"Main\" type=\"Node\"]\nscript = ExtResource(\"1\")\n[node name=\"Loop\" type=\"Node\" parent=\".\"]\nscript = ExtResource(\"2\")\n",
        ),
    ]);
    let (native, script) = index.node_methods("Main").unwrap();
    assert_eq!(native, ["native_b"]);
    // Code-point order: uppercase, then `_`, then lowercase, then non-ASCII.
    assert_eq!(script, ["Alpha", "_under", "zeta", "émile"]);
    let (_, looped) = index.node_methods("Main/Loop").unwrap();
    assert_eq!(looped, ["a", "b"]);
}

#[test]
fn instanced_scenes_put_their_nodes_under_the_instancing_node() {
    let index = project(&[
        (
            "res://project.godot",
            "[application]\nrun/main_scene=\"uid://main\"\n[autoload]\nLobby=\"*res://lobby.gd\"\n",
        ),
        ("res://lobby.gd", "extends Node\n@rpc\nfunc join(): pass\n"),
        ("res://a.gd", "extends Node\n@rpc\nfunc a(): pass\n"),
        ("res://b.gd", "extends Node\n@rpc\nfunc b(): pass\n"),
        (
            "res://player.tscn",
            "[gd_scene format=3 uid=\"uid://player\"]\n[ext_resource type=\"Script\" path=\"res://a.gd\" id=\"1\"]\n[node name=\"Player\" type=\"Node2D\"]\nscript = ExtResource(\"1\")\n[node name=\"Gun\" type=\"Node\" parent=\".\"]\nscript = ExtResource(\"1\")\n",
        ),
        (
            "res://main.tscn",
            "[gd_scene format=3 uid=\"uid://main\"]\n[ext_resource type=\"PackedScene\" path=\"res://player.tscn\" id=\"1\"]\n[ext_resource type=\"Script\" path=\"res://b.gd\" id=\"2\"]\n[node name=\"World\" type=\"Node\"]\n[node name=\"P1\" parent=\".\" instance=ExtResource(\"1\")]\nscript = ExtResource(\"2\")\n[node name=\"P2\" parent=\".\" instance=ExtResource(\"1\")]\n[node name=\"Gun\" parent=\"P2\"]\nscript = ExtResource(\"2\")\n[node name=\"Self\" parent=\".\" instance=ExtResource(\"3\")]\n",
        ),
        (
            "res://self.tscn",
            "[gd_scene format=3]\n[ext_resource type=\"PackedScene\" path=\"res://self.tscn\" id=\"1\"]\n[node name=\"S\" instance=ExtResource(\"1\")]\n",
        ),
    ]);
    let paths: Vec<&str> = index.node_paths().collect();
    assert_eq!(
        paths,
        ["Lobby", "World", "World/P1", "World/P1/Gun", "World/P2", "World/P2/Gun", "World/Self"]
    );
    let script = |p: &str| index.node_methods(p).map(|(_, s)| s.to_vec());
    assert_eq!(script("Lobby").unwrap(), ["join"]);
    assert_eq!(script("World/P1").unwrap(), ["b"]); // the instancing node's script wins
    assert_eq!(script("World/P1/Gun").unwrap(), ["a"]);
    assert_eq!(script("World/P2").unwrap(), ["a"]);
    assert_eq!(script("World/P2/Gun").unwrap(), ["b"]); // an editable child's override
    assert_eq!(script("World"), None);
    // A scene instancing itself is cut, not followed forever.
    let mut project2 = Project::new();
    project2.add_file("res://self.tscn", "[gd_scene format=3]\n[ext_resource type=\"PackedScene\" path=\"res://self.tscn\" id=\"1\"]\n[node name=\"S\" instance=ExtResource(\"1\")]\n");
    assert!(!project2.index().warnings().is_empty());
}

#[test]
fn lists_by_checksum_include_other_nodes_rpc_config() {
    let index = project(&[
        ("res://target.gd", "extends Node\n@rpc\nfunc r(): pass\n"),
        ("res://setup.gd", "extends Node\nfunc _ready():\n\t$Target.rpc_config(&\"plain\", {})\n"),
    ]);
    let mut methods = RpcMethods::new();
    index.add_methods(&mut methods);
    let with_plain = MethodList::new(["plain"], ["r"]);
    let without = MethodList::script(["r"]);
    let probe = |list: &MethodList| {
        let mut session = crate::session::Session4::new(
            alloc::sync::Arc::new(methods.clone()),
            crate::session::Limits::default(),
        );
        let mut packet = alloc::vec![0x01];
        packet.extend_from_slice(list.checksum());
        packet.push(0);
        packet.extend_from_slice(&1u32.to_le_bytes());
        packet.extend_from_slice(b"Made/At/Run/Time\0");
        let decoded = crate::godot4::decode(&packet, gdvariant::Options::godot4()).unwrap();
        session.observe(7, 1, &decoded).unwrap();
        session.checksum(crate::session::Route::direct(7, 1), 1)
    };
    assert_eq!(probe(&with_plain), Some(crate::session::Checksum::Verified));
    assert_eq!(probe(&without), Some(crate::session::Checksum::Verified));
    assert_eq!(probe(&MethodList::script(["q"])), Some(crate::session::Checksum::Unlisted));
}

#[test]
fn spawners_and_synchronizers() {
    let config = "[sub_resource type=\"SceneReplicationConfig\" id=\"c\"]\nproperties/0/path = NodePath(\".:position\")\nproperties/1/path = NodePath(\".:hp\")\nproperties/1/spawn = false\nproperties/1/replication_mode = 2\n";
    let index = project(&[
        ("res://project.godot", "[application]\nrun/main_scene=\"res://main.tscn\"\n"),
        (
            "res://unit.tscn",
            &format!(
                "[gd_scene format=3]\n{config}[node name=\"Unit\" type=\"Node2D\"]\n[node name=\"Sync\" type=\"MultiplayerSynchronizer\" parent=\".\"]\nreplication_config = SubResource(\"c\")\n[node name=\"Deep\" type=\"Node\" parent=\".\"]\n[node name=\"Other\" type=\"MultiplayerSynchronizer\" parent=\"Deep\"]\nreplication_config = SubResource(\"c\")\n"
            ),
        ),
        (
            "res://main.tscn",
            &format!(
                "[gd_scene format=3]\n{config}[node name=\"Main\" type=\"Node\"]\n[node name=\"Spawner\" type=\"MultiplayerSpawner\" parent=\".\"]\n_spawnable_scenes = PackedStringArray(\"res://missing.tscn\", \"res://unit.tscn\")\n[node name=\"State\" type=\"MultiplayerSynchronizer\" parent=\".\"]\nroot_path = NodePath(\".\")\nreplication_config = SubResource(\"c\")\n"
            ),
        ),
    ]);
    let found = index.spawn_scene(Some("Main/Spawner"), 1, 1, 1).unwrap();
    assert!(!found.inferred);
    assert_eq!(index.scene_path(found.scene), Some("res://unit.tscn"));
    assert_eq!(index.spawn_properties(found.scene), [".:position"]);
    assert_eq!(
        index.spawned_synchronizer(found.scene, 0).unwrap().watch().collect::<Vec<_>>(),
        [".:hp"]
    );
    // Scene 0 is not in the project; two synchronizers do not fit scene 1's one.
    assert_eq!(index.spawn_scene(Some("Main/Spawner"), 0, 1, 1), None);
    assert_eq!(index.spawn_scene(Some("Main/Spawner"), 1, 2, 1), None);
    // A spawner made at run time: the one scene that fits.
    let inferred = index.spawn_scene(Some("Elsewhere"), 0, 1, 1).unwrap();
    assert!(inferred.inferred);
    assert_eq!(index.scene_path(inferred.scene), Some("res://unit.tscn"));
    assert_eq!(
        index.synchronizer("Main/State").unwrap().sync().collect::<Vec<_>>(),
        [".:position"]
    );
    assert_eq!(property_name(".:position"), "position");
    assert_eq!(property_name("Sprite:modulate"), "Sprite:modulate");
}

#[test]
fn scenes_instancing_scenes_twice_stop_at_the_cap() {
    // Scene k instances scene k+1 twice: 2^40 nodes if expanded whole.
    const DEPTH: usize = 40;
    let mut project = Project::new();
    project.add_file("res://project.godot", "[application]\nrun/main_scene=\"res://s0.tscn\"\n");
    for k in 0..DEPTH {
        let next = k + 1;
        project.add_file(
            &format!("res://s{k}.tscn"),
            &format!("[gd_scene format=3]\n[ext_resource type=\"PackedScene\" path=\"res://s{next}.tscn\" id=\"1\"]\n[node name=\"N\" type=\"Node\"]\n[node name=\"A\" parent=\".\" instance=ExtResource(\"1\")]\n[node name=\"B\" parent=\".\" instance=ExtResource(\"1\")]\n"),
        );
    }
    let index = project.index();
    assert!(index.node_paths().count() <= MAX_NODES);
    assert!(
        index.warnings().iter().any(|w| w.contains("the rest is not read")),
        "{:?}",
        index.warnings()
    );
}

#[test]
fn a_malformed_project_does_not_panic() {
    let index = project(&[
        ("res://project.godot", "[application\nrun/main_scene=\"res://main.tscn"),
        (
            "res://main.tscn",
            "[node name=\"A\" parent=\"../../..\"]\n[node name=\"\"]\n[node]\nscript = ExtResource(\"9\")",
        ),
        ("res://x.gd", "extends \"../../../../x.gd\"\n@rpc func"),
    ]);
    let _ = index.node_paths().count();
}
