# session.gd: a Godot 4.6 multiplayer session over WebSocket, recorded by
# ../record_godot4_ws.py, which passes the user arguments server=ws://BRIDGE/server and
# client=ws://BRIDGE/client.
#
# Two SceneMultiplayer instances in one scene tree: the client's (Godot's own
# WebSocketMultiplayerPeer) and the server's (bridge_peer.gd: the web build cannot listen, so the
# recorder's bridge pairs the two connections and passes binary messages both ways). Once
# connected, the client calls RPCs with arguments of many types on World/Player and World/Späher
# and sends raw bytes; the server calls RPCs on the client, spawns spawned.tscn as
# World/Spawned/Hero (moved every frame: synced; hp changed twice: delta-synced), despawns it,
# and then the client closes its connection.
#
# Printed lines "EV\t{json}": what each side sent and received ("sent" / "got": side, node,
# method, args as var_to_bytes hex; "raw_sent" / "raw_got"; the client's "spawned",
# "synchronized", "delta_synchronized", "despawned" with the node's state as var_to_bytes hex),
# then "RESULT ok ..." or "RESULT fail ...".
extends Node

const BridgePeer = preload("res://bridge_peer.gd")
const Player = preload("res://player.gd")

var roots := {}
var players := {}
var server_mp: SceneMultiplayer
var client_mp: SceneMultiplayer
var client_peer: WebSocketMultiplayerPeer
var hero: Node2D
var start := 0
var phase := 0
var deadline := 0
var client_id := 0
var counts := {"sent": 0, "got": 0}

func ev(d: Dictionary) -> void:
	print("EV\t" + JSON.stringify(d))

func hexes(args: Array) -> Array:
	var out := []
	for a in args:
		out.append(var_to_bytes(a).hex_encode())
	return out

func side_of(n: Node) -> String:
	return "server" if roots["server"].is_ancestor_of(n) else "client"

func got(n: Node, method: String, args: Array) -> void:
	var side := side_of(n)
	counts.got += 1
	ev({"event": "got", "side": side, "node": String(roots[side].get_path_to(n)),
		"method": method, "args": hexes(args)})

func call_on(side: String, node: String, target: int, method: String, args: Array) -> void:
	counts.sent += 1
	ev({"event": "sent", "side": side, "node": node, "method": method, "args": hexes(args),
		"target": target})
	var n: Node = roots[side].get_node(node)
	if target == 0:
		Callable(n, "rpc").callv([method] + args)
	else:
		Callable(n, "rpc_id").callv([target, method] + args)

func state(n: Node, names: Array) -> Dictionary:
	var d := {}
	for p in names:
		d[p] = var_to_bytes(n.get(p)).hex_encode()
	return d

func build(side: String, mp: SceneMultiplayer) -> void:
	var root := Node.new()
	root.name = side.capitalize()
	add_child(root)
	roots[side] = root
	var world := Node.new()
	world.name = "World"
	root.add_child(world)
	for name in ["Player", "Späher"]:
		var player := Node.new()
		player.name = name
		player.set_script(Player)
		world.add_child(player)
	var spawned := Node.new()
	spawned.name = "Spawned"
	world.add_child(spawned)
	var spawner := MultiplayerSpawner.new()
	spawner.name = "Spawner"
	spawner.add_spawnable_scene("res://spawned.tscn")
	world.add_child(spawner)
	spawner.spawn_path = NodePath("../Spawned")
	get_tree().set_multiplayer(mp, root.get_path())
	if side == "client":
		spawner.spawned.connect(func(n: Node):
			var path := String(root.get_path_to(n))
			ev({"event": "spawned", "side": side, "node": path, "scene": n.scene_file_path,
				"state": state(n, ["position", "hp", "label"])})
			var sync: MultiplayerSynchronizer = n.get_node("Sync")
			sync.synchronized.connect(func():
				ev({"event": "synchronized", "side": side, "node": path, "state": state(n, ["position"])}))
			sync.delta_synchronized.connect(func():
				ev({"event": "delta_synchronized", "side": side, "node": path, "state": state(n, ["hp"])})))
		spawner.despawned.connect(func(n: Node):
			ev({"event": "despawned", "side": side, "node": "World/Spawned/" + String(n.name)}))

func big(n: int) -> PackedByteArray:
	var b := PackedByteArray()
	b.resize(n)
	for i in n:
		b[i] = (i * 7 + 3) % 251
	return b

func client_calls() -> void:
	for i in [0, 1, -1, 255, 65536, 2147483648, -1099511627776]:
		call_on("client", "World/Player", 1, "take", [i])
	call_on("client", "World/Player", 1, "pair", ["a", 2.5])
	call_on("client", "World/Player", 1, "pair", ["héllo ✓", 0.1])
	call_on("client", "World/Player", 1, "shapes", [Vector2(1, 2), Vector3i(1, -2, 3),
		Color(0.25, 0.5, 1, 1), Transform3D(Basis(), Vector3(1, 2, 3))])
	call_on("client", "World/Player", 1, "bag", [{"k": [1, "two", 3.0], "n": null},
		PackedByteArray([1, 2, 3]), &"name"])
	call_on("client", "World/Player", 1, "bag", [[NodePath("A/B:c"), Rect2(1, 2, 3, 4)],
		PackedInt32Array([1, -2]), big(70000)])
	for v in [true, false, null]:
		call_on("client", "World/Player", 1, "flag", [v])
	call_on("client", "World/Player", 1, "nothing", [])
	call_on("client", "World/Späher", 1, "take", [7])
	for i in 3:
		call_on("client", "World/Späher", 1, "tick", [i])
	var raw := PackedByteArray([0xde, 0xad, 0xbe, 0xef])
	ev({"event": "raw_sent", "side": "client", "hex": raw.hex_encode()})
	client_mp.send_bytes(raw, 1)

func server_calls(id: int) -> void:
	call_on("server", "World/Player", id, "hello", ["from the server"])
	call_on("server", "World/Player", id, "take", [42])
	call_on("server", "World/Späher", 0, "pair", [Vector2(-1, 0.5), {1: "one"}])
	call_on("server", "World/Player", id, "bag", [big(300), PackedFloat32Array([0.5, -2]),
		PackedStringArray(["x", "yz"])])
	var raw := PackedByteArray([1, 2, 3])
	ev({"event": "raw_sent", "side": "server", "hex": raw.hex_encode()})
	server_mp.send_bytes(raw, id)

func _ready() -> void:
	var server_url := ""
	var client_url := ""
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("server="):
			server_url = arg.substr(7)
		elif arg.begins_with("client="):
			client_url = arg.substr(7)
	deadline = Time.get_ticks_msec() + 60000
	server_mp = SceneMultiplayer.new()
	client_mp = SceneMultiplayer.new()
	build("server", server_mp)
	build("client", client_mp)
	var server_peer := BridgePeer.new()
	# Room for the 70,000-byte message (WebSocketPeer's default buffers hold 64 KiB).
	server_peer.ws.inbound_buffer_size = 1 << 20
	server_peer.start(server_url)
	server_mp.multiplayer_peer = server_peer
	server_mp.peer_connected.connect(func(id):
		client_id = id
		server_calls(id))
	server_mp.peer_packet.connect(func(id, bytes):
		ev({"event": "raw_got", "side": "server", "from": id, "hex": bytes.hex_encode()}))
	client_mp.peer_packet.connect(func(id, bytes):
		ev({"event": "raw_got", "side": "client", "from": id, "hex": bytes.hex_encode()}))
	client_peer = WebSocketMultiplayerPeer.new()
	client_peer.outbound_buffer_size = 1 << 20
	client_peer.inbound_buffer_size = 1 << 20
	var err := client_peer.create_client(client_url)
	if err != OK:
		finish(false, "create_client: %d" % err)
		return
	client_mp.multiplayer_peer = client_peer
	client_mp.connected_to_server.connect(func():
		ev({"event": "connected", "side": "client", "id": client_mp.get_unique_id()})
		start = Time.get_ticks_msec()
		client_calls())

func finish(ok: bool, why: String) -> void:
	print("RESULT %s %s" % ["ok" if ok else "fail", why])
	get_tree().quit(0 if ok else 1)

func _process(_delta: float) -> void:
	var now := Time.get_ticks_msec()
	if now > deadline:
		finish(false, "timed out in phase %d: %s" % [phase, str(counts)])
		phase = 99
		return
	if hero != null and is_instance_valid(hero):
		hero.position += Vector2(1, 0.5)
	if start == 0:
		return
	var t := now - start
	if phase == 0 and t > 300:
		phase = 1
		hero = load("res://spawned.tscn").instantiate()
		hero.name = "Hero"
		hero.set("hp", 50)
		hero.set("label", "made by the server")
		roots["server"].get_node("World/Spawned").add_child(hero, true)
	elif phase == 1 and t > 1000:
		phase = 2
		hero.set("hp", 41)
	elif phase == 2 and t > 1700:
		phase = 3
		hero.set("hp", 40)
	elif phase == 3 and t > 2400:
		phase = 4
		hero.queue_free()
		hero = null
	elif phase == 4 and t > 3100:
		phase = 5
		client_peer.close()
	elif phase == 5 and t > 3800:
		phase = 6
		finish(counts.sent == counts.got, "sent=%d got=%d" % [counts.sent, counts.got])
