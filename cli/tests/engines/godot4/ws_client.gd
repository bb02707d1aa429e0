# ws_client.gd: a Godot 4.6 WebSocket client for the proxy's engine test (cli/tests/engines).
# Run by run.py with the user argument url=ws://127.0.0.1:PORT/ (a WebSocket echo server
# behind `gdvariant proxy --websocket`).
#
# Sends every value of values() with WebSocketPeer.put_var, with two packets Godot itself
# refuses in between (a full object, and a value of an unknown type): the proxy must drop
# those. The echo server sends every message back through the proxy; this client decodes each
# with get_var (Godot's own decoder) and checks that exactly values() come back, in order,
# nothing lost or repeated. Prints "RESULT ok <count>" or "RESULT fail <why>", then quits.
extends Node

var ws := WebSocketPeer.new()
var node := Node.new()
var expected := []
var received := 0
var sent := false
var deadline := 0
var last_object_id := 0

func values() -> Array:
	var typed_ints: Array[int] = [1, 2, 3]
	var typed_dict: Dictionary[String, int] = {"a": 1, "b": 2}
	var big := PackedByteArray()
	big.resize(100000)
	for i in 100000:
		big[i] = i % 251
	var wide := []
	for i in 5000:
		wide.append(i * 3)
	return [null, true, false, 0, 42, -7, 4294967296, 3.5, 0.1, -0.0, 1e300, "", "héllo wörld 日本 😀",
		Vector2(1.5, -2), Vector2i(3, -4), Rect2(1, 2, 3, 4), Rect2i(1, 2, 3, 4),
		Vector3(1, 2, 3), Vector3i(1, 2, 3), Transform2D(0.5, Vector2(3, 4)),
		Vector4(1, 2, 3, 4), Vector4i(1, 2, 3, 4), Plane(1, 0, 0, 5),
		Quaternion(0.1, 0.2, 0.3, 0.9), AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)),
		Basis(Vector3(0, 1, 0), 0.5), Transform3D(Basis(Vector3(0, 0, 1), 1.0), Vector3(7, 8, 9)),
		Projection(Vector4(1, 0, 0, 0), Vector4(0, 2, 0, 0), Vector4(0, 0, 3, 0), Vector4(0, 0, 0, 4)),
		Color(0.1, 0.2, 0.3, 0.4), &"a_string_name", NodePath("a/b:c"), NodePath("/root/x"),
		RID(), node, node.get_instance_id(), Callable(), Signal(),
		{"k": "v", 1: [2, 3], "nested": {"x": Vector2(1, 2)}}, {}, typed_dict,
		[1, "two", 3.0, [4, [5]]], [], typed_ints, wide,
		PackedByteArray([0, 1, 2, 255]), PackedInt32Array([1, -2, 3]),
		PackedInt64Array([1, -(1 << 40)]), PackedFloat32Array([0.5, -1.25]),
		PackedFloat64Array([0.1, 1e300]), PackedStringArray(["a", "bc", ""]),
		PackedVector2Array([Vector2(1, 2)]), PackedVector3Array([Vector3(1, 2, 3)]),
		PackedColorArray([Color(1, 0, 0, 1)]), PackedVector4Array([Vector4(1, 2, 3, 4)]), big]

# What a value is, to compare what was sent with what came back: Godot's own encoding of it
# (a NodePath by its text; an object crosses as its instance id, checked by check()).
func describe(v):
	match typeof(v):
		TYPE_NODE_PATH:
			return "NodePath " + str(v)
		TYPE_OBJECT:
			return "Object"
	return var_to_bytes(v)

func check(i: int, got) -> String:
	if i >= expected.size():
		return "value %d beyond the %d expected" % [i, expected.size()]
	var want = expected[i]
	if typeof(want) == TYPE_OBJECT:
		if not (got is EncodedObjectAsID):
			return "value %d: expected an object id, got %s" % [i, str(got)]
		last_object_id = got.get_object_id()
		return ""
	if i > 0 and typeof(expected[i - 1]) == TYPE_OBJECT:
		if got != last_object_id or last_object_id == 0 or got != node.get_instance_id():
			return "value %d: the object's id %s, got %s" % [i, last_object_id, got]
		return ""
	var x = describe(want)
	var y = describe(got)
	if typeof(x) != typeof(y) or x != y:
		return "value %d: expected %s, got %s" % [i, str(want).left(80), str(got).left(80)]
	return ""

func finish(ok: bool, why: String) -> void:
	print("RESULT %s %s" % ["ok" if ok else "fail", why])
	ws.close()
	get_tree().quit(0 if ok else 1)

func _ready() -> void:
	var url := ""
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("url="):
			url = arg.substr(4)
	expected = values()
	deadline = Time.get_ticks_msec() + 60000
	ws.inbound_buffer_size = 1 << 20
	ws.outbound_buffer_size = 1 << 20
	var err := ws.connect_to_url(url)
	if err != OK:
		finish(false, "connect_to_url(%s): %d" % [url, err])

func _process(_delta: float) -> void:
	if Time.get_ticks_msec() > deadline:
		finish(false, "timed out after %d of %d values" % [received, expected.size()])
		return
	ws.poll()
	var state := ws.get_ready_state()
	if state == WebSocketPeer.STATE_CLOSED:
		finish(false, "closed (%d %s) after %d of %d values" % [ws.get_close_code(), ws.get_close_reason(), received, expected.size()])
		return
	if state != WebSocketPeer.STATE_OPEN:
		return
	if not sent:
		sent = true
		for i in expected.size():
			if i == 5:
				ws.put_var(node, true)   # a full object: Godot's get_var() refuses it
			if i == 9:
				ws.put_packet(PackedByteArray([0xEE, 0, 0, 0]))   # an unknown type
			var err := ws.put_var(expected[i])
			if err != OK:
				finish(false, "put_var of value %d: %d" % [i, err])
				return
	while ws.get_available_packet_count() > 0:
		var why := check(received, ws.get_var())
		if why != "":
			finish(false, why)
			return
		received += 1
	if received == expected.size():
		finish(true, "%d values through the proxy and back" % received)
