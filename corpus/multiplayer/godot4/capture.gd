# capture.gd: records every packet Godot 4.6's SceneMultiplayer sends, and what the receiving
# SceneMultiplayer makes of it. Run by ../run.py (godot4).
#
# Three SceneMultiplayer instances share this scene tree, each with its own root
# (/root/Main/S, /root/Main/A, /root/Main/B) holding the same nodes: S is the server (id 1), A
# and B are clients. A fourth and fifth pair (AuthS, AuthC) test authentication. They are joined
# by loop_peer.gd, a MultiplayerPeerExtension; SceneTree polling is off and capture.gd polls
# every instance itself, so a run is deterministic.
#
# Printed lines (one JSON object after a tab):
#   STEP    a scenario step begins
#   PKT     a packet a SceneMultiplayer put (seq, net, from, target, to, channel, mode, hex);
#           "injected": true for bytes this script crafted (what the engine does with them)
#   DLV     a packet handed to the receiving SceneMultiplayer (seq, to)
#   FX      what the receiver did: an RPC call (node, method, sender, arguments), a spawn, a
#           despawn, a sync, auth data, peer connections, raw bytes
#   RPCCFG  a node's RPC lists as the engine holds them (native and script entries)
# Engine errors arrive in between as "STDERR ..." lines. The last line is PROBE_DONE.
extends Node

const LoopPeer = preload("res://loop_peer.gd")
const RpcNode = preload("res://rpc_node.gd")
const A := 1234567890
const B := 987654321
const AUTH_CLIENT := 77

var seq := 0
var nets := {}        # net name -> {peer id: LoopPeer}
var mps := {}         # side name -> SceneMultiplayer
var roots := {}       # side name -> the side's multiplayer root
var order := []       # side names, in polling order
var step := ""
var many_script: GDScript
var spawner_id := 0   # the server's cache id of World/Spawner, read from its own SPAWN packets
var scratch := PackedByteArray()

# ------------------------------------------------------------------ output

func out(kind: String, d: Dictionary) -> void:
	print(kind + "\t" + JSON.stringify(d))

func begin(name: String) -> void:
	step = name
	out("STEP", {"step": name})

func desc(v) -> Dictionary:
	var t := typeof(v)
	var d := {"type": type_string(t)}
	if t == TYPE_OBJECT:
		if v == null:
			d["object"] = "null"
		elif v is EncodedObjectAsID:
			d["object"] = "id"
			d["id"] = v.get_object_id()
		else:
			d["object"] = "full"
			d["class"] = v.get_class()
			d["bytes"] = var_to_bytes_with_objects(v).hex_encode()
		return d
	d["bytes"] = var_to_bytes(v).hex_encode()
	d["text"] = var_to_str(v)
	return d

func descs(values: Array) -> Array:
	var r := []
	for v in values:
		r.append(desc(v))
	return r

func mode_name(m: int) -> String:
	match m:
		MultiplayerPeer.TRANSFER_MODE_UNRELIABLE:
			return "unreliable"
		MultiplayerPeer.TRANSFER_MODE_UNRELIABLE_ORDERED:
			return "unreliable_ordered"
	return "reliable"

func side_of(node: Node) -> String:
	for side in roots:
		if roots[side].is_ancestor_of(node) or roots[side] == node:
			return side
	return ""

func rel(node: Node) -> String:
	return String(roots[side_of(node)].get_path_to(node))

# ------------------------------------------------------------------ the hub

func route(peer, target: int, channel: int, mode: int, data: PackedByteArray) -> Error:
	seq += 1
	if peer.id == 1 and data.size() >= 6 and data[0] == 4:
		spawner_id = data.decode_u32(2)
	var net: Dictionary = nets[peer.net]
	var to := []
	if peer.id != 1:
		to = [1]
	elif target > 0:
		to = [target]
	else:
		for id in net.keys():
			if id != 1 and id != -target:
				to.append(id)
	out("PKT", {"seq": seq, "net": peer.net, "from": peer.id, "target": target, "to": to,
		"channel": channel, "mode": mode_name(mode), "hex": data.hex_encode(), "step": step})
	for t in to:
		if net.has(t):
			net[t].queue.append({"from": peer.id, "data": data, "channel": channel, "mode": mode, "seq": seq})
	return OK

func delivered(peer, packet) -> void:
	out("DLV", {"seq": packet.seq, "net": peer.net, "to": peer.id})

# Bytes of our own, queued at `to` as if `from` had sent them.
func inject(net: String, from: int, to: int, hex: String, note: String) -> void:
	seq += 1
	var data := hex.hex_decode()
	out("PKT", {"seq": seq, "net": net, "from": from, "target": to, "to": [to], "channel": 0,
		"mode": "reliable", "hex": hex, "step": step, "injected": true, "note": note})
	nets[net][to].queue.append({"from": from, "data": data, "channel": 0,
		"mode": MultiplayerPeer.TRANSFER_MODE_RELIABLE, "seq": seq})
	settle()

func settle() -> void:
	for round in 50:
		for side in order:
			mps[side].poll()
		var busy := false
		for net in nets.values():
			for peer in net.values():
				if not peer.queue.is_empty():
					busy = true
		if not busy:
			return

# What the receiving engine did.
func got(node: Node, method: String, args: Array) -> void:
	var mp: MultiplayerAPI = node.multiplayer
	out("FX", {"kind": "call", "side": side_of(node), "peer": mp.get_unique_id(), "node": rel(node),
		"method": method, "from": mp.get_remote_sender_id(), "args": descs(args)})

# ------------------------------------------------------------------ the peers

func make_side(side: String, id: int, net: String) -> void:
	var root := Node.new()
	root.name = side
	add_child(root)
	roots[side] = root
	var world := Node.new()
	world.name = "World"
	root.add_child(world)
	var player := Node.new()
	player.name = "Player"
	player.set_script(RpcNode)
	world.add_child(player)
	var child := Node.new()
	child.name = "Child"
	child.set_script(load("res://rpc_child.gd"))
	world.add_child(child)
	var mismatch := Node.new()
	mismatch.name = "Mismatch"
	mismatch.set_script(load("res://mismatch_server.gd" if id == 1 else "res://mismatch_client.gd"))
	world.add_child(mismatch)
	var many := Node.new()
	many.name = "ManyMethods"
	many.set_script(many_script)
	world.add_child(many)
	var nodes := Node.new()
	nodes.name = "Nodes"
	world.add_child(nodes)
	# Native RPC configuration (Node.rpc_config): ids with bit 15 set.
	player.rpc_config(&"plain", {"rpc_mode": MultiplayerAPI.RPC_MODE_ANY_PEER})
	var mp := SceneMultiplayer.new()
	get_tree().set_multiplayer(mp, root.get_path())
	mps[side] = mp
	order.append(side)
	var peer := LoopPeer.new()
	peer.id = id
	peer.hub = self
	peer.net = net
	if not nets.has(net):
		nets[net] = {}
	nets[net][id] = peer
	mp.multiplayer_peer = peer
	mp.peer_connected.connect(func(p): out("FX", {"kind": "peer_connected", "side": side, "peer": p}))
	mp.peer_disconnected.connect(func(p): out("FX", {"kind": "peer_disconnected", "side": side, "peer": p}))
	mp.peer_packet.connect(func(p, bytes): out("FX", {"kind": "raw", "side": side, "from": p, "hex": bytes.hex_encode()}))

func add_spawning(side: String) -> void:
	var world: Node = roots[side].get_node("World")
	var spawned := Node.new()
	spawned.name = "Spawned"
	world.add_child(spawned)
	var spawner := MultiplayerSpawner.new()
	spawner.name = "Spawner"
	spawner.add_spawnable_scene("res://spawned.tscn")
	spawner.spawn_function = custom_spawn
	world.add_child(spawner)
	spawner.spawn_path = NodePath("../Spawned")
	spawner.spawned.connect(func(n): out("FX", {"kind": "spawned", "side": side, "node": rel(n),
		"scene": n.scene_file_path, "state": node_state(n)}))
	spawner.despawned.connect(func(n): out("FX", {"kind": "despawned", "side": side, "node": rel(n)}))
	var state := Node.new()
	state.name = "State"
	state.set_script(load("res://state.gd"))
	world.add_child(state)
	var sync := MultiplayerSynchronizer.new()
	sync.name = "StateSync"
	var cfg := SceneReplicationConfig.new()
	cfg.add_property(NodePath(".:score"))
	cfg.property_set_spawn(NodePath(".:score"), false)
	cfg.property_set_replication_mode(NodePath(".:score"), SceneReplicationConfig.REPLICATION_MODE_ALWAYS)
	cfg.add_property(NodePath(".:motd"))
	cfg.property_set_spawn(NodePath(".:motd"), false)
	cfg.property_set_replication_mode(NodePath(".:motd"), SceneReplicationConfig.REPLICATION_MODE_ON_CHANGE)
	sync.replication_config = cfg
	sync.replication_interval = 1000.0
	sync.delta_interval = 1000.0
	state.add_child(sync)
	sync.root_path = NodePath("..")
	watch_sync(side, sync)

func watch_sync(side: String, sync: MultiplayerSynchronizer) -> void:
	sync.synchronized.connect(func(): out("FX", {"kind": "sync", "side": side,
		"node": rel(sync.get_node(sync.root_path)), "state": node_state(sync.get_node(sync.root_path))}))
	sync.delta_synchronized.connect(func(): out("FX", {"kind": "delta_sync", "side": side,
		"node": rel(sync.get_node(sync.root_path)), "state": node_state(sync.get_node(sync.root_path))}))

func node_state(n: Node) -> Dictionary:
	var d := {}
	for p in ["position", "hp", "label", "flag", "inventory", "score", "motd"]:
		if p in n:
			d[p] = desc(n.get(p))
	return d

func custom_spawn(data) -> Node:
	var n: Node2D = load("res://spawned.tscn").instantiate()
	n.name = "Custom%d" % int(data[0])
	n.label = String(data[1])
	n.position = Vector2(-1, -2)
	out("FX", {"kind": "custom_spawn", "data": desc(data)})
	return n

# A script with 260 RPC functions: ids above 255 take 16 bits.
func make_many_script() -> GDScript:
	var src := "extends Node\n"
	for i in 260:
		src += "@rpc(\"any_peer\")\nfunc m%03d(a):\n\tget_node(\"/root/Main\").got(self, \"m%03d\", [a])\n" % [i, i]
	var s := GDScript.new()
	s.source_code = src
	s.reload()
	return s

func join(net: String, server_side: String, client_side: String, client_id: int) -> void:
	nets[net][1].emit_signal("peer_connected", client_id)
	nets[net][client_id].emit_signal("peer_connected", 1)
	settle()

func rpc_cfg(side: String, path: String) -> void:
	var n: Node = roots[side].get_node(path)
	var native = n.get_node_rpc_config()
	var script_cfg = n.get_script().get_rpc_config() if n.get_script() != null else {}
	out("RPCCFG", {"side": side, "node": path, "native": native.keys(), "script": script_cfg.keys()})

func node(side: String, path: String) -> Node:
	return roots[side].get_node(path)

# ------------------------------------------------------------------ values

func values() -> Array:
	var typed_ints: Array[int] = [1, 2, 3]
	var typed_dict: Dictionary[String, int] = {"a": 1, "b": 2}
	return [null, true, false, 0, 1, -1, 127, -128, 128, -129, 32767, -32768, 32768, -32769,
		2147483647, -2147483648, 2147483648, -2147483649, 9223372036854775807, -9223372036854775808,
		1.5, 0.1, -0.0, INF, NAN, 1e300, "", "héllo wörld 日本 😀", Vector2(1.5, -2), Vector2i(3, -4),
		Rect2(1, 2, 3, 4), Rect2i(1, 2, 3, 4), Vector3(1, 2, 3), Vector3i(1, 2, 3),
		Transform2D(0.5, Vector2(3, 4)), Vector4(1, 2, 3, 4), Vector4i(1, 2, 3, 4), Plane(1, 0, 0, 5),
		Quaternion(0.1, 0.2, 0.3, 0.9), AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)),
		Basis(Vector3(0, 1, 0), 0.5), Transform3D(Basis(Vector3(0, 0, 1), 1.0), Vector3(7, 8, 9)),
		Projection(Vector4(1, 0, 0, 0), Vector4(0, 2, 0, 0), Vector4(0, 0, 3, 0), Vector4(0, 0, 0, 4)),
		Color(0.1, 0.2, 0.3, 0.4), &"a_string_name", NodePath("a/b:c"), NodePath("/root/x"), RID(),
		self, Callable(), Signal(), {"k": "v", 1: [2, 3], "nested": {"x": Vector2(1, 2)}}, {},
		typed_dict, [1, "two", 3.0, [4, [5]]], [], typed_ints, PackedByteArray([0, 1, 2, 255]),
		PackedInt32Array([1, -2, 3]), PackedInt64Array([1, -(1 << 40)]),
		PackedFloat32Array([0.5, -1.25]), PackedFloat64Array([0.1, 1e300]),
		PackedStringArray(["a", "bc", ""]), PackedVector2Array([Vector2(1, 2)]),
		PackedVector3Array([Vector3(1, 2, 3)]), PackedColorArray([Color(1, 0, 0, 1)]),
		PackedVector4Array([Vector4(1, 2, 3, 4)])]

# ------------------------------------------------------------------ the scenario

func _ready() -> void:
	get_tree().multiplayer_poll = false
	many_script = make_many_script()
	make_side("S", 1, "main")
	make_side("A", A, "main")
	make_side("B", B, "main")
	for side in ["S", "A", "B"]:
		add_spawning(side)
	for path in ["World/Player", "World/Child", "World/Mismatch", "World/ManyMethods"]:
		rpc_cfg("S", path)
	rpc_cfg("A", "World/Mismatch")

	begin("connect")
	join("main", "S", "A", A)
	join("main", "S", "B", B)

	begin("rpc_types_client_to_server")
	var vals := values()
	for v in vals:
		node("A", "World/Player").rpc_id(1, "r1", v)
		settle()

	begin("rpc_types_server_to_clients")
	for v in vals:
		node("S", "World/Player").rpc("r1", v)
		settle()

	begin("rpc_counts")
	var p: Node = node("A", "World/Player")
	p.rpc_id(1, "r0")
	settle()
	p.rpc_id(1, "r2", 1, "two")
	p.rpc_id(1, "r3", true, 2.5, Vector2(3, 4))
	settle()
	for n in [0, 1, 2, 3, 4, 5, 8, 16, 64, 255]:
		var args := []
		for i in n:
			args.append([i, -i * 1000, i * 100000, "s%d" % i, i % 2 == 0, float(i) / 3.0][i % 6])
		p.callv("rpc_id", [1, "rv"] + args)
		settle()

	begin("rpc_byte_only")
	p.rpc_id(1, "r1", PackedByteArray([0xDE, 0xAD, 0xBE, 0xEF]))
	p.rpc_id(1, "rv", PackedByteArray([1, 2, 3]))
	p.rpc_id(1, "rv", PackedByteArray())
	p.rpc_id(1, "r1", PackedByteArray())
	p.rpc_id(1, "r2", PackedByteArray([9]), PackedByteArray([8]))
	p.rpc_id(1, "rv", PackedByteArray([7]), 1)
	settle()

	begin("rpc_modes_and_channels")
	p.rpc_id(1, "u1", 1)
	p.rpc_id(1, "o1", 2)
	p.rpc_id(1, "local1", 3)
	node("S", "World/Player").rpc("local1", 4)
	node("S", "World/Player").rpc("auth1", 5)
	p.rpc_id(1, "auth1", 6)
	settle()

	begin("rpc_native_config")
	p.rpc_id(1, "plain", "native")
	node("S", "World/Player").rpc_id(A, "plain", 7)
	settle()

	begin("rpc_inherited_script")
	node("A", "World/Child").rpc_id(1, "child1", 1)
	node("A", "World/Child").rpc_id(1, "r1", 2)
	settle()
	node("A", "World/Child").rpc_id(1, "child1", 3)
	settle()

	begin("rpc_method_list_mismatch")
	node("S", "World/Mismatch").rpc_id(A, "alpha", 1)
	settle()
	node("S", "World/Mismatch").rpc_id(A, "beta", 2)
	settle()

	begin("rpc_many_methods")
	var many: Node = node("A", "World/ManyMethods")
	many.rpc_id(1, "m000", 0)
	many.rpc_id(1, "m255", 255)
	many.rpc_id(1, "m256", 256)
	settle()
	many.rpc_id(1, "m259", 259)
	settle()

	begin("rpc_many_nodes")
	for side in ["S", "A", "B"]:
		var holder: Node = node(side, "World/Nodes")
		for i in 300:
			var n := Node.new()
			n.name = "N%03d" % i
			n.set_script(RpcNode)
			holder.add_child(n)
	for i in 300:
		node("A", "World/Nodes/N%03d" % i).rpc_id(1, "r1", i)
		settle()
	node("A", "World/Nodes/N000").rpc_id(1, "r1", 1000)
	node("A", "World/Nodes/N299").rpc_id(1, "r1", 1299)
	settle()

	begin("rpc_partially_confirmed")
	# A confirmed the path, B has not: one call to both gives A the 32-bit cache id and B the
	# path.
	node("S", "World/Nodes/N010").rpc_id(A, "r1", "to A first")
	settle()
	node("S", "World/Nodes/N010").rpc("r1", "then to both")
	settle()

	begin("rpc_full_objects")
	mps["S"].allow_object_decoding = true
	mps["A"].allow_object_decoding = true
	var res := Resource.new()
	res.resource_name = "gift"
	p.rpc_id(1, "r1", res)
	p.rpc_id(1, "r2", null, res)
	settle()
	mps["S"].allow_object_decoding = false
	mps["A"].allow_object_decoding = false

	begin("relay")
	node("A", "World/Player").rpc_id(B, "r1", "to B through the server")
	settle()
	node("A", "World/Player").rpc_id(B, "r1", "again, path confirmed")
	settle()
	node("A", "World/Player").rpc("r2", "to everyone", 1)
	settle()
	node("B", "World/Player").rpc_id(A, "r0")
	settle()

	begin("raw")
	mps["A"].send_bytes("to the server".to_utf8_buffer(), 1)
	mps["S"].send_bytes("to A".to_utf8_buffer(), A)
	mps["S"].send_bytes("to every client".to_utf8_buffer(), 0)
	mps["A"].send_bytes("to B".to_utf8_buffer(), B)
	mps["A"].send_bytes("to everyone".to_utf8_buffer(), 0)
	mps["A"].send_bytes("to everyone but B".to_utf8_buffer(), -B)
	mps["A"].send_bytes("unreliable on channel 3".to_utf8_buffer(), 1, MultiplayerPeer.TRANSFER_MODE_UNRELIABLE, 3)
	mps["B"].send_bytes(PackedByteArray([0]), A, MultiplayerPeer.TRANSFER_MODE_UNRELIABLE_ORDERED, 1)
	settle()

	begin("spawn_scene")
	var spawned: Node2D = load("res://spawned.tscn").instantiate()
	spawned.name = "Hero"
	spawned.position = Vector2(10, 20)
	spawned.hp = 250
	spawned.label = "hero"
	spawned.inventory = {"gold": 99, "items": ["sword", "shield"]}
	node("S", "World/Spawned").add_child(spawned, true)
	settle()
	var second: Node2D = load("res://spawned.tscn").instantiate()
	second.name = "Sidekick"
	node("S", "World/Spawned").add_child(second, true)
	settle()

	begin("spawn_custom")
	node("S", "World/Spawner").spawn([7, "made by spawn_function"])
	settle()

	begin("sync_full")
	var hero_sync: MultiplayerSynchronizer = node("S", "World/Spawned/Hero/Sync")
	var state_sync: MultiplayerSynchronizer = node("S", "World/State/StateSync")
	for side in ["A", "B"]:
		watch_sync(side, node(side, "World/Spawned/Hero/Sync"))
	hero_sync.replication_interval = 0.0
	state_sync.replication_interval = 0.0
	spawned.position = Vector2(11, 21)
	spawned.flag = true
	node("S", "World/State").score = 5
	settle()
	spawned.position = Vector2(12, 22)
	node("S", "World/State").score = 6
	settle()
	hero_sync.replication_interval = 1000.0
	state_sync.replication_interval = 1000.0
	settle()

	begin("sync_delta")
	hero_sync.delta_interval = 0.0
	state_sync.delta_interval = 0.0
	settle()
	spawned.hp = 240
	settle()
	spawned.hp = 230
	spawned.label = "wounded"
	node("S", "World/State").motd = "changed"
	settle()
	settle()
	hero_sync.delta_interval = 1000.0
	state_sync.delta_interval = 1000.0
	settle()

	begin("despawn")
	node("S", "World/Spawned").remove_child(second)
	second.queue_free()
	settle()
	var custom: Node = node("S", "World/Spawned/Custom7")
	node("S", "World/Spawned").remove_child(custom)
	custom.queue_free()
	settle()

	begin("auth")
	make_side("AuthS", 1, "auth")
	make_side("AuthC", AUTH_CLIENT, "auth")
	mps["AuthS"].auth_callback = func(id, data):
		out("FX", {"kind": "auth", "side": "AuthS", "from": id, "hex": data.hex_encode()})
		mps["AuthS"].send_auth(id, "welcome".to_utf8_buffer())
		mps["AuthS"].complete_auth(id)
	mps["AuthC"].auth_callback = func(id, data):
		out("FX", {"kind": "auth", "side": "AuthC", "from": id, "hex": data.hex_encode()})
		mps["AuthC"].complete_auth(id)
	join("auth", "AuthS", "AuthC", AUTH_CLIENT)
	mps["AuthC"].send_auth(1, "password".to_utf8_buffer())
	settle()
	node("AuthC", "World/Player").rpc_id(1, "r1", "after auth")
	settle()

	begin("hostile")
	hostile()

	begin("hostile_spawns")
	hostile_spawns()

	begin("disconnect")
	nets["main"][1].emit_signal("peer_disconnected", B)
	nets["main"].erase(B)
	settle()

	print("PROBE_DONE")
	# Last, since it may take the engine down: a synchronizer count whose size wraps Godot's
	# 32-bit size check (4 x 0x40000000 = 0 modulo 2^32).
	begin("spawn_count_wraps")
	inject("main", 1, A, spawn_packet(0, 150, [], "42696700", 5, SPAWN_STATE).replace(u32le(0) + u32le(5), u32le(0x40000000) + u32le(5)), "spawn_sync_count_wraps_32_bits")
	print("SURVIVED")
	get_tree().quit(0)

const SPAWN_STATE := "050000000000803f00000040" + "0205" + "040000000100000061000000" + "1b00000000000000"

func u32le(v: int) -> String:
	var b := PackedByteArray()
	b.resize(4)
	b.encode_u32(0, v)
	return b.hex_encode()

# A SPAWN from the server (with its cache id of World/Spawner) of spawned.tscn (scene 0) or a
# custom spawn (0xFF).
func spawn_packet(scene: int, net_id: int, sync_ids: Array, name_hex: String, name_len: int, tail: String) -> String:
	var h := "04" + ("%02x" % scene) + u32le(spawner_id) + u32le(net_id) + u32le(sync_ids.size()) + u32le(name_len)
	for id in sync_ids:
		h += u32le(id)
	return h + name_hex + tail

# Crafted spawns from the server to A: which node names and sizes Godot accepts.
func hostile_spawns() -> void:
	var cases := [
		["spawn_valid_name", 101, "4f6b3100", 4],
		["spawn_name_dot", 102, "612e6200", 4],
		["spawn_name_colon", 103, "613a6200", 4],
		["spawn_name_at", 104, "61406200", 4],
		["spawn_name_slash", 105, "612f6200", 4],
		["spawn_name_quote", 106, "61226200", 4],
		["spawn_name_percent", 107, "61256200", 4],
		["spawn_name_space", 108, "61206200", 4],
		["spawn_name_only_nul", 109, "00", 1],
		["spawn_name_nul_inside", 110, "4e00785900", 5],
		["spawn_name_not_utf8", 111, "ff00", 2],
		["spawn_name_bom", 112, "efbbbf426f6d00", 7],
		["spawn_name_without_nul", 113, "4e6f4e756c", 5],
		["spawn_name_zero_length", 114, "", 0],
		["spawn_same_name_again", 115, "4f6b3100", 4],
		["spawn_same_net_id_again", 101, "4f6b3200", 4],
	]
	var sync_id := 300
	for c in cases:
		sync_id += 1
		inject("main", 1, A, spawn_packet(0, c[1], [sync_id], c[2], c[3], SPAWN_STATE), c[0])
	inject("main", 1, A, spawn_packet(0, 120, [399], "4f6b3500", 4, ""), "spawn_without_state")
	inject("main", 1, A, spawn_packet(0, 121, [], "4f6b3600", 4, SPAWN_STATE), "spawn_without_sync_ids")
	inject("main", 1, A, spawn_packet(0, 122, [398, 397], "4f6b3700", 4, SPAWN_STATE), "spawn_extra_sync_id")
	inject("main", 1, A, spawn_packet(0, 123, [396], "4f6b3800", 4, SPAWN_STATE + "ffff"), "spawn_state_trailing_bytes")
	inject("main", 1, A, spawn_packet(0, 124, [395], "4f6b3900", 40, SPAWN_STATE), "spawn_name_length_past_end")
	inject("main", 1, A, spawn_packet(7, 125, [394], "4f6b4100", 4, SPAWN_STATE), "spawn_unknown_scene")
	inject("main", 1, A, spawn_packet(0xFF, 126, [393], "4f6b4200", 4, "0200000002" + "07" + SPAWN_STATE), "custom_spawn_argument_ok")
	inject("main", 1, A, spawn_packet(0xFF, 127, [392], "4f6b4300", 4, "ff000000" + "0207"), "custom_spawn_argument_size_past_end")
	inject("main", 1, A, spawn_packet(0xFF, 128, [391], "4f6b4400", 4, "01000000" + "3f"), "custom_spawn_argument_bad_type")
	inject("main", 1, A, spawn_packet(0xFF, 129, [390], "4f6b4500", 4, "0200"), "custom_spawn_argument_size_cut")
	inject("main", 1, A, spawn_packet(0, 130, [389], "4f6b4600", 4, "3f"), "spawn_state_bad_type")
	inject("main", 1, A, "0565000000", "despawn_spawned_by_probe")
	inject("main", 1, A, "0565000000", "despawn_twice")

# Crafted packets from A to S (A's path cache ids 1.. are confirmed by now): what the engine
# accepts, refuses, and how.
func hostile() -> void:
	var player_id := 1    # World/Player was the first path A sent
	var r1 := "%02x" % 4  # method ids: sorted script list: auth1 local1 o1 r0 r1 r2 r3 rv u1
	var cases := [
		["rpc_cached_r1_int", "00%02x%s010205" % [player_id, r1]],
		["rpc_trailing_bytes", "00%02x%s010205ffff" % [player_id, r1]],
		["rpc_bad_argument_type", "00%02x%s013f" % [player_id, r1]],
		["rpc_argument_cut_short", "00%02x%s01820100" % [player_id, r1]],
		["rpc_fewer_arguments_than_count", "00%02x%s020205" % [player_id, "05"]],
		["rpc_count_missing", "00%02x%s" % [player_id, r1]],
		["rpc_command_bit3", "08%02x%s010205" % [player_id, r1]],
		["rpc_node_compression_3", "30%02x%s010205" % [player_id, r1]],
		["rpc_node_16bit", "10%02x00%s010205" % [player_id, r1]],
		["rpc_node_32bit", "20%02x000000%s010205" % [player_id, r1]],
		["rpc_name_16bit", "40%02x%s00010205" % [player_id, r1]],
		["rpc_unknown_cache_id", "10%s%s010205" % ["0f27", r1]],
		["rpc_unknown_method", "00%02x%s010205" % [player_id, "63"]],
		["rpc_path_offset_past_end", "20%s%s0102054d00" % ["0c000080", r1]],
		["rpc_path_offset_into_header", "20%s%s010205576f726c642f506c6179657200" % ["01000080", r1]],
		["rpc_path_world_player", "20%s%s010205576f726c642f506c6179657200" % ["09000080", r1]],
		["rpc_path_dot_spelling", "20%s%s0102052e2f576f726c642f2e2f506c6179657200" % ["09000080", r1]],
		["rpc_path_without_nul", "20%s%s010205576f726c642f506c61796572" % ["09000080", r1]],
		["rpc_bool_mode_bits", "00%02x%s0141" % [player_id, r1]],
		["rpc_bool_true_mode_bits", "00%02x%s01c1" % [player_id, r1]],
		["rpc_float_with_mode_bits", "00%02x%s014300000000000000" % [player_id, r1]],
		["rpc_int8_cut", "00%02x%s0102" % [player_id, r1]],
		["rpc_int64_form_small_value", "00%02x%s01c20500000000000000" % [player_id, r1]],
		["rpc_byte_only_to_r2", "80%02x%s0102" % [player_id, "05"]],
		["rpc_authority_method", "00%02x%s010205" % [player_id, "00"]],
		["raw_empty", "03"],
		["raw_flag_bits", "f36869"],
		["empty_packet", ""],
		["unknown_sys", "07090000000000"],
		["sys_add_peer_from_client", "070102000000"],
		["sys_short", "0703020000"],
		["relay_empty_inner", "0703%s" % "00000000"],
		["relay_sys_inside", "0703%s070102000000" % "00000000"],
		["relay_nested", "0703%s0703%s0361" % ["00000000", "00000000"]],
		["relay_to_unknown_peer", "0703%s0361" % "05000000"],
		["relay_to_minus_one", "0703%s0378" % "ffffffff"],
		["simplify_byte33_not_nul", "01" + "d41d8cd98f00b204e9800998ecf8427e".to_utf8_buffer().hex_encode() + "41" + "e8030000" + "576f726c642f506c6179657200"],
		["simplify_short", "01" + "d41d8cd98f00b204e9800998ecf8427e".to_utf8_buffer().hex_encode()],
		["simplify_duplicate_id", "01" + "d41d8cd98f00b204e9800998ecf8427e".to_utf8_buffer().hex_encode() + "00" + "01000000" + "576f726c642f506c6179657200"],
		["simplify_unknown_node", "01" + "d41d8cd98f00b204e9800998ecf8427e".to_utf8_buffer().hex_encode() + "00" + "e9030000" + "4e6f706500"],
		["confirm_long", "0201010000000000"],
		["confirm_unknown_id", "020163000000"],
		["spawn_short", "0400"],
		["despawn_unknown", "0563000000"],
		["sync_short", "0601000000"],
		["sync_unknown_id", "060100630000000100000002"],
		["delta_unknown_id", "166300000001000000000000000100000002"],
	]
	for c in cases:
		inject("main", A, 1, c[1], c[0])
