# record_godot3_ws.gd: a Godot 3.2.3 WebSocket multiplayer session in one process, recorded by
# record_godot3_ws.py. Run as `godot3-server --no-window -s record_godot3_ws.gd` with WS_PORT
# (where the WebSocketServer listens and the WebSocketClient connects, straight, no proxy) and
# WS_SCRIPTS (this folder).
#
# Two MultiplayerAPI instances, each the custom_multiplayer of its subtree (/root/Server,
# /root/Client), both with Godot's multiplayer header. Once connected the server calls hello()
# on the client; the client calls take() with values of several types, pair() twice and sets
# hp once (rset), all to the server. Every call received is printed as
# "GOT side node method hex" (hex: var2bytes of the argument; pair's: of each, joined by ",").
# Two seconds after the last call it prints "RESULT ok N" and quits.
extends SceneTree

var mps = {}
var players = {}
var roots = {}
var sent_at = 0
var deadline = 0

func got(node, method, value):
	var side = "server" if node == players["Server"] else "client"
	var path = str(roots[side].get_path_to(node))
	var hex = ""
	if method == "pair":
		hex = var2bytes(value[0]).hex_encode() + "," + var2bytes(value[1]).hex_encode()
	else:
		hex = var2bytes(value).hex_encode()
	print("GOT %s %s %s %s" % [side, path, method, hex])

func side(name):
	var root = Node.new()
	root.name = name
	get_root().add_child(root)
	var world = Node.new()
	world.name = "World"
	root.add_child(world)
	var player = Node.new()
	player.name = "Player"
	player.set_script(load(OS.get_environment("WS_SCRIPTS") + "/record_godot3_ws_player.gd"))
	player.hub = self
	world.add_child(player)
	var mp = MultiplayerAPI.new()
	mp.set_root_node(root)
	for n in [root, world, player]:
		n.custom_multiplayer = mp
	mps[name] = mp
	players[name] = player
	roots[name.to_lower()] = root

func _initialize():
	deadline = OS.get_ticks_msec() + 60000
	side("Server")
	side("Client")
	var port = int(OS.get_environment("WS_PORT"))
	var server = WebSocketServer.new()
	# Buffers past the 64 KiB default, for the 70,000-byte argument (a 64-bit frame length).
	server.set_buffers(256, 1024, 256, 1024)
	var err = server.listen(port, PoolStringArray(), true)
	if err != OK:
		done(false, "listen: %d" % err)
		return
	mps["Server"].network_peer = server
	mps["Server"].connect("network_peer_connected", self, "_on_server_peer")
	var client = WebSocketClient.new()
	client.set_buffers(256, 1024, 256, 1024)
	err = client.connect_to_url("ws://127.0.0.1:%d/" % port, PoolStringArray(), true)
	if err != OK:
		done(false, "connect_to_url: %d" % err)
		return
	mps["Client"].network_peer = client
	mps["Client"].connect("connected_to_server", self, "_on_connected")

func _on_server_peer(id):
	players["Server"].rpc_id(id, "hello", "from the server")

func _on_connected():
	var p = players["Client"]
	for i in 3:
		p.rpc_id(1, "take", i)
	p.rpc_id(1, "take", "text é")
	p.rpc_id(1, "take", Vector2(1.5, -2))
	p.rpc_id(1, "take", [1, "two", 3.0])
	p.rpc_id(1, "take", {"k": PoolByteArray([1, 2, 3])})
	var big = PoolByteArray()
	big.resize(70000)
	for i in 70000:
		big[i] = i % 251
	p.rpc_id(1, "take", big)
	p.rpc_id(1, "pair", "a", 2)
	p.rpc_id(1, "pair", null, Color(0.25, 0.5, 1, 1))
	p.rset_id(1, "hp", 7)
	sent_at = OS.get_ticks_msec()

func done(ok, why):
	print("RESULT %s %s" % ["ok" if ok else "fail", why])
	quit(0 if ok else 1)

func _idle(_delta):
	for name in mps:
		mps[name].poll()
	if sent_at > 0 and OS.get_ticks_msec() > sent_at + 2000:
		sent_at = 0
		done(true, "session over")
	elif OS.get_ticks_msec() > deadline:
		deadline = OS.get_ticks_msec() + 60000
		done(false, "timed out")
