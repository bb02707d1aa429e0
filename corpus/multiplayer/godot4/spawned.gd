# spawned.gd: the root of spawned.tscn, whose synchronizer replicates these properties.
extends Node2D

var hp := 100
var label := "fresh"
var flag := false
var inventory := {"gold": 5}
