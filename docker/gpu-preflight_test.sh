#!/usr/bin/env bash
# gpu-preflight_test.sh — runs docker/gpu-preflight.sh against stand-ins for
# nvidia-smi and checks its exit status and its one line. Run by
# scripts/lint-dockerfile.sh (make test).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# fake NAME OUTPUT [STATUS]: an nvidia-smi that prints OUTPUT, exits STATUS,
# and rejects compute_cap when OUTPUT has no third field (an old driver).
fake() {
	cat >"$tmp/$1" <<FAKE
#!/usr/bin/env bash
case "\$*" in
*compute_cap*) [ "\$(printf '%s' '$2' | awk -F, '{print NF}')" -ge 3 ] || { echo 'Field "compute_cap" is not a valid field to query.'; exit 2; } ;;
esac
printf '%s\n' '$2'
exit ${3:-0}
FAKE
	chmod +x "$tmp/$1"
}

# check NAME BACKEND NVIDIA_SMI WANT_STATUS WANT_TEXT
check() {
	local out status
	out=$(GOMLX_BACKEND=$2 NVIDIA_SMI=$3 "$HERE/gpu-preflight.sh" 2>&1) && status=0 || status=$?
	local ok=1
	[ "$status" = "$4" ] || ok=0
	if [ -z "$5" ]; then
		[ -z "$out" ] || ok=0
	elif ! grep -qF -- "$5" <<<"$out" || [ "$(wc -l <<<"$out")" != 1 ]; then
		ok=0
	fi
	if [ "$ok" = 0 ]; then
		printf 'gpu-preflight_test: %s: status %s, output %q; want status %s and one line containing %q (none when empty)\n' "$1" "$status" "$out" "$4" "$5" >&2
		fail=1
	fi
}

fake ok 'NVIDIA H200, 580.95.05, 9.0'
fake two 'NVIDIA T4, 590.10, 7.5
NVIDIA A100-SXM4-80GB, 590.10, 8.0'
fake olddriver 'NVIDIA A100-SXM4-80GB, 575.57.08, 8.0'
fake ancient 'Tesla K80, 470.256.02'
fake oldgpu 'Tesla V100-SXM2-16GB, 580.95.05, 7.0'
fake broken 'NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver.' 9

check "not asked" xla:cpu "$tmp/none" 0 ""
check "unset" "" "$tmp/none" 0 ""
check "no nvidia-smi" xla:cuda "$tmp/none" 1 "no NVIDIA GPU is visible"
check "ok" xla:cuda "$tmp/ok" 0 "NVIDIA H200 (compute capability 9.0), NVIDIA driver 580.95.05: CUDA 13 can run"
check "two GPUs" xla:cuda "$tmp/two" 0 "NVIDIA T4 (compute capability 7.5); NVIDIA A100-SXM4-80GB (compute capability 8.0)"
check "driver too old" xla:cuda "$tmp/olddriver" 1 "the NVIDIA driver is 575.57.08 and CUDA 13 needs 580 or newer"
check "driver without compute_cap" xla:cuda "$tmp/ancient" 1 "the NVIDIA driver is 470.256.02"
check "GPU too old" xla:cuda "$tmp/oldgpu" 1 "compute capability 7.0 and CUDA 13 needs 7.5"
check "driver not answering" xla:cuda "$tmp/broken" 1 "nvidia-smi failed"
check "advice" xla:cuda "$tmp/olddriver" 1 "set GOMLX_BACKEND=xla:cpu (XLA on the CPU) or GOMLX_BACKEND=go"

[ "$fail" = 0 ] && echo "gpu-preflight_test: ok (10 cases)"
exit "$fail"
