# Godot 3 probe: decode crafted Dictionary bytes with possibly-equal keys.
# Run: PROBE_CASES=/abs/cases.json godot3-server --no-window -s probe3.gd
# Prints REC<TAB>{json} per case (stdout); DECODE_BEGIN/END markers on stderr
# bracket each decode so the driver can attach the engine's error lines.
extends SceneTree

const TYPE_NAMES = ["Nil", "bool", "int", "float", "String", "Vector2", "Rect2",
	"Vector3", "Transform2D", "Plane", "Quat", "AABB", "Basis", "Transform",
	"Color", "NodePath", "RID", "Object", "Dictionary", "Array", "PoolByteArray",
	"PoolIntArray", "PoolRealArray", "PoolStringArray", "PoolVector2Array",
	"PoolVector3Array", "PoolColorArray"]

var spb = StreamPeerBuffer.new()
var version = ""

func hexs(b):
	var s = ""
	for x in b:
		s += "%02x" % x
	return s

func unhex(h):
	var b = PoolByteArray()
	for i in range(0, h.length(), 2):
		b.append(("0x" + h.substr(i, 2)).hex_to_int())
	return b

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

# Same shape as tools/godot3-corpus/gen.gd describe() (types used here only),
# except that dictionary entries pair keys()[i] with values()[i] instead of
# looking v[k] up again (a lookup could hide what is stored).
func describe(v):
	var t = typeof(v)
	var d = {"t": TYPE_NAMES[t]}
	match t:
		TYPE_BOOL, TYPE_INT:
			d["v"] = v
		TYPE_REAL:
			d["f64"] = f64hex(v)
			d["approx"] = var2str(v)
		TYPE_STRING:
			d["v"] = v
			d["utf8_hex"] = hexs(v.to_utf8())
		TYPE_VECTOR2:
			d["f32"] = [f32hex(v.x), f32hex(v.y)]
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
		TYPE_OBJECT:
			if v == null or not is_instance_valid(v):
				d["t"] = "Nil"
				d["godot_type"] = "Object (null)"
			else:
				d["class"] = v.get_class()
				var props = []
				for p in v.get_property_list():
					if p.usage & PROPERTY_USAGE_STORAGE:
						props.append([p.name, describe(v.get(p.name))])
				d["props"] = props
		TYPE_DICTIONARY:
			var entries = []
			var ks = v.keys()
			var vs = v.values()
			for i in range(ks.size()):
				entries.append([describe(ks[i]), describe(vs[i])])
			d["entries"] = entries
		TYPE_ARRAY:
			var items = []
			for x in v:
				items.append(describe(x))
			d["items"] = items
	return d

func emit(rec):
	print("REC\t" + JSON.print(rec))

func decode_case(c):
	var bytes = unhex(c["input_hex"])
	printerr("DECODE_BEGIN " + c["name"])
	var sp = StreamPeerBuffer.new()
	sp.put_u32(bytes.size())
	sp.put_data(bytes)
	sp.seek(0)
	var pps = PacketPeerStream.new()
	pps.stream_peer = sp
	var v = pps.get_var(false)
	printerr("DECODE_END " + c["name"])
	var rec = {"name": c["name"], "godot": version,
		"call": "PacketPeer.get_var(allow_objects=false) on these bytes",
		"input_hex": hexs(bytes), "allow_objects": false,
		"result_type": TYPE_NAMES[typeof(v)], "result_var2str": var2str(v),
		"result": describe(v), "note": c["note"]}
	if typeof(v) == TYPE_DICTIONARY:
		rec["size"] = v.size()
		var found = []
		var types = []
		for k in v.keys():
			found.append(v.has(k))
			types.append(TYPE_NAMES[typeof(k)])
		rec["key_types"] = types
		rec["has_each_key"] = found
	emit(rec)

func look(name, code, value):
	emit({"name": name, "godot": version, "kind": "lookup", "code": code, "value": value})

func keys_desc(d):
	var r = []
	var ks = d.keys()
	var vs = d.values()
	for i in range(ks.size()):
		r.append([describe(ks[i]), describe(vs[i])])
	return r

# Lookups on dictionaries built in GDScript (no decoding involved).
func lookups():
	var d = {}
	d[1.0] = "f"
	look("lookup_floatkey_has_int", "d={}; d[1.0]='f'; d.has(1)", d.has(1))
	look("lookup_floatkey_get_int", "d={}; d[1.0]='f'; d.get(1, 'MISSING')", d.get(1, "MISSING"))
	look("lookup_floatkey_in_int", "d={}; d[1.0]='f'; 1 in d", 1 in d)
	d = {}
	d[1] = "i"
	look("lookup_intkey_has_float", "d={}; d[1]='i'; d.has(1.0)", d.has(1.0))
	look("lookup_intkey_get_float", "d={}; d[1]='i'; d.get(1.0, 'MISSING')", d.get(1.0, "MISSING"))
	d = {}
	d[1] = "i"
	d[1.0] = "f"
	look("lookup_set_int_then_float", "d={}; d[1]='i'; d[1.0]='f'; entries", keys_desc(d))
	d = {}
	d[1] = "i"
	d[true] = "b"
	look("lookup_set_int_then_true", "d={}; d[1]='i'; d[true]='b'; entries", keys_desc(d))
	d = {}
	d[0.0] = "z"
	look("lookup_zero_has_negzero", "d={}; d[0.0]='z'; d.has(-0.0)", d.has(-0.0))
	d[-0.0] = "n"
	look("lookup_set_zero_then_negzero", "d={}; d[0.0]='z'; d[-0.0]='n'; entries", keys_desc(d))
	d = {}
	d[NAN] = "n"
	look("lookup_nan_has_nan", "d={}; d[NAN]='n'; d.has(NAN)", d.has(NAN))
	d[NAN] = "m"
	look("lookup_set_nan_twice", "d={}; d[NAN]='n'; d[NAN]='m'; entries", keys_desc(d))
	d = {}
	d[[1]] = "a"
	d[[1]] = "b"
	look("lookup_set_array_twice", "d={}; d[[1]]='a'; d[[1]]='b'; entries", keys_desc(d))
	d = {}
	d[{}] = "a"
	d[{}] = "b"
	look("lookup_set_emptydict_twice", "d={}; d[{}]='a'; d[{}]='b'; entries", keys_desc(d))
	look("lookup_emptydict_has_emptydict", "d={}; d[{}]='a'; d.has({})", d.has({}))
	d = {}
	d[NodePath("a")] = "p"
	look("lookup_nodepath_has_string", "d={}; d[NodePath('a')]='p'; d.has('a')", d.has("a"))
	look("lookup_nodepath_has_nodepath", "d={}; d[NodePath('a')]='p'; d.has(NodePath('a'))", d.has(NodePath("a")))
	d = {}
	d["a"] = 1
	d["x"] = 2
	d["a"] = 3
	look("lookup_reassign_keeps_position", "d={}; d['a']=1; d['x']=2; d['a']=3; entries", keys_desc(d))
	look("lookup_dict_eq_same_content", "{'a':1} == {'a':1}", {"a": 1} == {"a": 1})
	look("lookup_array_eq_int_float", "[1] == [1.0]", [1] == [1.0])

func _init():
	version = Engine.get_version_info().string
	var f = File.new()
	if f.open(OS.get_environment("PROBE_CASES"), File.READ) != OK:
		printerr("PROBE_FAILED cannot read PROBE_CASES")
		quit()
		return
	var cases = JSON.parse(f.get_as_text()).result
	f.close()
	for c in cases:
		decode_case(c)
	lookups()
	print("PROBE_DONE cases=%d version=%s" % [cases.size(), version])
	quit()
