# probe.gd: Godot 4's text of values it decodes. Run by ../runner.py as the main scene of the
# web engine, not by hand. res://cases.txt holds "name<TAB>base64 of the bytes" lines; for each
# case this decodes the bytes (bytes_to_var, objects not allowed), then prints one line
#   REC<TAB>name<TAB>hex of var_to_bytes<TAB>hex of var_to_str's UTF-8<TAB>hex of the text of the re-decoded var_to_bytes, or "" when it is the same
# A line "name<TAB>*recipe" has the value built here instead (full objects, see build()); it is
# encoded and decoded with objects allowed, and its REC line has a sixth field, the hex of the
# bytes that were decoded.
# Engine error lines printed while a case runs fall between "BEGIN<TAB>name" (stderr) and its REC.
extends Node

func scripted(health):
	var o = RefCounted.new()
	o.set_script(load("res://scripted.gd"))
	o.health = health
	return o

func build(recipe):
	match recipe:
		"scripted_refcounted":
			return scripted(42)
		"scripted_defaults":
			return scripted(100)
		"scripted_in_array":
			return [1, scripted(7), "x"]
		"scripted_in_dictionary":
			return {"a": scripted(1), "b": [scripted(2)]}
		"scripted_typed_array":
			var a = Array([], TYPE_OBJECT, "RefCounted", load("res://scripted.gd"))
			a.append(scripted(3))
			return a
		"scripted_typed_dictionary":
			var d = Dictionary({}, TYPE_STRING, "", null, TYPE_OBJECT, "RefCounted", load("res://scripted.gd"))
			d["k"] = scripted(4)
			return d
		"scripted_resource":
			var r = Resource.new()
			r.set_script(load("res://scripted_resource.gd"))
			r.count = 5
			return r
		"refcounted":
			return RefCounted.new()
	return null

func _ready():
	var lines = FileAccess.get_file_as_string("res://cases.txt").split("\n", false)
	var count = 0
	for line in lines:
		var parts = line.split("\t")
		var name = parts[0]
		printerr("BEGIN\t" + name)
		var objects = parts[1].begins_with("*")
		var input
		if objects:
			input = var_to_bytes_with_objects(build(parts[1].substr(1)))
		else:
			input = Marshalls.base64_to_raw(parts[1])
		var v = bytes_to_var_with_objects(input) if objects else bytes_to_var(input)
		var bytes = var_to_bytes_with_objects(v) if objects else var_to_bytes(v)
		var text = var_to_str(v)
		var again = var_to_str(bytes_to_var_with_objects(bytes) if objects else bytes_to_var(bytes))
		var differs = ""
		if again != text:
			differs = again.to_utf8_buffer().hex_encode()
		var line_out = "REC\t%s\t%s\t%s\t%s" % [name, bytes.hex_encode(), text.to_utf8_buffer().hex_encode(), differs]
		if objects:
			line_out += "\t" + input.hex_encode()
		print(line_out)
		count += 1
	print("PROBE_DONE\t%d\t%s" % [count, Engine.get_version_info().string])
	get_tree().quit(0)
