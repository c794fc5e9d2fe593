#!/usr/bin/env bash
# lab-results.sh — re-runs the lab and rewrites lab/results (make lab-results):
# lesson 8's suite, then lesson 9's layer patterns (SUITES="lab layers" by
# default). On XLA's CPU plugin when one is found (XLA_PLUGIN_DIR, else the
# test plugin scripts/xla-test.sh installs into .tools/xla-cpu-test), which
# trains several times faster than the pure-Go backend and as
# deterministically; else on the Go backend. Commit the code first: the
# results record the commit, and say "dirty" when a file that decides the
# numbers (report.ResultFiles) differs from it. About 4 hours on a 2-core
# machine (lesson 8's suite took 2.6 h; README); resumable: started again, it reads the finished
# cells in lab/results/cells and lab/results/layers/cells.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
GO=${GO:-go}
. scripts/xla-backend.sh lab-results "several times"
for suite in ${SUITES:-lab layers}; do
	"$GO" run ./cmd/lab --suite "$suite" "$@"
done
