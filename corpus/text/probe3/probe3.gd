# probe3.gd: Godot 3's text of values it decodes. Run by ../runner.py (godot3-server -s, with
# this folder's scripts copied to res://), not by hand. TEXT_CASES names a file of
# "name<TAB>base64 of the bytes" lines; for each case this decodes the bytes (bytes2var, objects
# not allowed), then prints one line
#   REC<TAB>name<TAB>hex of var2bytes<TAB>hex of var2str's UTF-8<TAB>hex of the text of the re-decoded var2bytes, or "" when it is the same
# A line "name<TAB>*recipe" has the value built here instead (full objects, see build()); it is
# encoded and decoded with objects allowed, and its REC line has a sixth field, the hex of the
# bytes that were decoded.
# Engine error lines printed while a case runs fall between "BEGIN<TAB>name" (stderr) and its REC.
extends SceneTree

func scripted(health):
	var o = Reference.new()
	o.set_script(load("res://scripted.gd"))
	o.health = health
	return o

func build(recipe):
	match recipe:
		"scripted_reference":
			return scripted(42)
		"scripted_defaults":
			return scripted(100)
		"scripted_in_array":
			return [1, scripted(7), "x"]
		"scripted_in_dictionary":
			return {"a": scripted(1), "b": [scripted(2)]}
		"scripted_resource":
			var r = Resource.new()
			r.set_script(load("res://scripted_resource.gd"))
			r.count = 5
			return r
		"reference":
			return Reference.new()
	return null

func _init():
	var f = File.new()
	if f.open(OS.get_environment("TEXT_CASES"), File.READ) != OK:
		printerr("PROBE_FAILED cannot read TEXT_CASES")
		quit()
		return
	var count = 0
	while not f.eof_reached():
		var line = f.get_line()
		if line == "":
			continue
		var parts = line.split("\t")
		var name = parts[0]
		printerr("BEGIN\t" + name)
		var objects = parts[1].begins_with("*")
		var input
		if objects:
			input = var2bytes(build(parts[1].substr(1)), true)
		else:
			input = Marshalls.base64_to_raw(parts[1])
		var v = bytes2var(input, objects)
		var bytes = var2bytes(v, objects)
		var text = var2str(v)
		var again = var2str(bytes2var(bytes, objects))
		var differs = ""
		if again != text:
			differs = again.to_utf8().hex_encode()
		var line_out = "REC\t%s\t%s\t%s\t%s" % [name, bytes.hex_encode(), text.to_utf8().hex_encode(), differs]
		if objects:
			line_out += "\t" + input.hex_encode()
		print(line_out)
		count += 1
	f.close()
	print("PROBE_DONE\t%d\t%s" % [count, Engine.get_version_info().string])
	quit()
