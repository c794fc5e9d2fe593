#!/usr/bin/env bash
# texts.sh — rebuilds the long texts of make model-results
# (pkg/smollm/longrun/texts, sources and licences in SOURCES.md there):
# two from the Go toolchain's own tree, one from Debian's KJV packages,
# unpacked (not installed) with dpkg-deb. Needs Go 1.26.8 and apt-get with
# a Debian 13 package index. The texts are committed; run this only to
# check them (git diff after it should be empty).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=$ROOT/pkg/smollm/longrun/texts
GOROOT=$(go env GOROOT)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Opticks: drop the 7 lines of transcription credits, keep ~110 KB, then
# the last (cut) line.
tail -n +8 "$GOROOT/src/testdata/Isaac.Newton-Opticks.txt" | head -c 110000 | sed '$d' >"$OUT/opticks.txt"

# Genesis (KJV): the verse references ("Ge1:1 ") removed, ~110 KB, the
# last (cut) line dropped.
(cd "$work" && apt-get download bible-kjv=4.38 bible-kjv-text=4.38 >/dev/null)
for deb in "$work"/*.deb; do dpkg-deb -x "$deb" "$work/x"; done
"$work/x/usr/bin/bible" -p "$work/x/usr/lib" -f "gen1:1-gen50:26" |
	sed -E 's/^[0-9A-Za-z]+[0-9]+:[0-9]+ //' | head -c 110000 | sed '$d' >"$OUT/genesis.txt"

cp "$GOROOT/src/net/http/server.go" "$OUT/go-net-http-server.go.txt"
sha256sum "$OUT"/*.txt
