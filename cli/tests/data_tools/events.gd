# events.gd: writes a dump of event dictionaries with Godot 3.2.3's own File.store_var, splices
# in frames Godot refuses, then reads the dump back with Godot's own File.get_var loop and
# prints the aggregates it computes, for cli/tests/data_tools (the same aggregates computed by
# DuckDB over `gdvariant export`'s Parquet and CSV must match). Run as
#   godot3-server --no-window -s events.gd
# with EVENTS_OUT (the dump's path) and EVENTS_COUNT (how many events). Prints one line
# "RESULT ok <json>" or "RESULT fail <why>".
extends SceneTree

const KINDS = ["move", "attack", "chat", "trade"]

func event(i):
	var e = {
		"id": i,
		"kind": KINDS[i % KINDS.size()],
		"hp": 100 - (i * 7) % 101,
		"score": i * 0.1 if i % 3 else i,  # floats, and ints now and then
		"pos": Vector2(i % 50 * 0.5, -(i % 7)),
		"tags": [],
		"meta": {"zone": i % 9, "label": "zone-" + str(i % 9)},
	}
	for t in range(i % 4):
		e["tags"].append("t" + str(t))
	if i % 5 == 0:
		e["note"] = "note \"%d\", with a comma\nand a line break" % i
	if i % 11 == 0:
		e["extra"] = i if i % 2 else "text"  # mixed types: a JSON column
	return e

# Frames Godot refuses: an unknown type, a string longer than its frame, a dictionary that
# claims more entries than it holds.
func bad_frames():
	var unknown = PoolByteArray([99, 0, 0, 0])
	var long_string = PoolByteArray([4, 0, 0, 0, 232, 3, 0, 0, 65, 66, 67, 68])
	var short_dict = PoolByteArray([18, 0, 0, 0, 5, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0])
	return [unknown, long_string, short_dict]

func _init():
	var path = OS.get_environment("EVENTS_OUT")
	var count = int(OS.get_environment("EVENTS_COUNT"))
	var f = File.new()
	if f.open(path, File.WRITE) != OK:
		print("RESULT fail cannot write ", path)
		quit(1)
		return
	var bad = bad_frames()
	for i in range(count):
		f.store_var(event(i))
		if i % (count / 3 + 1) == 7:
			var frame = bad[(i / (count / 3 + 1)) % bad.size()]
			f.store_32(frame.size())
			f.store_buffer(frame)
	f.close()

	# Godot's own reading: get_var returns null for a frame it refuses, and goes on.
	f.open(path, File.READ)
	var kinds = {}
	var n = 0
	var refused = 0
	var hp = 0
	var score = 0.0
	var pos_x = 0.0
	var zone = 0
	var tags = 0
	var notes = 0
	var extras = 0
	while f.get_position() < f.get_len():
		var v = f.get_var()
		if v == null:
			refused += 1
			continue
		n += 1
		kinds[v["kind"]] = kinds.get(v["kind"], 0) + 1
		hp += v["hp"]
		score += float(v["score"])
		pos_x += v["pos"].x
		zone += v["meta"]["zone"]
		tags += v["tags"].size()
		if v.has("note"):
			notes += 1
		if v.has("extra"):
			extras += 1
	f.close()
	var result = {"events": n, "refused": refused, "kinds": kinds, "hp": hp, "score": score,
		"pos_x": pos_x, "zone": zone, "tags": tags, "notes": notes, "extras": extras}
	print("RESULT ok ", to_json(result))
	quit(0)
