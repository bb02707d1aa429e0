# rpc_child.gd: a script inheriting rpc_node.gd's RPC functions and adding one.
extends "res://rpc_node.gd"

@rpc("any_peer")
func child1(a):
	hub().got(self, "child1", [a])
