# probe.gd: Godot 4's text of values it decodes. Run by ../engines.py as the main scene of the
# web engine, not by hand. res://cases.txt holds "name<TAB>base64 of the bytes" lines; for each
# case this decodes the bytes (bytes_to_var, objects not allowed), then prints one line
#   REC<TAB>name<TAB>hex of var_to_bytes<TAB>hex of var_to_str's UTF-8<TAB>hex of the text of the re-decoded var_to_bytes, or "" when it is the same
# Engine error lines printed while a case runs fall between "BEGIN<TAB>name" (stderr) and its REC.
extends Node

func _ready():
	var lines = FileAccess.get_file_as_string("res://cases.txt").split("\n", false)
	var count = 0
	for line in lines:
		var parts = line.split("\t")
		var name = parts[0]
		printerr("BEGIN\t" + name)
		var v = bytes_to_var(Marshalls.base64_to_raw(parts[1]))
		var bytes = var_to_bytes(v)
		var text = var_to_str(v)
		var again = var_to_str(bytes_to_var(bytes))
		var differs = ""
		if again != text:
			differs = again.to_utf8_buffer().hex_encode()
		print("REC\t%s\t%s\t%s\t%s" % [name, bytes.hex_encode(), text.to_utf8_buffer().hex_encode(), differs])
		count += 1
	print("PROBE_DONE\t%d\t%s" % [count, Engine.get_version_info().string])
	get_tree().quit(0)
