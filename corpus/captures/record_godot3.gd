# record_godot3.gd: one Godot 3.2.3 put_var session over TCP for corpus/captures/, run as
#   godot3-server --no-window -s record_godot3.gd
# with REC_MODE = server | client and REC_PORT. The client sends every value of values() with
# StreamPeerTCP.put_var, a full object (put_var(node, true), which get_var refuses) and a frame
# of an unknown type (put_data) among them; the server reads them all with get_var, then sends
# values() back. Each side prints one line per frame it wrote: "SENT <hex of the frame's
# value bytes>" (var2bytes, the bytes put_var writes after its length), "SENT_REFUSED <hex>"
# for the two frames get_var refuses, then "RESULT ok".
extends SceneTree

var mode = OS.get_environment("REC_MODE")
var port = int(OS.get_environment("REC_PORT"))
var deadline = OS.get_ticks_msec() + 15000
var node = Node.new()

func values():
	var big = PoolByteArray()
	big.resize(100000)
	for i in range(100000):
		big[i] = i % 251
	var ints = []
	for i in range(3000):
		ints.append(i * 3)
	return [null, true, false, 0, 42, -7, 2147483647, -2147483648, 4294967296, -1099511627776,
		3.5, 0.1, -0.0, 1e300, "", "hello", "Héllo wörld 日本 😀",
		Vector2(1.5, -2), Rect2(1, 2, 3, 4), Vector3(1, 2, 3), Transform2D(0.5, Vector2(3, 4)),
		Plane(1, 0, 0, 5), Quat(0.1, 0.2, 0.3, 0.9), AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)),
		Basis(Vector3(0, 1, 0), 0.5), Transform(Basis(Vector3(0, 0, 1), 1.0), Vector3(7, 8, 9)),
		Color(0.1, 0.2, 0.3, 0.4),
		{"k": "v", 1: [2, 3], "nested": {"x": Vector2(1, 2)}}, {},
		[1, "two", 3.0, [4, [5]]], [],
		PoolByteArray([0, 1, 2, 255]), PoolIntArray([1, -2, 3]), PoolRealArray([0.5, -1.25]),
		PoolStringArray(["a", "bc", ""]), PoolVector2Array([Vector2(1, 2), Vector2(-3, 4)]),
		PoolVector3Array([Vector3(1, 2, 3)]), PoolColorArray([Color(1, 0, 0, 1)]),
		big, ints, "the end"]

# Each put_var is followed by a pause: Godot 3.2.3's put_var drops what a full send buffer
# does not take (a peer reading slower than the other writes), which the capture would show
# as frames the engine logged but never sent.
func send(peer, v):
	peer.put_var(v)
	print("SENT ", var2bytes(v).hex_encode())
	OS.delay_msec(20)

func done(ok, why):
	print("RESULT ", "ok " if ok else "fail ", why)
	quit(0 if ok else 1)

func _init():
	if mode == "server":
		server()
	else:
		client()

func server():
	var listener = TCP_Server.new()
	if listener.listen(port, "127.0.0.1") != OK:
		return done(false, "cannot listen")
	print("READY")
	while not listener.is_connection_available():
		if OS.get_ticks_msec() > deadline:
			return done(false, "no client")
		OS.delay_msec(1)
	var peer = listener.take_connection()
	peer.set_no_delay(true)
	var received = 0
	var last = null
	while not (typeof(last) == TYPE_STRING and last == "the end"):
		if OS.get_ticks_msec() > deadline:
			return done(false, "timed out after %d" % received)
		if peer.get_available_bytes() > 0:
			# The two refused frames read as null (with an error printed).
			last = peer.get_var()
			received += 1
		else:
			OS.delay_msec(1)
	# The reply leaves out the 100 kB array: after it, Godot 3.2.3's server sent nothing more
	# of what it logged (the capture showed the stream stop there), so the reply keeps to
	# values that cross in one segment each; the client's 100 kB array crosses in three.
	for v in values():
		if typeof(v) != TYPE_RAW_ARRAY or v.size() < 1000:
			send(peer, v)
	while peer.get_status() == StreamPeerTCP.STATUS_CONNECTED and OS.get_ticks_msec() < deadline:
		peer.get_available_bytes()
		OS.delay_msec(5)
	done(true, "%d values" % received)

func client():
	var peer = StreamPeerTCP.new()
	peer.connect_to_host("127.0.0.1", port)
	while peer.get_status() == StreamPeerTCP.STATUS_CONNECTING:
		OS.delay_msec(1)
	if peer.get_status() != StreamPeerTCP.STATUS_CONNECTED:
		return done(false, "cannot connect")
	peer.set_no_delay(true)
	var list = values()
	for i in range(list.size()):
		if i == 5:
			peer.put_var(node, true)
			print("SENT_REFUSED ", var2bytes(node, true).hex_encode())
		if i == 9:
			var bad = PoolByteArray([0xEE, 0, 0, 0, 1, 0, 0, 0])
			peer.put_32(bad.size())
			peer.put_data(bad)
			print("SENT_REFUSED ", bad.hex_encode())
		send(peer, list[i])
	var received = 0
	var last = null
	while not (typeof(last) == TYPE_STRING and last == "the end"):
		if OS.get_ticks_msec() > deadline:
			return done(false, "timed out after %d values back" % received)
		if peer.get_available_bytes() > 0:
			last = peer.get_var()
			received += 1
		else:
			OS.delay_msec(1)
	peer.disconnect_from_host()
	done(true, "%d values back" % received)
