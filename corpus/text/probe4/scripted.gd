# A script for the objects the probe builds (family `objects`): a RefCounted with exported
# variables, which Godot stores with the object.
extends RefCounted
@export var health = 100
@export var label = "hero"
