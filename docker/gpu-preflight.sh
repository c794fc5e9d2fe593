#!/usr/bin/env bash
# gpu-preflight.sh (posenc-gpu-preflight in the image) — when GOMLX_BACKEND
# asks for CUDA, checks that an NVIDIA GPU is visible and that CUDA 13 can
# run on it: NVIDIA driver 580 or newer, compute capability 7.5 or higher.
# It prints one line: what it found, or what is wrong and what to do, and
# exits 0 when the GPU is usable or not asked for, 1 otherwise.
#
# docker/start.sh runs it before starting Jupyter; the learner can run it
# too. Environment: GOMLX_BACKEND; NVIDIA_SMI, the nvidia-smi to run (tests).
set -uo pipefail

NVIDIA_SMI=${NVIDIA_SMI:-nvidia-smi}
MIN_DRIVER=580 # CUDA 13.0 and later (NVIDIA's CUDA Toolkit release notes)
MIN_CC=75      # compute capability 7.5 (Turing): the oldest CUDA 13 supports

backend=${GOMLX_BACKEND:-}
case "$backend" in
xla:cuda* | cuda*) ;;
*) exit 0 ;;
esac
instead="to run without it, set GOMLX_BACKEND=xla:cpu (XLA on the CPU) or GOMLX_BACKEND=go"

fail() {
	printf 'posenc-gpu-preflight: GOMLX_BACKEND=%s, but %s; %s\n' "$backend" "$1" "$instead"
	exit 1
}

if ! command -v "$NVIDIA_SMI" >/dev/null 2>&1; then
	fail "no NVIDIA GPU is visible in the container (no nvidia-smi): start it with the GPU (docker compose --profile gpu up course-gpu, or docker run --gpus all) on a host with the NVIDIA driver and the NVIDIA Container Toolkit"
fi
# compute_cap is a field of nvidia-smi from driver 510 on; older ones are
# too old for CUDA 13 anyway, and are asked for the driver version alone.
if ! out=$("$NVIDIA_SMI" --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>/dev/null) &&
	! out=$("$NVIDIA_SMI" --query-gpu=name,driver_version --format=csv,noheader 2>&1); then
	fail "nvidia-smi failed ($(printf '%s' "$out" | head -n1)): the NVIDIA driver does not answer"
fi
[ -n "$out" ] || fail "nvidia-smi lists no GPU"

found=()
while IFS=, read -r name driver cc; do
	name=$(printf '%s' "$name" | sed 's/^ *//;s/ *$//')
	driver=$(printf '%s' "$driver" | tr -d ' ')
	cc=$(printf '%s' "${cc:-}" | tr -d ' ')
	major=${driver%%.*}
	if ! [[ "$major" =~ ^[0-9]+$ ]]; then
		fail "nvidia-smi gave no driver version for $name (\"$driver\")"
	fi
	if [ "$major" -lt "$MIN_DRIVER" ]; then
		fail "the NVIDIA driver is $driver and CUDA 13 needs $MIN_DRIVER or newer: update the host's driver"
	fi
	if [[ "$cc" =~ ^([0-9]+)\.([0-9])$ ]]; then
		if [ $((BASH_REMATCH[1] * 10 + BASH_REMATCH[2])) -lt "$MIN_CC" ]; then
			fail "$name has compute capability $cc and CUDA 13 needs 7.5 or higher"
		fi
	fi
	found+=("$name (compute capability ${cc:-?})")
	drivers=$driver
done <<<"$out"

printf 'posenc-gpu-preflight: %s, NVIDIA driver %s: CUDA 13 can run\n' "$(printf '%s; ' "${found[@]}" | sed 's/; $//')" "$drivers"
