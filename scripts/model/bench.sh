#!/usr/bin/env bash
# bench.sh — make bench's real-model rows: SmolLM2-135M prefill at 512 and
# 2,048 tokens and decoding with the key/value cache, GoMLX
# (cmd/smollm-bench, on XLA's CPU plugin when XLA_PLUGIN_DIR or
# PJRT_PLUGIN_LIBRARY_PATH names one, else on posgraph's choice) against
# transformers + torch float32 on the CPU (bench_torch.py, in env.sh's
# hash-locked environment), on the same tokens and the same number of
# threads (THREADS, default nproc), best of RUNS (default 3) each; one table
# at the end, JSON in build/bench-model/.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
GO=${GO:-go}
THREADS=${THREADS:-$(nproc)}
RUNS=${RUNS:-3}
OUT=$ROOT/build/bench-model
mkdir -p "$OUT"
"$HERE/fetch.sh"
DIR=${POSENC_MODEL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/posenc-course/models}
PY=$("$HERE/env.sh")
export PYTHONWARNINGS=ignore TRANSFORMERS_VERBOSITY=error HF_HUB_OFFLINE=1 HF_HUB_DISABLE_PROGRESS_BARS=1
cd "$ROOT"
"$PY" "$HERE/bench_torch.py" "$DIR/SmolLM2-135M-Instruct.Q4_1.gguf" pkg/lab/corpus/go-docs.txt \
	"$OUT/ids.txt" "$OUT/torch.json" "$THREADS" "$RUNS"
if [ -n "${XLA_PLUGIN_DIR:-}" ]; then
	export PJRT_PLUGIN_LIBRARY_PATH=$XLA_PLUGIN_DIR
fi
if [ -n "${PJRT_PLUGIN_LIBRARY_PATH:-}" ] && [ -z "${GOMLX_BACKEND:-}" ]; then
	export GOMLX_BACKEND=xla:cpu
fi
GOMAXPROCS=$THREADS "$GO" run ./cmd/smollm-bench -ids "$OUT/ids.txt" -runs "$RUNS" -json "$OUT/gomlx.json"
"$PY" - "$OUT/torch.json" "$OUT/gomlx.json" <<'PY'
import json, sys
t, g = (json.load(open(p)) for p in sys.argv[1:])
print("\nSmolLM2-135M, %s; torch %s, %d threads (tokens/s, best of runs)" % (g["backend"], t["torch"], t["threads"]))
print("%-18s %10s %10s %8s" % ("", "GoMLX", "torch", "ratio"))
torch = {(r["what"], r["tokens"]): r["tokens_per_s"] for r in t["results"]}
for r in g["results"]:
    b = torch.get((r["what"], r["tokens"]))
    ratio = "%7.2f×" % (r["tokens_per_s"] / b) if b else "%8s" % "—"
    print("%-18s %10.1f %10s %s" % ("%s %d" % (r["what"], r["tokens"]), r["tokens_per_s"], "%.1f" % b if b else "—", ratio))
PY
