# player.gd: the RPC target on both sides of the session.
extends Node

@rpc("any_peer")
func allowed(i):
	get_node("/root/Main").got("allowed", i)

@rpc("any_peer")
func forbidden(i):
	get_node("/root/Main").got("forbidden", i)

@rpc("any_peer")
func limited(i):
	get_node("/root/Main").got("limited", i)

@rpc("authority")
func hello(text):
	get_node("/root/Main").got("hello", text)
