# probe3.gd: Godot 3's text of values it decodes. Run by engines.py (godot3-server -s), not by
# hand. TEXT_CASES names a file of "name<TAB>base64 of the bytes" lines; for each case this
# decodes the bytes (bytes2var, objects not allowed), then prints one line
#   REC<TAB>name<TAB>hex of var2bytes<TAB>hex of var2str's UTF-8<TAB>hex of the text of the re-decoded var2bytes, or "" when it is the same
# Engine error lines printed while a case runs fall between "BEGIN<TAB>name" (stderr) and its REC.
extends SceneTree

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
		var v = bytes2var(Marshalls.base64_to_raw(parts[1]), false)
		var bytes = var2bytes(v, false)
		var text = var2str(v)
		var again = var2str(bytes2var(bytes, false))
		var differs = ""
		if again != text:
			differs = again.to_utf8().hex_encode()
		print("REC\t%s\t%s\t%s\t%s" % [name, bytes.hex_encode(), text.to_utf8().hex_encode(), differs])
		count += 1
	f.close()
	print("PROBE_DONE\t%d\t%s" % [count, Engine.get_version_info().string])
	quit()
