# record_godot3_ws_player.gd: the RPC target of record_godot3_ws.gd, on both sides.
extends Node

var hub = null
remote var hp = 0 setget set_hp

func set_hp(v):
	hp = v
	hub.got(self, "hp", v)

remote func take(v):
	hub.got(self, "take", v)

remote func pair(a, b):
	hub.got(self, "pair", [a, b])

puppet func hello(text):
	hub.got(self, "hello", text)
