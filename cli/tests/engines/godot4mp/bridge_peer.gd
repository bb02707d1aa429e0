# bridge_peer.gd: the server side's transport. The web build cannot listen for connections, so
# the server's SceneMultiplayer reaches its client through a WebSocket bridge run by the test
# (or by corpus/captures/record_godot4_ws.py): this peer connects to the bridge, which tells it
# (in a text message) the id of the client it paired it with and then passes binary messages
# both ways. As Godot's own WebSocketMultiplayerPeer server does, it sends the client its id
# first, then the packets.
extends MultiplayerPeerExtension

var ws := WebSocketPeer.new()
var client_id := 0
var queue := []
var current = null
var target := 0
var channel := 0
var mode := TRANSFER_MODE_RELIABLE

func start(url: String) -> void:
	ws.connect_to_url(url)

func _poll() -> void:
	ws.poll()
	if ws.get_ready_state() != WebSocketPeer.STATE_OPEN:
		return
	while ws.get_available_packet_count() > 0:
		var data := ws.get_packet()
		if ws.was_string_packet():
			client_id = int(data.get_string_from_utf8())
			var id := PackedByteArray()
			id.resize(4)
			id.encode_s32(0, client_id)
			ws.put_packet(id)
			peer_connected.emit(client_id)
		else:
			queue.append(data)

func _get_available_packet_count() -> int:
	return queue.size()

func _get_max_packet_size() -> int:
	return 1 << 24

func _get_packet_script() -> PackedByteArray:
	current = queue.pop_front()
	return current

func _get_packet_peer() -> int:
	return client_id

func _get_packet_channel() -> int:
	return 0

func _get_packet_mode() -> TransferMode:
	return TRANSFER_MODE_RELIABLE

func _put_packet_script(p_buffer: PackedByteArray) -> Error:
	return ws.put_packet(p_buffer)

func _set_transfer_channel(p_channel: int) -> void:
	channel = p_channel

func _get_transfer_channel() -> int:
	return channel

func _set_transfer_mode(p_mode: TransferMode) -> void:
	mode = p_mode

func _get_transfer_mode() -> TransferMode:
	return mode

func _set_target_peer(p_peer: int) -> void:
	target = p_peer

func _is_server() -> bool:
	return true

func _close() -> void:
	ws.close()

func _disconnect_peer(_p_peer: int, _p_force: bool) -> void:
	pass

func _get_unique_id() -> int:
	return 1

func _set_refuse_new_connections(_p_enable: bool) -> void:
	pass

func _is_refusing_new_connections() -> bool:
	return false

func _is_server_relay_supported() -> bool:
	return false

func _get_connection_status() -> ConnectionStatus:
	return CONNECTION_CONNECTED
