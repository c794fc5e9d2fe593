#!/usr/bin/env bash
# env.sh — prints the path of the real-model Python environment's python,
# installing it first when it is missing or its lock changed: transformers,
# torch and gguf, pinned and hash-locked (requirements.txt, from
# requirements.in by lock.sh), into the course's own .tools/model-venv
# (COURSE_TOOLS/model-venv when set), with uv and --require-hashes, wheels
# only. Like scripts/golden/run.sh's environment it is about 3 GB to
# download (PyPI's Linux torch brings the CUDA wheels; it runs on the CPU).
#
# Usage: PY=$(scripts/model/env.sh)   (progress goes to stderr)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
TOOLS=${COURSE_TOOLS:-$ROOT/.tools}
UV_VERSION=0.13.9
UV=$TOOLS/uv-$UV_VERSION/bin/uv
VENV=$TOOLS/model-venv

py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
if [ ! -x "$UV" ]; then
	"$py" -m venv "$TOOLS/uv-$UV_VERSION"
	"$TOOLS/uv-$UV_VERSION/bin/pip" install --disable-pip-version-check -q --require-hashes --only-binary :all: \
		-r "$ROOT/tools/uv/requirements.txt" >&2 # uv $UV_VERSION, by its wheels' sha256
fi
stamp=$VENV/.requirements.sha256
want=$(sha256sum "$HERE/requirements.txt" | cut -d' ' -f1)
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	echo "env.sh: installing transformers, torch and gguf into $VENV (about 3 GB to download the first time)" >&2
	rm -rf "$VENV"
	"$UV" venv -q -p "$py" "$VENV" >&2
	start=$(date +%s)
	"$UV" pip install -q -p "$VENV/bin/python" --require-hashes --only-binary :all: -r "$HERE/requirements.txt" >&2
	echo "env.sh: installed in $(($(date +%s) - start)) s" >&2
	echo "$want" >"$stamp"
fi
echo "$VENV/bin/python"
