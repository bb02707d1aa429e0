# mp_session.gd: a Godot 3.2.3 multiplayer session through `gdvariant proxy --multiplayer`,
# run as `godot3-server --no-window -s mp_session.gd` with MP_SERVER_PORT (where the
# WebSocketServer listens, the proxy's upstream) and MP_PROXY_PORT (where the client connects).
#
# Two MultiplayerAPI instances in one scene tree, each the custom_multiplayer of its subtree
# (/root/Server, /root/Client): the server a WebSocketServer, the client a WebSocketClient, both
# with Godot's multiplayer header. Once connected, the server calls hello() on the client, and
# the client calls allowed() 5 times, forbidden() 5 times, limited() 20 times at once, and sets
# hp once (rset). Three seconds later it prints what each side received:
# "RESULT ok allowed=A forbidden=F limited=L hp=P hello=H", and quits.
extends SceneTree

var counts = {"allowed": 0, "forbidden": 0, "limited": 0, "hp": 0, "hello": 0}
var mps = {}
var players = {}
var sent_at = 0
var deadline = 0

func got(method, value):
	counts[method] += 1
	print("GOT %s %s" % [method, str(value)])

func side(name):
	var root = Node.new()
	root.name = name
	get_root().add_child(root)
	var world = Node.new()
	world.name = "World"
	root.add_child(world)
	var player = Node.new()
	player.name = "Player"
	player.set_script(load(OS.get_environment("MP_SCRIPTS") + "/mp_player.gd"))
	player.hub = self
	world.add_child(player)
	var mp = MultiplayerAPI.new()
	mp.set_root_node(root)
	for n in [root, world, player]:
		n.custom_multiplayer = mp
	mps[name] = mp
	players[name] = player

func _initialize():
	deadline = OS.get_ticks_msec() + 60000
	side("Server")
	side("Client")
	var server = WebSocketServer.new()
	var err = server.listen(int(OS.get_environment("MP_SERVER_PORT")), PoolStringArray(), true)
	if err != OK:
		done(false, "listen: %d" % err)
		return
	mps["Server"].network_peer = server
	mps["Server"].connect("network_peer_connected", self, "_on_server_peer")
	var client = WebSocketClient.new()
	err = client.connect_to_url("ws://127.0.0.1:%s/" % OS.get_environment("MP_PROXY_PORT"), PoolStringArray(), true)
	if err != OK:
		done(false, "connect_to_url: %d" % err)
		return
	mps["Client"].network_peer = client
	mps["Client"].connect("connected_to_server", self, "_on_connected")

func _on_server_peer(id):
	players["Server"].rpc_id(id, "hello", "from the server")

func _on_connected():
	var p = players["Client"]
	for i in 5:
		p.rpc_id(1, "allowed", i)
	for i in 5:
		p.rpc_id(1, "forbidden", i)
	for i in 20:
		p.rpc_id(1, "limited", i)
	p.rset_id(1, "hp", 7)
	sent_at = OS.get_ticks_msec()

func done(ok, why):
	print("RESULT %s %s" % ["ok" if ok else "fail", why])
	quit(0 if ok else 1)

func _idle(_delta):
	for name in mps:
		mps[name].poll()
	if sent_at > 0 and OS.get_ticks_msec() > sent_at + 3000:
		sent_at = 0
		done(true, "allowed=%d forbidden=%d limited=%d hp=%d hello=%d" % [counts.allowed, counts.forbidden, counts.limited, counts.hp, counts.hello])
	elif OS.get_ticks_msec() > deadline:
		deadline = OS.get_ticks_msec() + 60000
		done(false, "timed out: %s" % str(counts))
