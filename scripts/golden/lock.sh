#!/usr/bin/env bash
# lock.sh — regenerates requirements.txt, the hash-locked list of
# transformers, torch and everything they need, from requirements.in,
# resolving against the Python package index as it was on LOCK_DATE, so that
# the same inputs give the same lock. scripts/uv-lock.sh does the work (uv,
# pinned, universal, CPython 3.11).
#
# Usage: scripts/golden/lock.sh [--check]   (needs the Python package index)
#   --check  regenerate into a temporary file and fail if it differs from the
#            committed requirements.txt
set -euo pipefail
LOCK_DATE=2026-12-04T00:00:00Z
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec "$HERE/../uv-lock.sh" "$HERE" "$LOCK_DATE" "uv pip" "$@"
