# capture3.gd: big-endian framed streams from Godot 3, and how Godot's readers
# treat odd length prefixes. Run by run.sh (godot3-server --no-window -s capture3.gd)
# with OUT_DIR set; writes the .bin files there and prints one
# "VERDICT<TAB>name<TAB>result" line per reader check.
extends SceneTree

func items():
	return [1, "hello", Vector2(1, 2), [1, 2, 3], {"k": "v"}, null, 3.5, 0.1,
		4294967296, NodePath("a/b:c")]

func save(path, bytes):
	var f = File.new()
	f.open(path, File.WRITE)
	f.store_buffer(bytes)
	f.close()

func verdict(name, result):
	print("VERDICT\t%s\t%s" % [name, result])

# StreamPeerBuffer.get_var on `bytes`; reports the value and where the cursor ended.
func stream_get(name, bytes, big_endian):
	var spb = StreamPeerBuffer.new()
	spb.big_endian = big_endian
	spb.data_array = PoolByteArray(bytes)
	var v = spb.get_var()
	verdict(name, "%s position=%d" % [var2str(v).replace("\n", " "), spb.get_position()])

func file_get(name, bytes, endian_swap, dir):
	var path = dir + "/tmp_" + name + ".bin"
	save(path, PoolByteArray(bytes))
	var f = File.new()
	f.open(path, File.READ)
	f.endian_swap = endian_swap
	var v = f.get_var()
	verdict(name, "%s position=%d" % [var2str(v).replace("\n", " "), f.get_position()])
	f.close()
	Directory.new().remove(path)

func _init():
	var dir = OS.get_environment("OUT_DIR")
	var list = items()

	# File.store_var with endian_swap: big-endian lengths.
	var f = File.new()
	f.open(dir + "/stream_file_store_var_be.bin", File.WRITE)
	f.endian_swap = true
	for v in list:
		f.store_var(v)
	f.close()
	# Read it back with the same setting.
	f.open(dir + "/stream_file_store_var_be.bin", File.READ)
	f.endian_swap = true
	var ok = true
	for v in list:
		var got = f.get_var()
		if typeof(got) != typeof(v) or str(got) != str(v):
			ok = false
	f.close()
	verdict("file_be_readback", "ok" if ok else "MISMATCH")

	# StreamPeer.put_var with big_endian.
	var spb = StreamPeerBuffer.new()
	spb.big_endian = true
	for v in list:
		spb.put_var(v)
	save(dir + "/stream_streampeer_put_var_be.bin", spb.data_array)

	# PacketPeerStream over a big-endian StreamPeer: its lengths stay little-endian.
	var target = StreamPeerBuffer.new()
	target.big_endian = true
	var pps = PacketPeerStream.new()
	pps.stream_peer = target
	for v in list:
		pps.put_var(v)
	save(dir + "/stream_packetpeerstream_put_var_be.bin", target.data_array)

	# Readers on odd length prefixes (int 7 is 02 00 00 00 07 00 00 00).
	var int7 = [2, 0, 0, 0, 7, 0, 0, 0]
	stream_get("streampeer_len_exact", [8, 0, 0, 0] + int7, false)
	stream_get("streampeer_len_longer", [12, 0, 0, 0] + int7 + [9, 9, 9, 9], false)
	stream_get("streampeer_len_shorter", [4, 0, 0, 0] + int7, false)
	stream_get("streampeer_len_zero", [0, 0, 0, 0] + int7, false)
	stream_get("streampeer_len_negative", [255, 255, 255, 255] + int7, false)
	stream_get("streampeer_len_past_end", [9, 0, 0, 0] + int7, false)
	stream_get("streampeer_be_len", [0, 0, 0, 8] + int7, true)
	file_get("file_len_exact", [8, 0, 0, 0] + int7, false, dir)
	file_get("file_len_longer", [12, 0, 0, 0] + int7 + [9, 9, 9, 9], false, dir)
	file_get("file_len_zero", [0, 0, 0, 0] + int7, false, dir)
	file_get("file_len_past_end", [9, 0, 0, 0] + int7, false, dir)
	file_get("file_be_len", [0, 0, 0, 8] + int7, true, dir)
	quit()
