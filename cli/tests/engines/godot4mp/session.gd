# session.gd: a Godot 4.6 multiplayer session through `gdvariant proxy --multiplayer`. Run by
# corpus/multiplayer/web4.py with the user arguments proxy=ws://PROXY/ and
# bridge=ws://BRIDGE/.
#
# Two SceneMultiplayer instances in one scene tree: the client's (Godot's own
# WebSocketMultiplayerPeer, connected to the proxy) and the server's (bridge_peer.gd, reached
# through the test's bridge, the proxy's upstream). Once connected, the server calls hello()
# on the client, and the client calls allowed() 5 times, forbidden() 5 times and limited() 20
# times at once on the server. Three seconds later the script prints what each side received:
# "RESULT ok allowed=A forbidden=F limited=L hello=H", and quits.
extends Node

const BridgePeer = preload("res://bridge_peer.gd")
const Player = preload("res://player.gd")

var counts := {"allowed": 0, "forbidden": 0, "limited": 0, "hello": 0}
var sent_at := 0
var deadline := 0

func got(method: String, value) -> void:
	counts[method] += 1
	print("GOT %s %s" % [method, str(value)])

func side(name: String, mp: SceneMultiplayer) -> Node:
	var root := Node.new()
	root.name = name
	add_child(root)
	var world := Node.new()
	world.name = "World"
	root.add_child(world)
	var player := Node.new()
	player.name = "Player"
	player.set_script(Player)
	world.add_child(player)
	get_tree().set_multiplayer(mp, root.get_path())
	return player

func _ready() -> void:
	var proxy := ""
	var bridge := ""
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("proxy="):
			proxy = arg.substr(6)
		elif arg.begins_with("bridge="):
			bridge = arg.substr(7)
	deadline = Time.get_ticks_msec() + 60000
	var server_mp := SceneMultiplayer.new()
	var client_mp := SceneMultiplayer.new()
	var server_player := side("Server", server_mp)
	var client_player := side("Client", client_mp)
	var server_peer := BridgePeer.new()
	server_peer.start(bridge + "server")
	server_mp.multiplayer_peer = server_peer
	server_mp.peer_connected.connect(func(id): server_player.rpc_id(id, "hello", "from the server"))
	var client_peer := WebSocketMultiplayerPeer.new()
	var err := client_peer.create_client(proxy)
	if err != OK:
		finish(false, "create_client: %d" % err)
		return
	client_mp.multiplayer_peer = client_peer
	client_mp.connected_to_server.connect(func():
		for i in 5:
			client_player.rpc_id(1, "allowed", i)
		for i in 5:
			client_player.rpc_id(1, "forbidden", i)
		for i in 20:
			client_player.rpc_id(1, "limited", i)
		sent_at = Time.get_ticks_msec())

func finish(ok: bool, why: String) -> void:
	print("RESULT %s %s" % ["ok" if ok else "fail", why])
	get_tree().quit(0 if ok else 1)

func _process(_delta: float) -> void:
	if sent_at > 0 and Time.get_ticks_msec() > sent_at + 3000:
		sent_at = 0
		finish(true, "allowed=%d forbidden=%d limited=%d hello=%d" % [counts.allowed, counts.forbidden, counts.limited, counts.hello])
	elif Time.get_ticks_msec() > deadline:
		finish(false, "timed out: %s" % str(counts))
