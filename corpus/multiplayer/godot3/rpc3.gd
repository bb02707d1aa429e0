# rpc3.gd: the RPC target of the Godot 3 capture. Every function (and setter) reports what it
# received to the hub (capture.gd), with the arguments as the engine holds them.
extends Node

var hub = null
remote var hp = 0 setget set_hp
puppet var label = "" setget set_label

func set_hp(v):
	hp = v
	hub.got_set(self, "hp", v)

func set_label(v):
	label = v
	hub.got_set(self, "label", v)

remote func r0():
	hub.got(self, "r0", [])

remote func r1(a):
	hub.got(self, "r1", [a])

remote func r2(a, b):
	hub.got(self, "r2", [a, b])

remote func r3(a, b, c):
	hub.got(self, "r3", [a, b, c])

remote func r8(a, b, c, d, e, f, g, h):
	hub.got(self, "r8", [a, b, c, d, e, f, g, h])

remotesync func rs1(a):
	hub.got(self, "rs1", [a])

master func m1(a):
	hub.got(self, "m1", [a])

puppet func p1(a):
	hub.got(self, "p1", [a])

func plain(a):
	hub.got(self, "plain", [a])
