# probe3.gd: decodes each case of cases.py with Godot 3's decoder (PacketPeerStream over a
# StreamPeerBuffer, get_var(allow_objects), as ../probe3.gd does) and prints one
# "REC<TAB>{json}" line per case (stderr): the verdict, what the game sees (code points of every
# string, dictionary size and lookups), var2str (as UTF-8 hex) and var2bytes (hex).
# Run by run.sh; PROBE_IN = the output of cases.py.
extends SceneTree

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

func codepoints(s):
	var r = []
	for i in range(s.length()):
		r.append(s.ord_at(i))
	return r

# What a program sees of a value: strings as code points, containers opened.
func seen(v):
	match typeof(v):
		TYPE_STRING:
			return {"String": codepoints(v)}
		TYPE_INT:
			return v
		TYPE_ARRAY:
			var items = []
			for x in v:
				items.append(seen(x))
			return {"Array": items}
		TYPE_DICTIONARY:
			var entries = []
			for k in v.keys():
				entries.append([seen(k), seen(v[k])])
			return {"Dictionary": entries}
		TYPE_NODE_PATH:
			var names = []
			for i in range(v.get_name_count()):
				names.append(codepoints(v.get_name(i)))
			var subs = []
			for i in range(v.get_subname_count()):
				subs.append(codepoints(v.get_subname(i)))
			return {"NodePath": {"names": names, "subnames": subs}}
		TYPE_STRING_ARRAY:
			var items = []
			for x in v:
				items.append(codepoints(x))
			return {"PoolStringArray": items}
		TYPE_OBJECT:
			if v == null:
				return {"Object": null}
			var d = {"class": v.get_class()}
			if v is Resource:
				d["resource_name"] = codepoints(v.resource_name)
			return {"Object": d}
	return {"other": typeof(v)}

func _init():
	var f = File.new()
	f.open(OS.get_environment("PROBE_IN"), File.READ)
	while not f.eof_reached():
		var line = f.get_line()
		if line == "":
			continue
		var p = line.split("\t")
		var bytes = unhex(p[1])
		var allow = p[2] == "1"
		var sp = StreamPeerBuffer.new()
		sp.put_u32(bytes.size())
		sp.put_data(bytes)
		sp.seek(0)
		var pps = PacketPeerStream.new()
		pps.stream_peer = sp
		var v = pps.get_var(allow)
		var rec = {"name": p[0], "input_hex": p[1], "allow_objects": allow, "note": p[3]}
		rec["godot"] = Engine.get_version_info().string
		rec["accepted"] = pps.get_packet_error() == OK
		if rec["accepted"]:
			rec["seen"] = seen(v)
			rec["var2str_utf8_hex"] = hexs(var2str(v).to_utf8())
			rec["var2bytes_hex"] = hexs(var2bytes(v, allow))
			if typeof(v) == TYPE_DICTIONARY:
				rec["size"] = v.size()
				rec["has_type"] = v.has("type")
				rec["get_type"] = v.get("type")
		printerr("REC\t" + JSON.print(rec))
		if typeof(v) == TYPE_OBJECT and v != null and not (v is Reference):
			v.free()
	f.close()
	printerr("PROBE_DONE")
	quit()
