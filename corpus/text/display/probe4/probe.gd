# probe.gd: what Godot 4 prints for values that var_to_str may leave empty. Run by ../display.py
# as the main scene of the web engine, not by hand. res://cases.txt holds "name<TAB>hex of the
# bytes" lines; for each, this decodes the bytes (bytes_to_var, objects not allowed) and prints
#   REC<TAB>name<TAB>type id<TAB>hex of var_to_str's UTF-8<TAB>hex of str()'s UTF-8
# The case "live_rid" prints a live RID (RenderingServer.canvas_create()) instead of bytes.
extends Node

func _ready():
	var lines = FileAccess.get_file_as_string("res://cases.txt").split("\n", false)
	for line in lines:
		var parts = line.split("\t")
		var v
		if parts[1] == "*live_rid":
			v = RenderingServer.canvas_create()
		else:
			v = bytes_to_var(parts[1].hex_decode())
		print("REC\t%s\t%d\t%s\t%s" % [parts[0], typeof(v), var_to_str(v).to_utf8_buffer().hex_encode(), str(v).to_utf8_buffer().hex_encode()])
	print("PROBE_DONE")
	get_tree().quit(0)
