# Godot 4 identity probe: decode each input with bytes_to_var, print its
# size (before and after), var_to_str text and var_to_bytes re-encoding (base64). Reads
# res://cases.json (written into the pack by engines.py). Prints
# REC<TAB>{json} per case; DECODE_BEGIN/END on stderr bracket each decode.
extends Node

func _ready():
	var version = Engine.get_version_info().string
	var cases = JSON.parse_string(FileAccess.get_file_as_string("res://cases.json"))
	if cases == null:
		printerr("PROBE_FAILED cannot read res://cases.json")
		get_tree().quit(2)
		return
	for c in cases:
		var bytes = Marshalls.base64_to_raw(c["b64"])
		printerr("DECODE_BEGIN " + c["name"])
		var v = bytes_to_var(bytes)
		printerr("DECODE_END " + c["name"])
		# The size first: Godot 3 adds an entry while printing or encoding a dictionary
		# holding a key its lookup does not find, so the text and the re-encoding are
		# made from two decodes.
		var rec = {"name": c["name"], "type": typeof(v)}
		if typeof(v) == TYPE_DICTIONARY:
			rec["size"] = v.size()
		rec["text"] = var_to_str(v)
		if typeof(v) == TYPE_DICTIONARY:
			rec["size_after"] = v.size()
		var w = bytes_to_var(bytes)
		rec["reencoded_b64"] = Marshalls.raw_to_base64(var_to_bytes(w))
		print("REC\t" + JSON.stringify(rec, "", false))
	print("PROBE_DONE cases=%d version=%s" % [cases.size(), version])
	get_tree().quit(0)
