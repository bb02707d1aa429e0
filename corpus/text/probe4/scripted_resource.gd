# A script for the objects the probe builds (family `objects`): a Resource with an exported
# variable.
extends Resource
@export var count = 1
