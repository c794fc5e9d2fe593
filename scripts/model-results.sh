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
"$GO" run ./cmd/modelresults "$@"
