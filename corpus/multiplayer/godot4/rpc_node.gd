# rpc_node.gd: the RPC target of the capture. Every function reports the call it received to the
# hub (capture.gd), with the arguments as the engine holds them.
extends Node

func hub():
	return get_node("/root/Main")

@rpc("any_peer")
func r0():
	hub().got(self, "r0", [])

@rpc("any_peer")
func r1(a):
	hub().got(self, "r1", [a])

@rpc("any_peer")
func r2(a, b):
	hub().got(self, "r2", [a, b])

@rpc("any_peer")
func r3(a, b, c):
	hub().got(self, "r3", [a, b, c])

@rpc("any_peer")
func rv(...args: Array):
	hub().got(self, "rv", args)

@rpc("any_peer", "unreliable")
func u1(a):
	hub().got(self, "u1", [a])

@rpc("any_peer", "unreliable_ordered", "call_remote", 2)
func o1(a):
	hub().got(self, "o1", [a])

@rpc("any_peer", "call_local")
func local1(a):
	hub().got(self, "local1", [a])

@rpc("authority")
func auth1(a):
	hub().got(self, "auth1", [a])

# Not an @rpc function: capture.gd makes it one with Node.rpc_config (a native entry).
func plain(a):
	hub().got(self, "plain", [a])
