# state.gd: a node present in every peer's scene (not spawned) whose properties a path-based
# synchronizer replicates.
extends Node

var score := 0
var motd := "welcome"
