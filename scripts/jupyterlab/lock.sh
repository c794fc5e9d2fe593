#!/usr/bin/env bash
# lock.sh — regenerates requirements.txt, the hash-locked list of JupyterLab
# and everything it needs, from requirements.in, resolving against the Python
# package index as it was on LOCK_DATE, so that the same inputs give the same
# lock. When you change requirements.in, move LOCK_DATE to the day you lock.
#
# The lock carries the hash of every wheel and sdist of each pinned version,
# so that `pip install --require-hashes -r requirements.txt` works on x86_64
# and aarch64 alike (the Docker image is built for both). scripts/uv-lock.sh
# does the work (uv, pinned, universal, CPython 3.11).
#
# Usage: scripts/jupyterlab/lock.sh [--check]   (needs the Python package index)
#   --check  regenerate into a temporary file and fail if it differs from the
#            committed requirements.txt
set -euo pipefail
LOCK_DATE=2026-11-30T00:00:00Z
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec "$HERE/../uv-lock.sh" "$HERE" "$LOCK_DATE" pip "$@"
