#!/usr/bin/env bash
# model-results.sh — the long run of SmolLM2-135M (make model-results):
# go run ./cmd/modelresults "$@" into model/results, resumable (a re-run
# skips the cells on disk). On XLA's CPU plugin when one is found
# (XLA_PLUGIN_DIR, else the test plugin scripts/xla-test.sh installs into
# .tools/xla-cpu-test); the pure-Go backend is about 20 times slower and
# would take days. Commit the code first: every cell records the commit,
# and says "dirty" when a file that decides the numbers
# (longrun.ResultPaths) differs from it.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
GO=${GO:-go}
. scripts/xla-backend.sh model-results "about 20 times"
# glibc gives each thread that allocates its own malloc arena (up to 8 a
# core) and keeps what XLA frees in it: scoring 16,384 tokens, the run's
# resident memory reached 13 GB after one text and 20.7 GB at the third
# method (24 GB machine). With two arenas cells of the same size peaked at 10.8 GB
# and fell back to under 8 GB between methods.
export MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}
"$GO" run ./cmd/modelresults "$@"
