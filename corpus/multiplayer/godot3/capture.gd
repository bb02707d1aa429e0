# capture.gd: Godot 3.2.3's high-level multiplayer over a real transport, for the capture of
# corpus/multiplayer (run by ../run.py, which records the traffic between the peers). Run as
#   godot3-server --no-window --path godot3 -s capture.gd
# with MP_TRANSPORT = enet | websocket, MP_SERVER_PORT (where the server listens) and
# MP_CONNECT_PORT (where the clients connect: the recording relay or proxy in front of it).
# MP_LARGE=1 adds the step "large" before "hostile" (ENet captures with losses,
# corpus/captures/record_enet.py --lossy): RPCs whose argument is larger than ENet's MTU, reliable
# and unreliable, then bursts of small unreliable and reliable RPCs, one a frame, and of
# 1000-byte reliable RPCs, three a frame.
#
# Three MultiplayerAPI instances live in this one scene tree, each the custom_multiplayer of
# its own subtree (/root/S, /root/A, /root/B, holding the same nodes): S is the server, A and B
# its clients, joined by NetworkedMultiplayerENet (or WebSocketServer / WebSocketClient with
# the multiplayer API's header) over loopback. Each step begins with RAW markers "step:NAME"
# (the server to every client, each client to the server), so the recorder can split every
# connection's traffic by step, and waits until every effect it causes has been seen.
#
# Printed lines (one JSON object after a tab): STEP, PEERS (the peer ids), FX (what a receiver
# did: a call with its node, method, sender and arguments; a property set; raw bytes; a peer
# connecting), then DONE. Engine errors arrive in between on standard error.
extends SceneTree

var transport = OS.get_environment("MP_TRANSPORT")
var server_port = int(OS.get_environment("MP_SERVER_PORT"))
var connect_port = int(OS.get_environment("MP_CONNECT_PORT"))
var deadline = 0
var mps = {}
var roots = {}
var peers = {}
var step = ""
var effects = 0
var raws = 0
var known = {}
var failed = false

func _initialize():
	deadline = OS.get_ticks_msec() + 1000 * int(OS.get_environment("MP_TIMEOUT") if OS.get_environment("MP_TIMEOUT") != "" else "150")
	run()

func out(kind, d):
	print(kind + "\t" + to_json(d))

func desc(v):
	var t = typeof(v)
	var d = {"type": t}
	if t == TYPE_OBJECT:
		if v == null:
			d["object"] = "null"
		elif v is EncodedObjectAsID:
			d["object"] = "id"
			d["id"] = v.get_object_id()
		else:
			d["object"] = "full"
			d["class"] = v.get_class()
			d["bytes"] = var2bytes(v, true).hex_encode()
		return d
	d["bytes"] = var2bytes(v).hex_encode()
	d["text"] = var2str(v)
	return d

func side_of(node):
	for side in roots:
		if roots[side] == node or roots[side].is_a_parent_of(node):
			return side
	return ""

func rel(node):
	return str(roots[side_of(node)].get_path_to(node))

func got(node, method, args):
	effects += 1
	var d = []
	for a in args:
		d.append(desc(a))
	var mp = node.custom_multiplayer
	out("FX", {"kind": "call", "side": side_of(node), "node": rel(node), "method": method,
		"from": mp.get_rpc_sender_id(), "args": d})

func got_set(node, property, value):
	effects += 1
	var mp = node.custom_multiplayer
	out("FX", {"kind": "set", "side": side_of(node), "node": rel(node), "property": property,
		"from": mp.get_rpc_sender_id(), "value": desc(value)})

func _on_raw(id, bytes, side):
	raws += 1
	var text = bytes.get_string_from_utf8()
	if not text.begins_with("step:"):
		effects += 1
	out("FX", {"kind": "raw", "side": side, "from": id, "hex": bytes.hex_encode()})

func _on_connected(id, side):
	known[side] = known.get(side, 0) + 1
	out("FX", {"kind": "peer_connected", "side": side, "peer": id})

func _on_disconnected(id, side):
	out("FX", {"kind": "peer_disconnected", "side": side, "peer": id})

func _idle(_delta):
	for side in mps:
		mps[side].poll()
	if OS.get_ticks_msec() > deadline and not failed:
		failed = true
		out("FAIL", {"step": step, "why": "timed out"})
		quit(1)

func tick():
	yield(self, "idle_frame")

# Waits until `effects` reaches `target` or 3 seconds pass (an unreliable packet may be lost),
# then a few more frames so that acknowledgements (CONFIRM_PATH) are through.
func wait_effects(target):
	var until = OS.get_ticks_msec() + 3000
	while effects < target and OS.get_ticks_msec() < until and not failed:
		yield(self, "idle_frame")
	if effects < target:
		out("MISSING", {"step": step, "effects": target - effects})
	for i in 6:
		yield(self, "idle_frame")

func expect(n):
	return effects + n

func mark(name):
	step = name
	out("STEP", {"step": name})
	var before = raws
	mps["S"].send_bytes(("step:" + name).to_utf8(), 0)
	mps["A"].send_bytes(("step:" + name).to_utf8(), 1)
	mps["B"].send_bytes(("step:" + name).to_utf8(), 1)
	while raws < before + 4 and not failed:
		yield(self, "idle_frame")

func make_side(side):
	var root = Node.new()
	root.name = side
	get_root().add_child(root)
	roots[side] = root
	var world = Node.new()
	world.name = "World"
	root.add_child(world)
	var mp = MultiplayerAPI.new()
	mp.set_root_node(root)
	var nodes = [root, world]
	for name in ["Player", "Jöker", "Nodes"]:
		var n = Node.new()
		n.name = name
		if name != "Nodes":
			n.set_script(load("res://rpc3.gd"))
			n.hub = self
		world.add_child(n)
		nodes.append(n)
	for i in 3:
		var n = Node.new()
		n.name = "N%d" % i
		n.set_script(load("res://rpc3.gd"))
		n.hub = self
		world.get_node("Nodes").add_child(n)
		nodes.append(n)
	for n in nodes:
		n.custom_multiplayer = mp
	mps[side] = mp
	mp.connect("network_peer_packet", self, "_on_raw", [side])
	mp.connect("network_peer_connected", self, "_on_connected", [side])
	mp.connect("network_peer_disconnected", self, "_on_disconnected", [side])

func node(side, path):
	return roots[side].get_node(path)

func values():
	return [null, true, false, 0, 1, -1, 127, 2147483647, -2147483648, 2147483648,
		9223372036854775807, -9223372036854775808, 1.5, 0.1, -0.0, 1e300, "", "héllo wörld 日本 😀",
		Vector2(1.5, -2), Rect2(1, 2, 3, 4), Vector3(1, 2, 3), Transform2D(0.5, Vector2(3, 4)),
		Plane(1, 0, 0, 5), Quat(0.1, 0.2, 0.3, 0.9), AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)),
		Basis(Vector3(0, 1, 0), 0.5), Transform(Basis(Vector3(0, 0, 1), 1.0), Vector3(7, 8, 9)),
		Color(0.1, 0.2, 0.3, 0.4), NodePath("a/b:c"), NodePath("/root/x"), NodePath(""), RID(),
		roots["S"], {"k": "v", 1: [2, 3], "nested": {"x": Vector2(1, 2)}}, {},
		[1, "two", 3.0, [4, [5]]], [], PoolByteArray([0, 1, 2, 255]), PoolByteArray(),
		PoolIntArray([1, -2, 3]), PoolRealArray([0.5, -1.25]), PoolStringArray(["a", "bc", ""]),
		PoolVector2Array([Vector2(1, 2), Vector2(-3, 4)]), PoolVector3Array([Vector3(1, 2, 3)]),
		PoolColorArray([Color(1, 0, 0, 1)])]

func run():
	yield(self, "idle_frame")
	for side in ["S", "A", "B"]:
		make_side(side)
	var server
	if transport == "enet":
		server = NetworkedMultiplayerENet.new()
		server.create_server(server_port, 8)
	else:
		server = WebSocketServer.new()
		server.listen(server_port, PoolStringArray(), true)
	peers["S"] = server
	mps["S"].network_peer = server
	for side in ["A", "B"]:
		var client
		if transport == "enet":
			client = NetworkedMultiplayerENet.new()
			client.create_client("127.0.0.1", connect_port)
		else:
			client = WebSocketClient.new()
			client.connect_to_url("ws://127.0.0.1:%d/" % connect_port, PoolStringArray(), true)
		peers[side] = client
		mps[side].network_peer = client
		while known.get(side, 0) < 1 and not failed:
			yield(self, "idle_frame")
	while (known.get("A", 0) < 2 or known.get("B", 0) < 2 or known.get("S", 0) < 2) and not failed:
		yield(self, "idle_frame")
	var a_id = mps["A"].get_network_unique_id()
	var b_id = mps["B"].get_network_unique_id()
	out("PEERS", {"S": 1, "A": a_id, "B": b_id})

	yield(mark("rpc_types_client_to_server"), "completed")
	for v in values():
		var t212 = expect(1)
		node("A", "World/Player").rpc_id(1, "r1", v)
		yield(wait_effects(t212), "completed")

	yield(mark("rpc_types_server_to_clients"), "completed")
	for v in values():
		var t217 = expect(2)
		node("S", "World/Player").rpc("r1", v)
		yield(wait_effects(t217), "completed")

	yield(mark("rpc_counts"), "completed")
	var p = node("A", "World/Player")
	var t225 = expect(4)
	p.rpc_id(1, "r0")
	p.rpc_id(1, "r2", 1, "two")
	p.rpc_id(1, "r3", true, 2.5, Vector2(3, 4))
	p.rpc_id(1, "r8", 1, 2, 3, 4, 5, 6, 7, 8)
	yield(wait_effects(t225), "completed")

	yield(mark("rpc_unreliable"), "completed")
	var t230 = expect(3)
	p.rpc_unreliable_id(1, "r1", "unreliable")
	node("S", "World/Player").rpc_unreliable("r1", "unreliable to all")
	yield(wait_effects(t230), "completed")

	yield(mark("remotesync"), "completed")
	var t234 = expect(3)
	p.rpc("rs1", "remotesync from A")
	yield(wait_effects(t234), "completed")
	var t236 = expect(3)
	node("S", "World/Player").rpc("rs1", "remotesync from S")
	yield(wait_effects(t236), "completed")

	yield(mark("master_puppet"), "completed")
	var t241 = expect(3)
	p.rpc_id(1, "m1", "to the master")
	node("S", "World/Player").rpc("p1", "to the puppets")
	yield(wait_effects(t241), "completed")

	yield(mark("rset"), "completed")
	var t248 = expect(6)
	p.rset_id(1, "hp", 42)
	node("S", "World/Player").rset("label", "set by the master")
	p.rset_unreliable_id(1, "hp", 43)
	node("S", "World/Player").rset_unreliable("label", "unreliable set")
	yield(wait_effects(t248), "completed")
	for v in [Vector2(1, 2), "text", [1, 2], {"a": 1}]:
		var t251 = expect(1)
		p.rset_id(1, "hp", v)
		yield(wait_effects(t251), "completed")

	yield(mark("other_nodes"), "completed")
	var t257 = expect(4)
	node("A", "World/Jöker").rpc_id(1, "r1", "unicode node name")
	for i in 3:
		node("A", "World/Nodes/N%d" % i).rpc_id(1, "r2", i, "node %d" % i)
	yield(wait_effects(t257), "completed")
	var t259 = expect(1)
	node("A", "World/Nodes/N2").rpc_id(1, "r0")
	yield(wait_effects(t259), "completed")

	yield(mark("relay"), "completed")
	var t263 = expect(1)
	p.rpc_id(b_id, "r1", "A to B through the server")
	yield(wait_effects(t263), "completed")
	var t265 = expect(1)
	node("B", "World/Player").rpc_id(a_id, "r2", "B to A", 2)
	yield(wait_effects(t265), "completed")
	var t267 = expect(2)
	p.rpc("r1", "A to everyone")
	yield(wait_effects(t267), "completed")

	yield(mark("full_objects"), "completed")
	var t275 = expect(1)
	mps["S"].allow_object_decoding = true
	mps["A"].allow_object_decoding = true
	var res = Resource.new()
	res.resource_name = "gift"
	p.rpc_id(1, "r1", res)
	yield(wait_effects(t275), "completed")
	mps["S"].allow_object_decoding = false
	mps["A"].allow_object_decoding = false

	yield(mark("raw"), "completed")
	var t285 = expect(6)
	mps["A"].send_bytes("to the server".to_utf8(), 1)
	mps["S"].send_bytes("to A".to_utf8(), a_id)
	mps["S"].send_bytes("to every client".to_utf8(), 0)
	mps["A"].send_bytes("to B".to_utf8(), b_id)
	mps["A"].send_bytes("unreliable".to_utf8(), 1, NetworkedMultiplayerPeer.TRANSFER_MODE_UNRELIABLE)
	yield(wait_effects(t285), "completed")

	if OS.get_environment("MP_LARGE") == "1":
		yield(mark("large"), "completed")
		yield(large(p), "completed")

	yield(mark("hostile"), "completed")
	yield(hostile(), "completed")

	yield(mark("done"), "completed")
	out("DONE", {})
	for side in ["B", "A"]:
		if transport == "enet":
			peers[side].close_connection()
		else:
			peers[side].disconnect_from_host()
		for i in 10:
			yield(self, "idle_frame")
	quit(0)

# A PoolByteArray of `n` bytes: (i * 31 + first) % 256.
func big(n, first):
	var out = PoolByteArray()
	out.resize(n)
	for i in n:
		out[i] = (i * 31 + first) % 256
	return out

# Messages over ENet's MTU (fragmented), bursts of small sends, one a frame (a datagram each),
# and of 1000-byte reliable ones, three a frame.
func large(p):
	var s = node("S", "World/Player")
	var t1 = expect(3)
	p.rpc_id(1, "r1", big(6000, 1))
	s.rpc("r1", big(9000, 2))
	yield(wait_effects(t1), "completed")
	var t2 = expect(3)
	p.rpc_unreliable_id(1, "r1", big(4000, 3))
	s.rpc_unreliable("r1", big(3000, 4))
	yield(wait_effects(t2), "completed")
	var t3 = expect(90)
	for i in 30:
		p.rpc_unreliable_id(1, "r2", i, "burst")
		s.rpc_unreliable("r2", i, "burst to all")
		yield(self, "idle_frame")
	yield(wait_effects(t3), "completed")
	var t4 = expect(90)
	for i in 30:
		p.rpc_id(1, "r2", i, "reliable burst")
		s.rpc("r2", i, "reliable burst to all")
		yield(self, "idle_frame")
	yield(wait_effects(t4), "completed")
	# Reliable messages of 1000 bytes, three a frame: a datagram each, several in flight.
	var t5 = expect(90)
	for i in 10:
		for j in 3:
			p.rpc_id(1, "r2", i * 3 + j, big(1000, i * 3 + j))
			s.rpc("r2", i * 3 + j, big(1000, 100 + i * 3 + j))
		yield(self, "idle_frame")
	yield(wait_effects(t5), "completed")

# Crafted packets from A's transport straight to the server (the transport adds its own
# header): what Godot 3.2.3 accepts, refuses, and how. A's path cache id 1 is World/Player.
func hostile():
	var cases = [
		["call_cached", "0001000000723100010200000005000000"],
		["call_trailing_bytes", "0001000000723100010200000005000000ffff"],
		["call_bad_argument_type", "000100000072310001ff000000"],
		["call_argument_cut_short", "00010000007231000102000000"],
		["call_second_argument_missing", "0001000000723200020200000005000000"],
		["call_invalid_utf8_name", "0001000000ff3100010200000005000000"],
		["call_bom_name", "0001000000efbbbf723100010200000005000000"],
		["call_node_path_padding_garbage", "000100000072310001" + "0f00000002000080000000000000000001000000610000000100000062abcdef0100000063414243"],
		["call_no_nul_after_name", "0001000000723131"],
		["call_short", "0001000000"],
		["call_argc_zero", "000100000072310000"],
		["call_argc_missing", "0001000000723100"],
		["call_unknown_cache_id", "0063000000723100010200000005000000"],
		["call_path_world_player", "0011000080723100010200000005000000576f726c642f506c6179657200"],
		["call_path_offset_past_end", "0040000080723100010200000005000000"],
		["call_path_unknown_node", "00110000807231000102000000050000004e6f706500"],
		["call_not_rpc", "0001000000706c61696e00010200000005000000"],
		["call_overlong_name", "0001000000e081b23100010200000005000000"],
		["set_cached", "01010000006870000200000007000000"],
		["set_bad_value", "0101000000687000ee000000"],
		["set_unknown_property", "01010000006e6f7065000200000007000000"],
		["simplify_short", "02010000"],
		["simplify_new_id", "0209000000576f726c642f4e6f6465732f4e3000"],
		["call_new_id", "00090000007230000000"],
		["confirm_short", "03"],
		["confirm_unknown_path", "034e6f706500"],
		["raw_short", "04"],
		["raw_bytes", "046869"],
		["unknown_command", "056869"],
		["command_with_high_bits", "846869"],
	]
	var peer = peers["A"]
	for c in cases:
		out("INJECT", {"name": c[0], "hex": c[1]})
		peer.set_target_peer(1)
		peer.set_transfer_mode(NetworkedMultiplayerPeer.TRANSFER_MODE_RELIABLE)
		peer.put_packet(unhex(c[1]))
		for i in 8:
			yield(self, "idle_frame")

func unhex(text):
	var out = PoolByteArray()
	for i in range(0, text.length(), 2):
		out.append(("0x" + text.substr(i, 2)).hex_to_int())
	return out
