# Times Godot 3's native decoder, encoder, text form (var2str) and JSON (to_json) on the benchmark inputs, for `cargo bench --bench godot`.
#
# Run by the runner as `godot3-server --no-window -s benches/godot/bench.gd` with GDV_BENCH_DIR
# (the folder of input files the runner wrote) and GDV_BENCH_REPS (best of how many runs).
# Prints one `GDV_RESULT <name> <microseconds>` line per workload (the best run, timed with
# OS.get_ticks_usec), then `GDV_DONE`. Every decoded value is freed inside the timing, as a game
# that decodes a packet and drops it does.
extends SceneTree

var dir = ""
var reps = 10


func _init():
	dir = OS.get_environment("GDV_BENCH_DIR")
	reps = int(OS.get_environment("GDV_BENCH_REPS"))
	if reps <= 0:
		reps = 10
	print("GDV_VERSION ", Engine.get_version_info()["string"])
	for name in ["dicts_corpus", "game_state", "packed_f32_1m", "packed_f32_25m"]:
		decode(name)
	for name in ["dicts_corpus", "game_state"]:
		encode(name)
		text(name)
		json(name)
	packets()
	dump()
	print("GDV_DONE")
	quit()


func read(name):
	var f = File.new()
	if f.open(dir + "/" + name + ".bin", File.READ) != OK:
		printerr("cannot open ", name)
		return PoolByteArray()
	var bytes = f.get_buffer(f.get_len())
	f.close()
	return bytes


func result(name, usec):
	print("GDV_RESULT ", name, " ", usec)


# bytes2var of a whole input, value freed.
func decode(name):
	var bytes = read(name)
	var best = 1 << 62
	var value
	for i in reps:
		var t0 = OS.get_ticks_usec()
		value = bytes2var(bytes)
		value = null
		var t1 = OS.get_ticks_usec()
		best = min(best, t1 - t0)
	result("decode/" + name, best)


# var2bytes of the decoded input.
func encode(name):
	var value = bytes2var(read(name))
	var best = 1 << 62
	var out
	for i in reps:
		var t0 = OS.get_ticks_usec()
		out = var2bytes(value)
		var t1 = OS.get_ticks_usec()
		best = min(best, t1 - t0)
	result("encode/" + name, best)


# var2str of the decoded input: Godot's text form.
func text(name):
	var value = bytes2var(read(name))
	var best = 1 << 62
	var out
	for i in reps:
		var t0 = OS.get_ticks_usec()
		out = var2str(value)
		var t1 = OS.get_ticks_usec()
		best = min(best, t1 - t0)
	result("text/" + name, best)


# to_json of the decoded input: Godot's JSON.
func json(name):
	var value = bytes2var(read(name))
	var best = 1 << 62
	var out
	for i in reps:
		var t0 = OS.get_ticks_usec()
		out = to_json(value)
		var t1 = OS.get_ticks_usec()
		best = min(best, t1 - t0)
	result("json/" + name, best)


# The relay's work, packet by packet: bytes2var, read "type", forward unless "ping". The packets
# file holds each packet after a 4-byte length. Godot 3 cannot keep 100,000 PoolByteArrays alive
# at once (its memory pool's allocation limit), so each packet is cut out of the file's bytes with
# `subarray` inside the loop, as a fresh packet from the network would be; the same loop without
# bytes2var is timed too (that copy and GDScript's own cost per packet).
func packets():
	var all = read("packets")
	var starts = []
	var ends = []
	var at = 0
	while at + 4 <= all.size():
		var n = all[at] | (all[at + 1] << 8) | (all[at + 2] << 16) | (all[at + 3] << 24)
		starts.append(at + 4)
		ends.append(at + 3 + n)
		at += 4 + n
	var count = starts.size()
	var best = 1 << 62
	var forwarded = 0
	for i in reps:
		forwarded = 0
		var t0 = OS.get_ticks_usec()
		for k in count:
			var p = all.subarray(starts[k], ends[k])
			var d = bytes2var(p)
			if d["type"] != "ping":
				forwarded += p.size()
		var t1 = OS.get_ticks_usec()
		best = min(best, t1 - t0)
	result("packets/relay", best)
	best = 1 << 62
	for i in reps:
		forwarded = 0
		var t0 = OS.get_ticks_usec()
		for k in count:
			var p = all.subarray(starts[k], ends[k])
			if p.size() != 0:
				forwarded += p.size()
		var t1 = OS.get_ticks_usec()
		best = min(best, t1 - t0)
	result("packets/loop_only", best)
	print("GDV_INFO packets ", count, " forwarded bytes ", forwarded)


# A store_var dump read back with File.get_var until its end (the file is in the page cache).
func dump():
	var f = File.new()
	f.open(dir + "/dump.bin", File.READ)
	var length = f.get_len()
	var best = 1 << 62
	for i in reps:
		f.seek(0)
		var count = 0
		var t0 = OS.get_ticks_usec()
		while f.get_position() < length:
			var v = f.get_var()
			count += 1
		var t1 = OS.get_ticks_usec()
		best = min(best, t1 - t0)
	f.close()
	result("dump/get_var", best)
