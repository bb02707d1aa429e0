# mismatch_client.gd: the clients' script of the same node: "beta" is missing, "gamma" takes id 1.
extends Node

@rpc("any_peer")
func alpha(a):
	get_node("/root/Main").got(self, "alpha", [a])

@rpc("any_peer")
func gamma(a):
	get_node("/root/Main").got(self, "gamma", [a])
