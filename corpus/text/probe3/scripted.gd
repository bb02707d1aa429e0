# A script for the objects probe3.gd builds (family `objects`): a Reference with exported
# variables, which Godot stores with the object.
extends Reference
export var health = 100
export var label = "hero"
