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
dir=${XLA_PLUGIN_DIR:-$ROOT/.tools/xla-cpu-test}
if [ -z "${GOMLX_BACKEND:-}" ]; then
	if [ -e "$dir/pjrt_c_api_cpu_plugin.so" ]; then
		export PJRT_PLUGIN_LIBRARY_PATH=$dir GOMLX_BACKEND=xla:cpu
	else
		echo "model-results: no XLA CPU plugin in $dir (make xla-test installs one); running on the Go backend, about 20 times slower" >&2
		export GOMLX_BACKEND=go
	fi
fi
"$GO" run ./cmd/modelresults "$@"
