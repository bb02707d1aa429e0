# probe3.gd: what Godot 3 prints for values that var2str may leave empty. Run by ../display.py
# (godot3-server -s), not by hand. CASES names a file of "name<TAB>hex of the bytes" lines; for
# each, this decodes the bytes (bytes2var, objects not allowed) and prints
#   REC<TAB>name<TAB>type id<TAB>hex of var2str's UTF-8<TAB>hex of str()'s UTF-8
extends SceneTree

func hexs(s):
	return s.to_utf8().hex_encode()

func _init():
	var f = File.new()
	if f.open(OS.get_environment("CASES"), File.READ) != OK:
		printerr("PROBE_FAILED cannot read CASES")
		quit(1)
		return
	var lines = f.get_as_text().split("\n", false)
	f.close()
	for line in lines:
		var parts = line.split("\t")
		var bytes = PoolByteArray()
		var h = parts[1]
		for i in range(0, h.length(), 2):
			bytes.append(("0x" + h.substr(i, 2)).hex_to_int())
		var v = bytes2var(bytes)
		print("REC\t%s\t%d\t%s\t%s" % [parts[0], typeof(v), hexs(var2str(v)), hexs(str(v))])
	print("PROBE_DONE")
	quit(0)
