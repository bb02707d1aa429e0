# mismatch_server.gd: the server's script of a node whose RPC list differs between the peers.
extends Node

@rpc("any_peer")
func alpha(a):
	get_node("/root/Main").got(self, "alpha", [a])

@rpc("any_peer")
func beta(a):
	get_node("/root/Main").got(self, "beta", [a])
