#!/usr/bin/env bash
# golden.sh — make model-golden: rewrites the goldens of the real-model tests
# from the GGML project's gguf package and Hugging Face transformers, in the
# hash-locked environment of env.sh (not part of make test; go test compares
# with the committed files without Python):
#
#   pkg/gguf/testdata/smollm2_dequant.json  golden_dequant.py: dequantized
#                                            slices of every tensor type
#   pkg/smollm/testdata/logits.{json,f32}    golden_logits.py: 512 tokens of
#                                            pkg/lab/corpus/go-docs.txt
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
"$HERE/fetch.sh"
DIR=${POSENC_MODEL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/posenc-course/models}
MODEL=$DIR/SmolLM2-135M-Instruct.Q4_1.gguf
PY=$("$HERE/env.sh")
export PYTHONWARNINGS=ignore TRANSFORMERS_VERBOSITY=error HF_HUB_OFFLINE=1 HF_HUB_DISABLE_PROGRESS_BARS=1
cd "$ROOT"
start=$(date +%s)
"$PY" "$HERE/golden_dequant.py" "$MODEL" pkg/gguf/testdata/smollm2_dequant.json
"$PY" "$HERE/golden_logits.py" "$MODEL" pkg/lab/corpus/go-docs.txt pkg/smollm/testdata 512
echo "golden.sh: computed in $(($(date +%s) - start)) s; git diff --stat shows what changed"
