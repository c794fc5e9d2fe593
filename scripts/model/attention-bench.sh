#!/usr/bin/env bash
# attention-bench.sh — SmolLM2-135M's attention alone, for a 2,048-token
# prefill (30 layers, 9 query heads, 3 key/value heads, head dimension 64),
# three ways side by side, alternating for ROUNDS rounds (default 2), in
# chunks of 512 as the engine runs it:
#   - GoMLX's operations on XLA, as the engine builds them where the kernel
#     cannot run (key blocks, the causal diagonal in parts), and
#   - cpuattention's kernel inside XLA's graph (AVX-512), as the engine
#     runs it where it can: go test -bench AttentionPrefill ./pkg/smollm;
#   - PyTorch's scaled_dot_product_attention, in the hash-locked environment
#     of scripts/model/env.sh.
# About 3 min on 2 idle cores after the first build. Not part of make test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
py=$(scripts/model/env.sh)
plugin=$(scripts/xla-test.sh --plugin-dir)
mkdir -p build
go test -c -o build/smollm.test ./pkg/smollm
for round in $(seq "${ROUNDS:-2}"); do
	echo "== round $round, $(date -u +%T), load $(cut -d' ' -f1-3 /proc/loadavg)"
	PJRT_PLUGIN_LIBRARY_PATH=$plugin GOMLX_BACKEND=xla:cpu MALLOC_ARENA_MAX=2 \
		build/smollm.test -test.run '^$' -test.bench AttentionPrefill -test.benchtime 5x | grep -E 'ns/op|best of|SKIP|skip'
	"$py" scripts/model/attention_sdpa.py 2048 30
done
