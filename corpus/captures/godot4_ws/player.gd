# player.gd: the RPC target on both sides (World/Player and World/Späher). Each function reports
# the call it received to session.gd with its arguments as the engine holds them.
extends Node

func main():
	return get_node("/root/Main")

@rpc("any_peer")
func take(i):
	main().got(self, "take", [i])

@rpc("any_peer")
func pair(a, b):
	main().got(self, "pair", [a, b])

@rpc("any_peer")
func shapes(a, b, c, d):
	main().got(self, "shapes", [a, b, c, d])

@rpc("any_peer")
func bag(a, b, c):
	main().got(self, "bag", [a, b, c])

@rpc("any_peer")
func flag(a):
	main().got(self, "flag", [a])

@rpc("any_peer")
func nothing():
	main().got(self, "nothing", [])

@rpc("any_peer", "unreliable")
func tick(i):
	main().got(self, "tick", [i])

@rpc("authority", "call_remote", "reliable", 1)
func hello(text):
	main().got(self, "hello", [text])
