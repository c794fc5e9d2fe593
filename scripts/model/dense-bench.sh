#!/usr/bin/env bash
# dense-bench.sh — SmolLM2-135M's matrix products alone (30 layers of the
# projections, RMSNorm and SwiGLU, no attention), as a prefill of 128 and
# 512 tokens runs them, alternating for ROUNDS rounds (default 3):
#   - GoMLX on XLA CPU, whose plugin hands each dot to YNNPACK:
#     go test -bench DenseLayers ./pkg/smollm;
#   - PyTorch's F.linear (MKL), in the hash-locked environment of
#     scripts/model/env.sh: scripts/model/dense_torch.py.
# This is the part of a short prefill that attention's kernel cannot
# change. About 2 min on 2 idle cores after the first build. Not part of
# make test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
py=$(scripts/model/env.sh)
plugin=$(scripts/xla-test.sh --plugin-dir)
mkdir -p build
go test -c -o build/smollm.test ./pkg/smollm
for round in $(seq "${ROUNDS:-3}"); do
	echo "== round $round, $(date -u +%T), load $(cut -d' ' -f1-3 /proc/loadavg)"
	PJRT_PLUGIN_LIBRARY_PATH=$plugin GOMLX_BACKEND=xla:cpu MALLOC_ARENA_MAX=2 \
		build/smollm.test -test.run '^$' -test.bench DenseLayers -test.benchtime 10x | grep -E 'best of|SKIP|skip'
	for tokens in 128 512; do "$py" scripts/model/dense_torch.py "$tokens" 10; done
done
