#!/bin/sh
# Regenerates godot3.jsonl with Godot 3.2.3 (Debian: apt-get install -y godot3-server). The
# engine runs in a scratch directory.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
python3 "$here/cases.py" >"$tmp/cases.tsv"
cp "$here/probe3.gd" "$tmp/"
(cd "$tmp" && HOME=$tmp XDG_DATA_HOME=$tmp/d XDG_CONFIG_HOME=$tmp/c XDG_CACHE_HOME=$tmp/k \
  LC_ALL=C.UTF-8 PROBE_IN=$tmp/cases.tsv godot3-server --no-window -s "$tmp/probe3.gd" >"$tmp/log" 2>&1)
grep -q '^PROBE_DONE' "$tmp/log" || { cat "$tmp/log" >&2; exit 1; }
grep -a '^REC' "$tmp/log" | cut -f2- >"$here/godot3.jsonl"
rm -rf "$tmp"
