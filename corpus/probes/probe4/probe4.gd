# probe4.gd: feeds crafted bytes to Godot 4's decoder, exactly as the corpus
# generator (tools/godot4-corpus/project/gen.gd, dcase) does: PacketPeerStream
# over a StreamPeerBuffer, get_var(allow_objects). Driven by ../run.py, which
# packs res://cases.txt and passes the mode after "--":
#   mode=cases    cases.txt = "name<TAB>hex<TAB>allow(0|1)<TAB>note" lines;
#                 DECODE_BEGIN/DECODE_END (stderr) around each decode, then
#                 one "REC<TAB>{json}" line.
#   mode=sweep    cases.txt = hex lines (STRING inputs); prints
#                 "SW<TAB>hex<TAB>1<TAB>length<TAB>code points" or "SW<TAB>hex<TAB>0".
#   mode=classes  prints "CLASSINFO<TAB>name<TAB>can_instantiate(0|1)".
#   mode=parents  prints "PARENT<TAB>name<TAB>parent class" for every class.
extends Node

const MAX_INLINE_NESTING = 50

var version = ""
var scratch = PackedByteArray()

func f32hex(x):
	scratch.resize(8)
	scratch.encode_float(0, x)
	return "%08x" % scratch.decode_u32(0)

func f64hex(x):
	scratch.resize(8)
	scratch.encode_double(0, x)
	return "%08x%08x" % [scratch.decode_u32(4), scratch.decode_u32(0)]

func f32s(arr):
	var r = []
	for x in arr:
		r.append(f32hex(x))
	return r

func tname(t):
	return type_string(t)

func describe(v, full):
	var t = typeof(v)
	var d = {"t": tname(t)}
	match t:
		TYPE_NIL:
			pass
		TYPE_BOOL, TYPE_INT:
			d["v"] = v
		TYPE_FLOAT:
			d["f64"] = f64hex(v)
			d["approx"] = var_to_str(v)
		TYPE_STRING, TYPE_STRING_NAME:
			d["v"] = String(v)
			d["utf8_hex"] = String(v).to_utf8_buffer().hex_encode()
		TYPE_VECTOR2:
			d["f32"] = f32s([v.x, v.y])
		TYPE_VECTOR2I:
			d["i32"] = [v.x, v.y]
		TYPE_RECT2:
			d["f32"] = f32s([v.position.x, v.position.y, v.size.x, v.size.y])
		TYPE_RECT2I:
			d["i32"] = [v.position.x, v.position.y, v.size.x, v.size.y]
		TYPE_VECTOR3:
			d["f32"] = f32s([v.x, v.y, v.z])
		TYPE_VECTOR3I:
			d["i32"] = [v.x, v.y, v.z]
		TYPE_TRANSFORM2D:
			d["f32"] = f32s([v.x.x, v.x.y, v.y.x, v.y.y, v.origin.x, v.origin.y])
			d["layout"] = "x.x x.y y.x y.y origin.x origin.y"
		TYPE_VECTOR4:
			d["f32"] = f32s([v.x, v.y, v.z, v.w])
		TYPE_VECTOR4I:
			d["i32"] = [v.x, v.y, v.z, v.w]
		TYPE_PLANE:
			d["f32"] = f32s([v.normal.x, v.normal.y, v.normal.z, v.d])
		TYPE_QUATERNION:
			d["f32"] = f32s([v.x, v.y, v.z, v.w])
		TYPE_AABB:
			d["f32"] = f32s([v.position.x, v.position.y, v.position.z, v.size.x, v.size.y, v.size.z])
		TYPE_BASIS:
			d["f32"] = f32s([v.x.x, v.y.x, v.z.x, v.x.y, v.y.y, v.z.y, v.x.z, v.y.z, v.z.z])
			d["layout"] = "row-major: rows[i] = (x.i, y.i, z.i) where x,y,z are the column axes"
		TYPE_TRANSFORM3D:
			var b = v.basis
			d["f32"] = f32s([b.x.x, b.y.x, b.z.x, b.x.y, b.y.y, b.z.y, b.x.z, b.y.z, b.z.z, v.origin.x, v.origin.y, v.origin.z])
			d["layout"] = "basis row-major (9) then origin (3)"
		TYPE_PROJECTION:
			d["f32"] = f32s([v.x.x, v.x.y, v.x.z, v.x.w, v.y.x, v.y.y, v.y.z, v.y.w, v.z.x, v.z.y, v.z.z, v.z.w, v.w.x, v.w.y, v.w.z, v.w.w])
			d["layout"] = "columns x, y, z, w, each (x, y, z, w)"
		TYPE_COLOR:
			d["f32"] = f32s([v.r, v.g, v.b, v.a])
		TYPE_NODE_PATH:
			var names = []
			for i in range(v.get_name_count()):
				names.append(String(v.get_name(i)))
			var subs = []
			for i in range(v.get_subname_count()):
				subs.append(String(v.get_subname(i)))
			d["absolute"] = v.is_absolute()
			d["names"] = names
			d["subnames"] = subs
			d["text"] = String(v)
		TYPE_RID:
			d["id"] = v.get_id()
		TYPE_OBJECT:
			if v == null or not is_instance_valid(v):
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
		TYPE_CALLABLE:
			d["text"] = str(v)  # nothing of a Callable is written on the wire
		TYPE_SIGNAL:
			d["name"] = String(v.get_name())
			d["object_id"] = v.get_object_id()
			d["text"] = str(v)
		TYPE_DICTIONARY:
			var entries = []
			for k in v.keys():
				entries.append([describe(k, full), describe(v[k], full)])
			d["entries"] = entries
			if v.is_typed():
				d["key_type"] = tname(v.get_typed_key_builtin())
				d["key_class"] = wire_class(String(v.get_typed_key_class_name()), full, d, "godot_key_class")
				d["value_type"] = tname(v.get_typed_value_builtin())
				d["value_class"] = wire_class(String(v.get_typed_value_class_name()), full, d, "godot_value_class")
		TYPE_ARRAY:
			var items = []
			for x in v:
				items.append(describe(x, full))
			d["items"] = items
			if v.is_typed():
				d["elem_type"] = tname(v.get_typed_builtin())
				d["elem_class"] = wire_class(String(v.get_typed_class_name()), full, d, "godot_elem_class")
		TYPE_PACKED_BYTE_ARRAY:
			d["len"] = v.size()
			d["hex"] = v.hex_encode()
		TYPE_PACKED_INT32_ARRAY, TYPE_PACKED_INT64_ARRAY:
			d["v"] = Array(v)
		TYPE_PACKED_FLOAT32_ARRAY:
			d["f32"] = f32s(v)
		TYPE_PACKED_FLOAT64_ARRAY:
			var r = []
			for x in v:
				r.append(f64hex(x))
			d["f64"] = r
		TYPE_PACKED_STRING_ARRAY:
			d["v"] = Array(v)
		TYPE_PACKED_VECTOR2_ARRAY:
			var r = []
			for e in v:
				r.append(f32s([e.x, e.y]))
			d["f32"] = r
		TYPE_PACKED_VECTOR3_ARRAY:
			var r = []
			for e in v:
				r.append(f32s([e.x, e.y, e.z]))
			d["f32"] = r
		TYPE_PACKED_COLOR_ARRAY:
			var r = []
			for e in v:
				r.append(f32s([e.r, e.g, e.b, e.a]))
			d["f32"] = r
		TYPE_PACKED_VECTOR4_ARRAY:
			var r = []
			for e in v:
				r.append(f32s([e.x, e.y, e.z, e.w]))
			d["f32"] = r
	return d

# Without full objects, Godot writes "EncodedObjectAsID" as the class of a
# class-typed container (objects inside are sent as IDs).
func wire_class(cls, full, d, info_key):
	if cls != "" and not full:
		d[info_key] = cls
		return "EncodedObjectAsID"
	return cls


func godot_decode(bytes, allow):
	var sp = StreamPeerBuffer.new()
	sp.put_u32(bytes.size())
	sp.put_data(bytes)
	sp.seek(0)
	var pps = PacketPeerStream.new()
	if bytes.size() + 4 > 60000:
		pps.input_buffer_max_size = bytes.size() + 16   # default ring buffer is 64 KiB
	pps.stream_peer = sp
	var v = pps.get_var(allow)
	return [v, pps.get_packet_error()]

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
	return {"t": tname(typeof(v)), "summarized": true, "nesting_depth": depth,
		"path": path, "innermost": describe(x, true)}

func codepoints(s):
	var r = []
	for i in range(s.length()):
		r.append(s.unicode_at(i))
	return r

func run_cases(text):
	for line in text.split("\n"):
		if line == "":
			continue
		var p = line.split("\t")
		var name = p[0]
		var bytes = p[1].hex_decode()
		var allow = p[2] == "1"
		printerr("DECODE_BEGIN " + name)
		var res = godot_decode(bytes, allow)
		printerr("DECODE_END " + name)
		var v = res[0]
		var rec = {"name": name, "kind": "decode", "godot": version,
			"call": "PacketPeer.get_var(allow_objects=%s)" % ("true" if allow else "false"),
			"input_hex": p[1], "allow_objects": allow, "packet_error": res[1],
			"result_type": tname(typeof(v))}
		var depth = nesting(v)
		if p.size() > 4 and p[4] == "keep":
			# class-list run: only the class of the decoded object
			rec["result"] = {"t": tname(typeof(v))}
			if typeof(v) == TYPE_OBJECT and v != null:
				rec["result"]["class"] = v.get_class()
		elif depth > MAX_INLINE_NESTING:
			rec["result_var_to_str"] = "(omitted: nesting depth %d)" % depth
			rec["result"] = summarize(v, depth)
		else:
			rec["result_var_to_str"] = var_to_str(v)
			rec["result"] = describe(v, true)
		if typeof(v) in [TYPE_ARRAY, TYPE_DICTIONARY]:
			rec["size"] = v.size()   # elements / pairs kept (typed containers may drop some)
		if typeof(v) in [TYPE_STRING, TYPE_STRING_NAME]:
			var cps = codepoints(String(v))
			rec["result_codepoints"] = cps
			for c in cps:
				if (c >= 0xD800 and c <= 0xDFFF) or c > 0x10FFFF:
					# not a Unicode scalar value: JSON cannot carry it, keep hex + code points only
					rec["result"]["v"] = null
					rec["result"]["v_unrepresentable"] = true
					rec["result_var_to_str"] = null
					break
		# free decoded non-refcounted objects, except in class-list runs (column 5 "keep")
		if typeof(v) == TYPE_OBJECT and v != null and not (v is RefCounted) and not (p.size() > 4 and p[4] == "keep"):
			v.free()
		rec["note"] = p[3]
		print("REC\t" + JSON.stringify(rec, "", false))

func run_sweep(text):
	for h in text.split("\n"):
		if h == "":
			continue
		var v = godot_decode(h.hex_decode(), false)[0]
		if typeof(v) == TYPE_STRING:
			var cps = PackedStringArray()
			for c in codepoints(v):
				cps.append("%x" % c)
			print("SW\t%s\t1\t%d\t%s" % [h, v.length(), ",".join(cps)])
		else:
			print("SW\t%s\t0" % h)

func _ready():
	version = Engine.get_version_info().string
	var mode = ""
	for a in OS.get_cmdline_user_args():
		if a.begins_with("mode="):
			mode = a.substr(5)
	var text = FileAccess.get_file_as_string("res://cases.txt")
	if mode == "cases":
		run_cases(text)
	elif mode == "sweep":
		run_sweep(text)
	elif mode == "classes":
		for c in ClassDB.get_class_list():
			print("CLASSINFO\t%s\t%d" % [c, 1 if ClassDB.can_instantiate(c) else 0])
	elif mode == "parents":
		for c in ClassDB.get_class_list():
			print("PARENT\t%s\t%s" % [c, ClassDB.get_parent_class(c)])
	print("PROBE_DONE")
	get_tree().quit(0)
