#!/usr/bin/env bash
# run.sh — the golden values of lesson 9's library, from Hugging Face
# transformers itself (make golden), or the proof that the committed ones
# reproduce (make golden-check, run.sh --check).
#
# It installs transformers 5.25.0 and torch 2.15.0, pinned and hash-locked
# (requirements.txt, from requirements.in by lock.sh), into the course's own
# .tools/golden-venv (COURSE_TOOLS/golden-venv when set) once, with uv and
# --require-hashes, wheels only. PyPI's Linux torch is a CUDA build that
# requires the nvidia-* and cuda-* wheels; there is no CPU-only torch on PyPI
# for Linux, so they come too, and torch runs on the CPU without a GPU. On
# x86_64 that is 61 wheels and about 3.0 GB to download (torch 539 MB,
# cudnn 519 MB, cublas 405 MB, triton 286 MB, …), 5.4 GB installed; the
# install took 32 s on this project's machine from a fast index mirror, the
# computation 45 s.
#
# Then it writes the fixtures that are defaults of transformers' config
# classes (fixtures.py), golden.json (golden.py) and golden-classes.json
# (classes.py: every text model's whole default config.json and its rotary
# module's frequencies) into pkg/posenc/modelconfigs, or, with --check, into a temporary folder and
# fails if they differ from the committed files.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
TOOLS=${COURSE_TOOLS:-$ROOT/.tools}
UV_VERSION=0.13.9
UV=$TOOLS/uv-$UV_VERSION/bin/uv
VENV=$TOOLS/golden-venv
FIXTURES=$ROOT/pkg/posenc/modelconfigs

check=0
case "${1:-}" in
--check) check=1 ;;
"") ;;
*)
	echo "usage: run.sh [--check]" >&2
	exit 2
	;;
esac

if [ ! -x "$UV" ]; then
	py=/usr/bin/python3
	[ -x "$py" ] || py=$(command -v python3)
	"$py" -m venv "$TOOLS/uv-$UV_VERSION"
	"$TOOLS/uv-$UV_VERSION/bin/pip" install --disable-pip-version-check -q --require-hashes --only-binary :all: \
		-r "$ROOT/tools/uv/requirements.txt" # uv $UV_VERSION, by its wheels' sha256
fi
stamp=$VENV/.requirements.sha256
want=$(sha256sum "$HERE/requirements.txt" | cut -d' ' -f1)
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	py=/usr/bin/python3
	[ -x "$py" ] || py=$(command -v python3)
	echo "run.sh: installing transformers and torch into $VENV (about 3 GB to download the first time)"
	rm -rf "$VENV"
	"$UV" venv -q -p "$py" "$VENV"
	start=$(date +%s)
	"$UV" pip install -q -p "$VENV/bin/python" --require-hashes --only-binary :all: -r "$HERE/requirements.txt"
	echo "run.sh: installed in $(($(date +%s) - start)) s"
	echo "$want" >"$stamp"
fi

out=$FIXTURES
if [ "$check" = 1 ]; then
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
	# The copied fixtures are inputs, not outputs: golden.py reads them too.
	for f in "$FIXTURES"/*.json; do
		case "$(basename "$f")" in golden*.json) ;; *) cp "$f" "$out/" ;; esac
	done
	cp -r "$FIXTURES/full" "$out/full"
	mkdir -p "$out/designs"
fi
start=$(date +%s)
export PYTHONWARNINGS=ignore TRANSFORMERS_VERBOSITY=error HF_HUB_OFFLINE=1
"$VENV/bin/python" "$HERE/fixtures.py" "$out"
"$VENV/bin/python" "$HERE/golden.py" "$out" "$out/golden.json"
"$VENV/bin/python" "$HERE/classes.py" "$out/golden-classes.json"
echo "run.sh: computed in $(($(date +%s) - start)) s"
if [ "$check" = 1 ]; then
	if ! diff -r -u "$FIXTURES" "$out" -x '*.go' -x '*.md' -x '*_test.go'; then
		echo "run.sh: the committed fixtures or golden.json do not reproduce; run make golden and look at the diff" >&2
		exit 1
	fi
	echo "run.sh: the committed fixtures and golden.json reproduce"
fi
