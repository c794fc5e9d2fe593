#!/usr/bin/env bash
# attention-bench.sh — SmolLM2-135M's attention alone, for a 2,048-token
# prefill (30 layers, 9 query heads, 3 key/value heads, head dimension 64),
# three ways side by side, alternating for ROUNDS rounds (default 2):
#   - XLA's, as the engine builds it (key blocks, the causal diagonal in
#     parts, chunks of 512): go test -bench AttentionPrefill ./pkg/smollm;
#   - a C prototype of a flash-attention kernel (attention_kernel.c, gcc,
#     AVX-512), whole and in chunks of 512;
#   - PyTorch's scaled_dot_product_attention, in the hash-locked environment
#     of scripts/model/env.sh.
# About 3 min on 2 idle cores after the first build. Not part of make test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
if ! grep -qw avx512f /proc/cpuinfo; then
	echo "attention-bench.sh: the C kernel needs AVX-512 (avx512f), which this CPU lacks" >&2
	exit 2
fi
py=$(scripts/model/env.sh)
plugin=$(scripts/xla-test.sh --plugin-dir)
mkdir -p build
gcc -O3 -march=native -fopenmp -Wall -o build/attention_kernel scripts/model/attention_kernel.c -lm
go test -c -o build/smollm.test ./pkg/smollm
for round in $(seq "${ROUNDS:-2}"); do
	echo "== round $round, $(date -u +%T), load $(cut -d' ' -f1-3 /proc/loadavg)"
	PJRT_PLUGIN_LIBRARY_PATH=$plugin GOMLX_BACKEND=xla:cpu MALLOC_ARENA_MAX=2 \
		build/smollm.test -test.run '^$' -test.bench AttentionPrefill -test.benchtime 5x | grep -E 'ns/op|best of'
	OMP_NUM_THREADS=2 build/attention_kernel 2048 30 5 512
	"$py" scripts/model/attention_sdpa.py 2048 30
done
