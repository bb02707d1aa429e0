# Godot 4 probe: decode crafted Dictionary bytes with possibly-equal keys.
# Reads res://cases.json (written into the pack by ../run.py). Prints
# REC<TAB>{json} per case; DECODE_BEGIN/END on stderr bracket each decode so
# the driver can attach the engine's error lines to it.
extends Node

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

# Same shape as tools/godot4-corpus/project/gen.gd describe() (types used
# here only), except that dictionary entries pair keys()[i] with values()[i]
# instead of looking v[k] up again.
func describe(v):
	var t = typeof(v)
	var d = {"t": type_string(t)}
	match t:
		TYPE_BOOL, TYPE_INT:
			d["v"] = v
		TYPE_FLOAT:
			d["f64"] = f64hex(v)
			d["approx"] = var_to_str(v)
		TYPE_STRING, TYPE_STRING_NAME:
			d["v"] = String(v)
			d["utf8_hex"] = String(v).to_utf8_buffer().hex_encode()
		TYPE_VECTOR2:
			d["f32"] = [f32hex(v.x), f32hex(v.y)]
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
			if v.is_typed():
				d["key_type"] = type_string(v.get_typed_key_builtin())
				d["key_class"] = String(v.get_typed_key_class_name())
				d["value_type"] = type_string(v.get_typed_value_builtin())
				d["value_class"] = String(v.get_typed_value_class_name())
		TYPE_ARRAY:
			var items = []
			for x in v:
				items.append(describe(x))
			d["items"] = items
	return d

func emit(rec):
	print("REC\t" + JSON.stringify(rec, "", false))

func decode_case(c):
	var bytes = String(c["input_hex"]).hex_decode()
	printerr("DECODE_BEGIN " + c["name"])
	var sp = StreamPeerBuffer.new()
	sp.put_u32(bytes.size())
	sp.put_data(bytes)
	sp.seek(0)
	var pps = PacketPeerStream.new()
	pps.stream_peer = sp
	var v = pps.get_var(false)
	var perr = pps.get_packet_error()
	printerr("DECODE_END " + c["name"])
	var rec = {"name": c["name"], "godot": version,
		"call": "PacketPeer.get_var(allow_objects=false)",
		"input_hex": bytes.hex_encode(), "allow_objects": false, "packet_error": perr,
		"result_type": type_string(typeof(v)), "result_var_to_str": var_to_str(v),
		"result": describe(v), "note": c["note"]}
	if typeof(v) == TYPE_DICTIONARY:
		rec["size"] = v.size()
		var found = []
		var types = []
		for k in v.keys():
			found.append(v.has(k))
			types.append(type_string(typeof(k)))
		rec["key_types"] = types
		rec["has_each_key"] = found
	emit(rec)

func look(name, code, value):
	emit({"name": name, "godot": version, "kind": "lookup", "code": code, "value": value})

func entries(d):
	var r = []
	var ks = d.keys()
	var vs = d.values()
	for i in range(ks.size()):
		r.append([describe(ks[i]), describe(vs[i])])
	return r

# Lookups on dictionaries built in GDScript (no decoding involved).
func lookups():
	var d = {}
	d[&"a"] = 1
	look("lookup_snamekey_has_string", "d={}; d[&'a']=1; d.has('a')", d.has("a"))
	look("lookup_snamekey_get_string", "d={}; d[&'a']=1; d.get('a', 'MISSING')", d.get("a", "MISSING"))
	look("lookup_snamekey_stored", "d={}; d[&'a']=1; entries", entries(d))
	d = {}
	d["a"] = 1
	look("lookup_strkey_has_sname", "d={}; d['a']=1; d.has(&'a')", d.has(&"a"))
	look("lookup_strkey_get_sname", "d={}; d['a']=1; d.get(&'a', 'MISSING')", d.get(&"a", "MISSING"))
	d[&"a"] = 2
	look("lookup_set_str_then_sname", "d={}; d['a']=1; d[&'a']=2; entries", entries(d))
	d = {}
	d[&"a"] = 1
	d["a"] = 2
	look("lookup_set_sname_then_str", "d={}; d[&'a']=1; d['a']=2; entries", entries(d))
	d = {}
	d[1.0] = "f"
	look("lookup_floatkey_has_int", "d={}; d[1.0]='f'; d.has(1)", d.has(1))
	look("lookup_floatkey_get_int", "d={}; d[1.0]='f'; d.get(1, 'MISSING')", d.get(1, "MISSING"))
	look("lookup_floatkey_in_int", "d={}; d[1.0]='f'; 1 in d", 1 in d)
	d = {}
	d[1] = "i"
	look("lookup_intkey_has_float", "d={}; d[1]='i'; d.has(1.0)", d.has(1.0))
	look("lookup_intkey_get_float", "d={}; d[1]='i'; d.get(1.0, 'MISSING')", d.get(1.0, "MISSING"))
	d[1.0] = "f"
	look("lookup_set_int_then_float", "d={}; d[1]='i'; d[1.0]='f'; entries", entries(d))
	d = {}
	d[1] = "i"
	d[true] = "b"
	look("lookup_set_int_then_true", "d={}; d[1]='i'; d[true]='b'; entries", entries(d))
	d = {}
	d[0.0] = "z"
	look("lookup_zero_has_negzero", "d={}; d[0.0]='z'; d.has(-0.0)", d.has(-0.0))
	d[-0.0] = "n"
	look("lookup_set_zero_then_negzero", "d={}; d[0.0]='z'; d[-0.0]='n'; entries", entries(d))
	d = {}
	d[NAN] = "n"
	look("lookup_nan_has_nan", "d={}; d[NAN]='n'; d.has(NAN)", d.has(NAN))
	d[NAN] = "m"
	look("lookup_set_nan_twice", "d={}; d[NAN]='n'; d[NAN]='m'; entries", entries(d))
	d = {}
	d[[1]] = "a"
	d[[1]] = "b"
	look("lookup_set_array_twice", "d={}; d[[1]]='a'; d[[1]]='b'; entries", entries(d))
	d = {}
	d[{}] = "a"
	d[{}] = "b"
	look("lookup_set_emptydict_twice", "d={}; d[{}]='a'; d[{}]='b'; entries", entries(d))
	look("lookup_emptydict_has_emptydict", "d={}; d[{}]='a'; d.has({})", d.has({}))
	d = {}
	d[NodePath("a")] = "p"
	look("lookup_nodepath_has_string", "d={}; d[NodePath('a')]='p'; d.has('a')", d.has("a"))
	look("lookup_nodepath_has_sname", "d={}; d[NodePath('a')]='p'; d.has(&'a')", d.has(&"a"))
	look("lookup_nodepath_has_nodepath", "d={}; d[NodePath('a')]='p'; d.has(NodePath('a'))", d.has(NodePath("a")))
	d = {}
	d["a"] = 1
	d["x"] = 2
	d["a"] = 3
	look("lookup_reassign_keeps_position", "d={}; d['a']=1; d['x']=2; d['a']=3; entries", entries(d))
	look("lookup_dict_eq_same_content", "{'a':1} == {'a':1}", {"a": 1} == {"a": 1})
	look("lookup_array_eq_int_float", "[1] == [1.0]", [1] == [1.0])
	look("lookup_string_eq_sname", "'a' == &'a'", "a" == &"a")

# Separate functions: a runtime error would only abort the function it is in.
func lookups_risky_index():
	var d = {}
	d[&"a"] = 1
	look("lookup_snamekey_index_string", "d={}; d[&'a']=1; d['a']", d["a"])

func lookups_risky_typed():
	var td: Dictionary[String, int] = {}
	td["a"] = 1
	look("lookup_typed_si_has_sname", "var td: Dictionary[String,int]; td['a']=1; td.has(&'a')", td.has(&"a"))
	td[&"b"] = 2
	look("lookup_typed_si_set_sname", "td[&'b']=2 on Dictionary[String,int]; entries", entries(td))

func _ready():
	version = Engine.get_version_info().string
	var text = FileAccess.get_file_as_string("res://cases.json")
	var cases = JSON.parse_string(text)
	if cases == null:
		printerr("PROBE_FAILED cannot read res://cases.json")
		get_tree().quit(2)
		return
	for c in cases:
		decode_case(c)
	lookups()
	lookups_risky_index()
	lookups_risky_typed()
	print("PROBE_DONE cases=%d version=%s" % [cases.size(), version])
	get_tree().quit(0)
