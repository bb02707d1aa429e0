# A script for the objects probe3.gd builds (family `objects`): a Resource with an exported
# variable.
extends Resource
export var count = 1
