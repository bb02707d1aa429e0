# Godot 3 identity probe: decode each input with bytes2var, print its size (before and after),
# var2str text and var2bytes re-encoding (base64).
# Run: PROBE_CASES=/abs/cases.json godot3-server --no-window -s identity3.gd
# Prints REC<TAB>{json} per case; DECODE_BEGIN/END on stderr bracket each
# decode so the driver can attach the engine's error lines to it.
extends SceneTree

func _init():
	var version = Engine.get_version_info().string
	var f = File.new()
	if f.open(OS.get_environment("PROBE_CASES"), File.READ) != OK:
		printerr("PROBE_FAILED cannot read PROBE_CASES")
		quit()
		return
	var cases = JSON.parse(f.get_as_text()).result
	f.close()
	for c in cases:
		var bytes = Marshalls.base64_to_raw(c["b64"])
		printerr("DECODE_BEGIN " + c["name"])
		var v = bytes2var(bytes, false)
		printerr("DECODE_END " + c["name"])
		# The size first: Godot 3 adds an entry while printing or encoding a dictionary
		# holding a key its lookup does not find, so the text and the re-encoding are
		# made from two decodes.
		var rec = {"name": c["name"], "type": typeof(v)}
		if typeof(v) == TYPE_DICTIONARY:
			rec["size"] = v.size()
		rec["text"] = var2str(v)
		if typeof(v) == TYPE_DICTIONARY:
			rec["size_after"] = v.size()
		var w = bytes2var(bytes, false)
		rec["reencoded_b64"] = Marshalls.raw_to_base64(var2bytes(w, false))
		print("REC\t" + JSON.print(rec))
	print("PROBE_DONE cases=%d version=%s" % [cases.size(), version])
	quit()
