#!/bin/sh
# Regenerates the big-endian captures and verdicts.txt with Godot 3.2.3
# (Debian: apt-get install -y godot3-server). The engine runs in a scratch
# directory (it writes logs next to the script).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
cp "$here/capture3.gd" "$tmp/"
(cd "$tmp" && HOME=$tmp XDG_DATA_HOME=$tmp/d XDG_CONFIG_HOME=$tmp/c XDG_CACHE_HOME=$tmp/k \
  OUT_DIR=$here godot3-server --no-window -s "$tmp/capture3.gd" >"$tmp/log" 2>&1)
grep -a '^VERDICT' "$tmp/log" | cut -f2- >"$here/verdicts.txt"
head -n 1 "$tmp/log" >"$here/engine.txt"
rm -rf "$tmp"
