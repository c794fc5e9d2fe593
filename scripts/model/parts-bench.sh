#!/usr/bin/env bash
# parts-bench.sh PART — one part of SmolLM2-135M's prefill alone, GoMLX on
# XLA CPU against PyTorch, alternating for ROUNDS rounds. Not part of make
# test; times on 2 idle cores after the first build.
#
#   attention  (make attention-bench, ROUNDS default 2, about 3 min) the
#              attention of a 2,048-token prefill (30 layers, 9 query heads,
#              3 key/value heads of 64) in chunks of 512 as the engine runs
#              it: GoMLX's operations on XLA as the engine builds them where
#              the kernel cannot run (key blocks, the causal diagonal in
#              parts), cpuattention's kernel inside XLA's graph (AVX-512) as
#              it runs where it can (go test -bench AttentionPrefill
#              ./pkg/smollm), and PyTorch's scaled_dot_product_attention
#              (scripts/model/attention_sdpa.py);
#   dense      (make dense-bench, ROUNDS default 3, about 2 min) the model's
#              matrix products alone (30 layers of the projections, RMSNorm
#              and SwiGLU, no attention) at 128 and 512 tokens: GoMLX on XLA,
#              whose plugin hands each dot to YNNPACK (go test -bench
#              DenseLayers ./pkg/smollm), and PyTorch's F.linear, MKL
#              (scripts/model/dense_torch.py). This is the part of a short
#              prefill that attention's kernel cannot change.
#
# PyTorch runs in the hash-locked environment of scripts/model/env.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
part=${1:-}
case $part in
attention) bench=AttentionPrefill runs=5x rounds=${ROUNDS:-2} ;;
dense) bench=DenseLayers runs=10x rounds=${ROUNDS:-3} ;;
*)
	echo "usage: $0 attention|dense (got \"$part\")" >&2
	exit 2
	;;
esac
py=$(scripts/model/env.sh)
plugin=$(scripts/xla-test.sh --plugin-dir)
mkdir -p build
go test -c -o build/smollm.test ./pkg/smollm
for round in $(seq "$rounds"); do
	echo "== round $round, $(date -u +%T), load $(cut -d' ' -f1-3 /proc/loadavg)"
	PJRT_PLUGIN_LIBRARY_PATH=$plugin GOMLX_BACKEND=xla:cpu MALLOC_ARENA_MAX=2 \
		build/smollm.test -test.run '^$' -test.bench "$bench" -test.benchtime "$runs" | grep -E 'ns/op|best of|SKIP|skip'
	case $part in
	attention) "$py" scripts/model/attention_sdpa.py 2048 30 ;;
	dense) for tokens in 128 512; do "$py" scripts/model/dense_torch.py "$tokens" 10; done ;;
	esac
done
