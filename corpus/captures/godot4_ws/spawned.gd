# spawned.gd: the root of spawned.tscn, whose synchronizer replicates position (always), hp (on
# change) and label (at spawn only).
extends Node2D

var hp := 100
var label := "fresh"
