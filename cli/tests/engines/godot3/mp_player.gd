# mp_player.gd: the RPC target of mp_session.gd, on both sides.
extends Node

var hub = null
remote var hp = 0 setget set_hp

func set_hp(v):
	hp = v
	hub.got("hp", v)

remote func allowed(i):
	hub.got("allowed", i)

remote func forbidden(i):
	hub.got("forbidden", i)

remote func limited(i):
	hub.got("limited", i)

puppet func hello(text):
	hub.got("hello", text)
