# probe3.gd: feeds crafted bytes to Godot 3's decoder, exactly as the corpus
# generator (tools/godot3-corpus/gen.gd, dcase) does: PacketPeerStream over a
# StreamPeerBuffer, get_var(allow_objects). Driven by run.py; not run by hand.
#   PROBE_MODE=cases  PROBE_IN=file of "name<TAB>hex<TAB>allow(0|1)<TAB>note"
#       prints DECODE_BEGIN/DECODE_END around each decode (engine error lines
#       fall between them) and one "REC<TAB>{json}" line per case (stderr).
#   PROBE_MODE=sweep  PROBE_IN=file of hex lines (STRING inputs)
#       prints "SW<TAB>hex<TAB>1<TAB>length<TAB>code points" or "SW<TAB>hex<TAB>0".
#   PROBE_MODE=classes  prints "CLASSINFO<TAB>name<TAB>can_instance(0|1)".
extends SceneTree

const TYPE_NAMES = ["Nil", "bool", "int", "float", "String", "Vector2", "Rect2",
	"Vector3", "Transform2D", "Plane", "Quat", "AABB", "Basis", "Transform",
	"Color", "NodePath", "RID", "Object", "Dictionary", "Array", "PoolByteArray",
	"PoolIntArray", "PoolRealArray", "PoolStringArray", "PoolVector2Array",
	"PoolVector3Array", "PoolColorArray"]
const MAX_INLINE_NESTING = 50

var spb = StreamPeerBuffer.new()
var version = ""

func hexs(b):
	var s = ""
	for x in b:
		s += "%02x" % x
	return s

func f32hex(x):
	spb.clear()
	spb.put_float(x)
	var a = spb.data_array
	return "%02x%02x%02x%02x" % [a[3], a[2], a[1], a[0]]

func f64hex(x):
	spb.clear()
	spb.put_double(x)
	var a = spb.data_array
	return "%02x%02x%02x%02x%02x%02x%02x%02x" % [a[7], a[6], a[5], a[4], a[3], a[2], a[1], a[0]]

func f32s(arr):
	var r = []
	for x in arr:
		r.append(f32hex(x))
	return r

# Type-tagged, lossless description of a value, computed by Godot itself.
# floats: f32 components -> 8 hex digits of the IEEE bits, f64 -> 16 hex digits.
func describe(v, full):
	var t = typeof(v)
	var d = {"t": TYPE_NAMES[t]}
	match t:
		TYPE_NIL:
			pass
		TYPE_BOOL:
			d["v"] = v
		TYPE_INT:
			d["v"] = v
		TYPE_REAL:
			d["f64"] = f64hex(v)
			d["approx"] = var2str(v)
		TYPE_STRING:
			d["v"] = v
			d["utf8_hex"] = hexs(v.to_utf8())
		TYPE_VECTOR2:
			d["f32"] = f32s([v.x, v.y])
		TYPE_RECT2:
			d["f32"] = f32s([v.position.x, v.position.y, v.size.x, v.size.y])
		TYPE_VECTOR3:
			d["f32"] = f32s([v.x, v.y, v.z])
		TYPE_TRANSFORM2D:
			d["f32"] = f32s([v.x.x, v.x.y, v.y.x, v.y.y, v.origin.x, v.origin.y])
			d["layout"] = "x.x x.y y.x y.y origin.x origin.y"
		TYPE_PLANE:
			d["f32"] = f32s([v.normal.x, v.normal.y, v.normal.z, v.d])
		TYPE_QUAT:
			d["f32"] = f32s([v.x, v.y, v.z, v.w])
		TYPE_AABB:
			d["f32"] = f32s([v.position.x, v.position.y, v.position.z, v.size.x, v.size.y, v.size.z])
		TYPE_BASIS:
			# Basis(x_axis, y_axis, z_axis) stores COLUMNS; elements[row][col].
			# row-major order elements[0][0], [0][1], [0][2], [1][0] ...
			d["f32"] = f32s([v.x.x, v.y.x, v.z.x, v.x.y, v.y.y, v.z.y, v.x.z, v.y.z, v.z.z])
			d["layout"] = "row-major: rows[0].x rows[0].y rows[0].z rows[1].x ... (rows[i] = (x.i, y.i, z.i))"
		TYPE_TRANSFORM:
			var b = v.basis
			d["f32"] = f32s([b.x.x, b.y.x, b.z.x, b.x.y, b.y.y, b.z.y, b.x.z, b.y.z, b.z.z, v.origin.x, v.origin.y, v.origin.z])
			d["layout"] = "basis row-major (9) then origin (3)"
		TYPE_COLOR:
			d["f32"] = f32s([v.r, v.g, v.b, v.a])
		TYPE_NODE_PATH:
			var names = []
			for i in range(v.get_name_count()):
				names.append(v.get_name(i))
			var subs = []
			for i in range(v.get_subname_count()):
				subs.append(v.get_subname(i))
			d["absolute"] = v.is_absolute()
			d["names"] = names
			d["subnames"] = subs
			d["text"] = str(v)
		TYPE_RID:
			d["id"] = v.get_id()
		TYPE_OBJECT:
			if v == null or not is_instance_valid(v):
				# a null or freed Object is encoded exactly like Nil
				d["t"] = "Nil"
				d["godot_type"] = "Object (null)"
			elif not full:
				d["as_id"] = true
				d["id"] = v.get_instance_id()
				d["class"] = v.get_class()
			else:
				d["class"] = v.get_class()
				var props = []
				for p in v.get_property_list():
					if p.usage & PROPERTY_USAGE_STORAGE:
						props.append([p.name, describe(v.get(p.name), full)])
				d["props"] = props
		TYPE_DICTIONARY:
			var entries = []
			for k in v.keys():
				entries.append([describe(k, full), describe(v[k], full)])
			d["entries"] = entries
		TYPE_ARRAY:
			var items = []
			for x in v:
				items.append(describe(x, full))
			d["items"] = items
		TYPE_RAW_ARRAY:
			d["len"] = v.size()
			d["hex"] = hexs(v)
		TYPE_INT_ARRAY:
			d["v"] = Array(v)
		TYPE_REAL_ARRAY:
			d["f32"] = f32s(v)
		TYPE_STRING_ARRAY:
			d["v"] = Array(v)
		TYPE_VECTOR2_ARRAY:
			var r = []
			for e in v:
				r.append(f32s([e.x, e.y]))
			d["f32"] = r
		TYPE_VECTOR3_ARRAY:
			var r = []
			for e in v:
				r.append(f32s([e.x, e.y, e.z]))
			d["f32"] = r
		TYPE_COLOR_ARRAY:
			var r = []
			for e in v:
				r.append(f32s([e.r, e.g, e.b, e.a]))
			d["f32"] = r
	return d


func unhex(h):
	var b = PoolByteArray()
	for i in range(0, h.length(), 2):
		b.append(("0x" + h.substr(i, 2)).hex_to_int())
	return b

func godot_decode(bytes, allow):
	var sp = StreamPeerBuffer.new()
	sp.put_u32(bytes.size())
	sp.put_data(bytes)
	sp.seek(0)
	var pps = PacketPeerStream.new()
	if bytes.size() + 4 > 60000:
		pps.input_buffer_max_size = bytes.size() + 16   # default ring buffer is 64 KiB
	pps.stream_peer = sp
	return pps.get_var(allow)

# nesting depth of containers (outermost = 1), computed without recursion
func nesting(v):
	var m = 0
	var stack = [[v, 1]]
	while stack.size() > 0:
		var e = stack.pop_back()
		var t = typeof(e[0])
		if t == TYPE_ARRAY:
			m = max(m, e[1])
			for y in e[0]:
				stack.append([y, e[1] + 1])
		elif t == TYPE_DICTIONARY:
			m = max(m, e[1])
			for k in e[0]:
				stack.append([k, e[1] + 1])
				stack.append([e[0][k], e[1] + 1])
	return m

# for deep values: walk single-element containers down to the innermost one
func summarize(v, depth):
	var path = ""
	var x = v
	while true:
		var t = typeof(x)
		if t == TYPE_ARRAY and x.size() == 1 and typeof(x[0]) in [TYPE_ARRAY, TYPE_DICTIONARY]:
			path += "A"
			x = x[0]
		elif t == TYPE_DICTIONARY and x.size() == 1 and typeof(x.keys()[0]) in [TYPE_ARRAY, TYPE_DICTIONARY]:
			path += "K"
			x = x.keys()[0]
		elif t == TYPE_DICTIONARY and x.size() == 1 and typeof(x.values()[0]) in [TYPE_ARRAY, TYPE_DICTIONARY]:
			path += "V"
			x = x.values()[0]
		else:
			break
	return {"t": TYPE_NAMES[typeof(v)], "summarized": true, "nesting_depth": depth,
		"path": path, "innermost": describe(x, true)}

func codepoints(s):
	var r = []
	for i in range(s.length()):
		r.append(s.ord_at(i))
	return r

func run_cases(path):
	var f = File.new()
	f.open(path, File.READ)
	while not f.eof_reached():
		var line = f.get_line()
		if line == "":
			continue
		var p = line.split("\t")
		var name = p[0]
		var bytes = unhex(p[1])
		var allow = p[2] == "1"
		printerr("DECODE_BEGIN " + name)
		var v = godot_decode(bytes, allow)
		printerr("DECODE_END " + name)
		var rec = {}
		rec["name"] = name
		rec["kind"] = "decode"
		rec["godot"] = version
		rec["call"] = "PacketPeer.get_var(allow_objects=%s) on these bytes" % ("true" if allow else "false")
		rec["input_hex"] = p[1]
		rec["allow_objects"] = allow
		rec["result_type"] = TYPE_NAMES[typeof(v)]
		var depth = nesting(v)
		if p.size() > 4 and p[4] == "keep":
			# class-list run: only the class of the decoded object
			rec["result"] = {"t": TYPE_NAMES[typeof(v)]}
			if typeof(v) == TYPE_OBJECT and v != null:
				rec["result"]["class"] = v.get_class()
		elif depth > MAX_INLINE_NESTING:
			rec["result_var2str"] = "(omitted: nesting depth %d)" % depth
			rec["result"] = summarize(v, depth)
		else:
			rec["result_var2str"] = var2str(v)
			rec["result"] = describe(v, true)
		if typeof(v) == TYPE_STRING:
			var cps = codepoints(v)
			rec["result_codepoints"] = cps
			for c in cps:
				if (c >= 0xD800 and c <= 0xDFFF) or c > 0x10FFFF:
					# not a Unicode scalar value: JSON cannot carry it, keep hex + code points only
					rec["result"]["v"] = null
					rec["result"]["v_unrepresentable"] = true
					rec["result_var2str"] = null
					break
		# free decoded non-refcounted objects, except in class-list runs (column 5 "keep")
		if typeof(v) == TYPE_OBJECT and v != null and not (v is Reference) and not (p.size() > 4 and p[4] == "keep"):
			v.free()
		rec["note"] = p[3]
		printerr("REC\t" + JSON.print(rec))
	f.close()

func run_sweep(path):
	var f = File.new()
	f.open(path, File.READ)
	while not f.eof_reached():
		var h = f.get_line()
		if h == "":
			continue
		var v = godot_decode(unhex(h), false)
		if typeof(v) == TYPE_STRING:
			var cps = PoolStringArray()
			for c in codepoints(v):
				cps.append("%x" % c)
			printerr("SW\t%s\t1\t%d\t%s" % [h, v.length(), cps.join(",")])
		else:
			printerr("SW\t%s\t0" % h)
	f.close()

func _init():
	version = Engine.get_version_info().string
	var mode = OS.get_environment("PROBE_MODE")
	if mode == "cases":
		run_cases(OS.get_environment("PROBE_IN"))
	elif mode == "sweep":
		run_sweep(OS.get_environment("PROBE_IN"))
	elif mode == "classes":
		for c in ClassDB.get_class_list():
			printerr("CLASSINFO\t%s\t%d" % [c, 1 if ClassDB.can_instance(c) else 0])
	printerr("PROBE_DONE")
	quit()
