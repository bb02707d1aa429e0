# loop_peer.gd: a MultiplayerPeer joining SceneMultiplayer instances that live in one scene tree.
# Every packet a SceneMultiplayer puts is handed to the hub (capture.gd), which prints it and
# queues it at its destination, as ENet would: a client sends only to the server (id 1), the
# server to one peer, to all (0) or to all but one (-id). The receiving SceneMultiplayer takes
# it on its next poll.
extends MultiplayerPeerExtension

var id := 0
var hub = null
var net := ""
var queue := []
var current = null
var target := 0
var channel := 0
var mode := TRANSFER_MODE_RELIABLE
var refusing := false

func _get_available_packet_count() -> int:
	return queue.size()

func _get_max_packet_size() -> int:
	return 1 << 24

func _get_packet_script() -> PackedByteArray:
	if queue.is_empty():
		return PackedByteArray()
	current = queue.pop_front()
	hub.delivered(self, current)
	return current.data

func _get_packet_peer() -> int:
	if queue.is_empty():
		return 0
	return queue[0].from

func _get_packet_channel() -> int:
	return 0 if current == null else current.channel

func _get_packet_mode() -> TransferMode:
	return TRANSFER_MODE_RELIABLE if current == null else current.mode

func _put_packet_script(p_buffer: PackedByteArray) -> Error:
	return hub.route(self, target, channel, mode, p_buffer)

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
	return id == 1

func _poll() -> void:
	pass

func _close() -> void:
	pass

func _disconnect_peer(_p_peer: int, _p_force: bool) -> void:
	pass

func _get_unique_id() -> int:
	return id

func _set_refuse_new_connections(p_enable: bool) -> void:
	refusing = p_enable

func _is_refusing_new_connections() -> bool:
	return refusing

func _is_server_relay_supported() -> bool:
	return true

func _get_connection_status() -> ConnectionStatus:
	return CONNECTION_CONNECTED
