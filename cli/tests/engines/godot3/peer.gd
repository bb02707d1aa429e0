# peer.gd: a Godot 3.2.3 peer for the proxy's engine tests (cli/tests/engines), run as
#   godot3-server --no-window -s peer.gd
# with PEER_MODE = tcp_server | tcp_client | udp_server | udp_client, PEER_PORT (a server's
# port, or the port a client sends to), PEER_LOCAL_PORT (where a UDP client listens for
# replies) and PEER_TIMEOUT (seconds).
#
# The client sends "hello-honest", then every value of values("from-client") with put_var
# (StreamPeerTCP or PacketPeerUDP), with two frames Godot itself refuses in between (a full
# object and a frame of an unknown type): the proxy must drop those. The server checks with
# get_var that it receives exactly values("from-client"), in order, nothing lost or repeated,
# then sends values("from-server"), which the client checks the same way. Each prints one
# "RESULT ok <count>" line, or "RESULT fail <why>" and exits with 1. A server also serves any
# number of other connections or addresses (the hostile clients' valid frames), reading and
# discarding their values.
extends SceneTree

var mode = OS.get_environment("PEER_MODE")
var port = int(OS.get_environment("PEER_PORT"))
var local_port = int(OS.get_environment("PEER_LOCAL_PORT"))
var deadline = OS.get_ticks_msec() + 1000 * int(OS.get_environment("PEER_TIMEOUT"))
var node = Node.new()
var big_bytes = PoolByteArray()
var big_array = []

func values(side, udp):
	var v = [null, true, false, 0, 42, -7, 2147483647, -2147483648, 4294967296, -1099511627776,
		3.5, 0.1, -0.0, 1e300, "", "hello", "Héllo wörld 日本 😀",
		Vector2(1.5, -2), Rect2(1, 2, 3, 4), Vector3(1, 2, 3), Transform2D(0.5, Vector2(3, 4)),
		Plane(1, 0, 0, 5), Quat(0.1, 0.2, 0.3, 0.9), AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)),
		Basis(Vector3(0, 1, 0), 0.5), Transform(Basis(Vector3(0, 0, 1), 1.0), Vector3(7, 8, 9)),
		Color(0.1, 0.2, 0.3, 0.4), NodePath("a/b:c"), NodePath("/root/x"), RID(),
		node, node.get_instance_id(),
		{"k": "v", 1: [2, 3], "nested": {"x": Vector2(1, 2)}}, {},
		[1, "two", 3.0, [4, [5]]], [],
		PoolByteArray([0, 1, 2, 255]), PoolIntArray([1, -2, 3]), PoolRealArray([0.5, -1.25]),
		PoolStringArray(["a", "bc", ""]), PoolVector2Array([Vector2(1, 2), Vector2(-3, 4)]),
		PoolVector3Array([Vector3(1, 2, 3)]), PoolColorArray([Color(1, 0, 0, 1)]),
		side]
	if not udp:
		v.append(big_bytes)
		v.append(big_array)
	return v

# What a value is, to compare what was sent with what arrived: Godot's own encoding of it
# (NodePath's padding is not initialised by the engine, so its text instead; an object crosses
# as its instance id, checked by the caller).
func describe(v):
	match typeof(v):
		TYPE_NODE_PATH:
			return "NodePath " + str(v)
		TYPE_RID:
			return "RID"
		TYPE_OBJECT:
			return "Object"
	return var2bytes(v)

func same(a, b):
	var x = describe(a)
	var y = describe(b)
	return typeof(x) == typeof(y) and x == y

func done(ok, why):
	if ok:
		print("RESULT ok ", why)
	else:
		print("RESULT fail ", why)
	quit(0 if ok else 1)

func timed_out():
	return OS.get_ticks_msec() > deadline

# Checks `got` against `expected[i]`; an object must arrive as an id, and the int after it is
# that id. Returns "" when it matches.
var last_object_id = 0
func check(expected, i, got):
	if i >= expected.size():
		return "value %d beyond the %d expected: %s" % [i, expected.size(), str(got).left(80)]
	var want = expected[i]
	if typeof(want) == TYPE_OBJECT:
		if not (got is EncodedObjectAsID):
			return "value %d: expected an object id, got %s" % [i, str(got)]
		last_object_id = got.get_object_id()
		return ""
	if i > 0 and typeof(expected[i - 1]) == TYPE_OBJECT:
		if got != last_object_id or last_object_id == 0:
			return "value %d: the object's id %s, got %s" % [i, last_object_id, got]
		return ""
	if not same(want, got):
		return "value %d: expected %s, got %s" % [i, str(want).left(80), str(got).left(80)]
	return ""

func bad_frames():
	# A frame Godot refuses: a value of an unknown type.
	return PoolByteArray([8, 0, 0, 0, 0xEE, 0, 0, 0, 1, 0, 0, 0])

func _init():
	big_bytes.resize(100000)
	for i in range(100000):
		big_bytes[i] = i % 251
	for i in range(5000):
		big_array.append(i * 3)
	match mode:
		"tcp_server":
			tcp_server()
		"tcp_client":
			tcp_client()
		"udp_server":
			udp_server()
		"udp_client":
			udp_client()
		_:
			done(false, "unknown PEER_MODE " + mode)

func tcp_server():
	var server = TCP_Server.new()
	if server.listen(port, "127.0.0.1") != OK:
		return done(false, "cannot listen on %d" % port)
	print("READY")
	var peers = []
	var honest = null
	var expected = values("from-client", false)
	var received = 0
	var others = 0
	while not timed_out():
		while server.is_connection_available():
			var peer = server.take_connection()
			peer.set_no_delay(true)
			peers.append({"peer": peer, "role": ""})
		for entry in peers:
			var peer = entry["peer"]
			while peer.get_status() == StreamPeerTCP.STATUS_CONNECTED and peer.get_available_bytes() > 0:
				var v = peer.get_var()
				if entry["role"] == "":
					entry["role"] = "honest" if (typeof(v) == TYPE_STRING and v == "hello-honest") else "other"
					if entry["role"] == "honest":
						honest = peer
						continue
				if entry["role"] == "other":
					others += 1
					continue
				var why = check(expected, received, v)
				if why != "":
					return done(false, why)
				received += 1
				if received == expected.size():
					for w in values("from-server", false):
						peer.put_var(w)
		var alive = []
		for entry in peers:
			if entry["peer"].get_status() == StreamPeerTCP.STATUS_CONNECTED:
				alive.append(entry)
			elif entry["peer"] == honest:
				if received == expected.size():
					return done(true, "%d values from the client, %d from other connections" % [received, others])
				return done(false, "the client left after %d of %d values" % [received, expected.size()])
		peers = alive
		OS.delay_msec(1)
	done(false, "timed out after %d of %d values" % [received, expected.size()])

func tcp_client():
	var peer = StreamPeerTCP.new()
	peer.connect_to_host("127.0.0.1", port)
	while peer.get_status() == StreamPeerTCP.STATUS_CONNECTING and not timed_out():
		OS.delay_msec(1)
	if peer.get_status() != StreamPeerTCP.STATUS_CONNECTED:
		return done(false, "cannot connect to %d" % port)
	peer.set_no_delay(true)
	peer.put_var("hello-honest")
	var list = values("from-client", false)
	for i in range(list.size()):
		if i == 5:
			peer.put_var(node, true)   # a full object: Godot's get_var() refuses it
		if i == 9:
			peer.put_data(bad_frames())
		peer.put_var(list[i])
	var expected = values("from-server", false)
	var received = 0
	while received < expected.size() and not timed_out():
		if peer.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			return done(false, "disconnected after %d of %d values" % [received, expected.size()])
		if peer.get_available_bytes() > 0:
			var why = check(expected, received, peer.get_var())
			if why != "":
				return done(false, why)
			received += 1
		else:
			OS.delay_msec(1)
	if received < expected.size():
		return done(false, "timed out after %d of %d values" % [received, expected.size()])
	peer.disconnect_from_host()
	done(true, "%d values from the server" % received)

func udp_server():
	var udp = PacketPeerUDP.new()
	if udp.listen(port, "127.0.0.1") != OK:
		return done(false, "cannot listen on %d" % port)
	print("READY")
	var expected = values("from-client", true)
	var received = 0
	var others = 0
	var honest = ""
	while not timed_out():
		while udp.get_available_packet_count() > 0:
			var v = udp.get_var()
			var from = "%s:%d" % [udp.get_packet_ip(), udp.get_packet_port()]
			if typeof(v) == TYPE_STRING and v == "hello-honest":
				# Sent a few times (UDP); the first names the honest client.
				if honest == "":
					honest = from
					udp.set_dest_address(udp.get_packet_ip(), udp.get_packet_port())
				continue
			if from != honest:
				others += 1
				continue
			var why = check(expected, received, v)
			if why != "":
				return done(false, why)
			received += 1
			if received == expected.size():
				for w in values("from-server", true):
					udp.put_var(w)
					OS.delay_msec(5)
				return done(true, "%d values from the client, %d from other addresses" % [received, others])
		OS.delay_msec(1)
	done(false, "timed out after %d of %d values" % [received, expected.size()])

func udp_client():
	var udp = PacketPeerUDP.new()
	if udp.listen(local_port, "127.0.0.1") != OK:
		return done(false, "cannot listen on %d" % local_port)
	udp.set_dest_address("127.0.0.1", port)
	for i in range(5):
		udp.put_var("hello-honest")
		OS.delay_msec(10)
	var list = values("from-client", true)
	for i in range(list.size()):
		if i == 5:
			udp.put_var(node, true)
		if i == 9:
			udp.put_packet(PoolByteArray([0xEE, 0, 0, 0]))
		udp.put_var(list[i])
		OS.delay_msec(5)
	var expected = values("from-server", true)
	var received = 0
	while received < expected.size() and not timed_out():
		if udp.get_available_packet_count() > 0:
			var why = check(expected, received, udp.get_var())
			if why != "":
				return done(false, why)
			received += 1
		else:
			OS.delay_msec(1)
	if received < expected.size():
		return done(false, "timed out after %d of %d values" % [received, expected.size()])
	done(true, "%d values from the server" % received)
