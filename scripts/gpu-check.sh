#!/usr/bin/env bash
# gpu-check.sh — checks the course's GoMLX layer on an NVIDIA GPU through XLA's
# PJRT CUDA plugin (GOMLX_BACKEND=xla:cuda), in two halves that may run on
# different machines:
#
#   scripts/gpu-check.sh build [DIR]  on a machine with Go and a C compiler:
#                                     builds into DIR (default .gpu-check) the
#                                     test binary of pkg/posgraph and
#                                     cmd/xla-check (cgo, XLA linked in), and
#                                     pkg/lab's test binary when there is one
#   scripts/gpu-check.sh run [DIR]    on the GPU machine (no Go needed): runs
#                                     them and prints the report
#   scripts/gpu-check.sh [DIR]        both, on one machine
#
# The report: the GPU and its driver (docker/gpu-preflight.sh), where the
# plugin came from, the graph tests passed, host/graph agreement, posgraph's
# RoPE against GoMLX's pos.RoPE in time, training steps per second, and the
# versions of the JAX/NVIDIA packages used. It finishes in under 5 minutes.
#
# The plugin, first found of:
#   1. GPU_CHECK_PLUGIN: the path of a PJRT CUDA plugin (.so);
#   2. go-xla's layout: pjrt_c_api_cuda_plugin.so in $PJRT_PLUGIN_LIBRARY_PATH,
#      ~/.local/lib/go-xla/nvidia or /usr/local/lib/go-xla/nvidia
#      (what cmd/xla-install -plugin cuda and the cuda image install);
#   3. a Python environment with jax-cuda13-pjrt (GPU_CHECK_PYTHON, else the
#      python3 on PATH): its jax_plugins/xla_cuda13/xla_cuda_plugin.so with
#      the NVIDIA libraries of its site-packages/nvidia, arranged in go-xla's
#      layout in a temporary folder (links, and a copy of the plugin), so the
#      run exercises the layout the image has.
#
# Environment: GPU_CHECK_PLUGIN, GPU_CHECK_PYTHON, OUT (when set, the report
# is also written to $OUT/gpu-check.txt), GPU_CHECK_STEPS (training steps,
# default 300), GPU_CHECK_SHAPE (RoPE input, default 4x32x4096x128).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=both
case "${1:-}" in
build | run)
	mode=$1
	shift
	;;
esac
DIR=${1:-$ROOT/.gpu-check}
[[ "$DIR" = /* ]] || DIR=$PWD/$DIR

say() { printf 'gpu-check: %s\n' "$*"; }
die() {
	printf 'gpu-check: %s\n' "$*" >&2
	exit 1
}

build() {
	command -v go >/dev/null 2>&1 || die "build needs Go (and a C compiler for cgo)"
	[ "$(go env CGO_ENABLED)" = 1 ] || die "cgo is off: XLA needs CGO_ENABLED=1 and a C compiler"
	mkdir -p "$DIR"
	rm -f "$DIR"/*.test "$DIR/xla-check"
	cd "$ROOT"
	local flags=(-trimpath -ldflags=-s\ -w)
	go test -c "${flags[@]}" -o "$DIR/posgraph.test" ./pkg/posgraph
	go build "${flags[@]}" -o "$DIR/xla-check" ./cmd/xla-check
	if [ -d pkg/lab ]; then
		go test -c "${flags[@]}" -o "$DIR/lab.test" ./pkg/lab
	fi
	{
		echo "built $(date -u +%Y-%m-%dT%H:%MZ) by $(go version) for $(go env GOOS)/$(go env GOARCH)"
		echo "commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' (with local changes)')"
	} >"$DIR/BUILD"
	say "built in ${DIR#"$ROOT"/}: $(cd "$DIR" && ls | tr '\n' ' ')($(du -sh "$DIR" | cut -f1))"
}

# python_plugin prints the folder of jax-cuda13-pjrt's plugin in the Python
# environment, if it has one.
python_plugin() {
	local py=${GPU_CHECK_PYTHON:-python3}
	command -v "$py" >/dev/null 2>&1 || return 1
	"$py" - <<'EOF' 2>/dev/null
import importlib.util, os
spec = importlib.util.find_spec("jax_plugins.xla_cuda13")
print(os.path.dirname(spec.origin))
EOF
}

# layout arranges a jax-cuda13-pjrt plugin ($1) and the NVIDIA libraries of
# its site-packages in go-xla's layout under $2/nvidia, and prints that
# folder.
layout() {
	local plugin=$1 nv=$2/nvidia site
	site=$(cd "$(dirname "$plugin")/../.." && pwd)
	[ -d "$site/nvidia" ] || die "no nvidia/ folder in $site next to $plugin: install jax-cuda13-plugin[with-cuda]"
	mkdir -p "$nv/bin"
	# $ORIGIN in the plugin's RPATH is the folder it is loaded from: a copy
	# (or hard link), not a symbolic link.
	ln "$plugin" "$nv/pjrt_c_api_cuda_plugin.so" 2>/dev/null || cp "$plugin" "$nv/pjrt_c_api_cuda_plugin.so"
	local d
	for d in "$site"/nvidia/*/; do
		d=${d%/}
		[ -e "$nv/$(basename "$d")" ] || ln -s "$d" "$nv/$(basename "$d")"
	done
	[ ! -x "$nv/cu13/bin/ptxas" ] || ln -sf ../cu13/bin/ptxas "$nv/bin/ptxas"
	[ ! -d "$nv/cu13/nvvm" ] || [ -e "$nv/nvvm" ] || ln -s cu13/nvvm "$nv/nvvm"
	printf '%s\n' "$nv"
}

run_checks() {
	[ -x "$DIR/posgraph.test" ] && [ -x "$DIR/xla-check" ] ||
		die "no test binaries in $DIR: run scripts/gpu-check.sh build $DIR on a machine with Go first"
	local start=$SECONDS
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	say "binaries: $(head -n1 "$DIR/BUILD" 2>/dev/null); $(sed -n 2p "$DIR/BUILD" 2>/dev/null)"
	GOMLX_BACKEND=xla:cuda "$ROOT/docker/gpu-preflight.sh" || die "no usable GPU (above)"
	nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv,noheader | sed 's/^/gpu-check: nvidia-smi: /'

	local backend=xla:cuda where=""
	if [ -n "${GPU_CHECK_PLUGIN:-}" ]; then
		where=$(layout "$GPU_CHECK_PLUGIN" "$tmp")
		say "plugin: GPU_CHECK_PLUGIN=$GPU_CHECK_PLUGIN, laid out in go-xla's layout at $where"
	else
		local d
		for d in ${PJRT_PLUGIN_LIBRARY_PATH//:/ } "$HOME/.local/lib/go-xla/nvidia" /usr/local/lib/go-xla/nvidia; do
			if [ -f "$d/pjrt_c_api_cuda_plugin.so" ]; then
				where=$d
				say "plugin: go-xla's layout at $where"
				break
			fi
		done
		if [ -z "$where" ]; then
			local pydir
			pydir=$(python_plugin) || die "no PJRT CUDA plugin: none in go-xla's folders, and ${GPU_CHECK_PYTHON:-python3} has no jax-cuda13-pjrt (set GPU_CHECK_PLUGIN, or install it: XLA_PLUGIN=cuda scripts/install.sh --xla)"
			[ -f "$pydir/xla_cuda_plugin.so" ] || die "no xla_cuda_plugin.so in $pydir"
			where=$(layout "$pydir/xla_cuda_plugin.so" "$tmp")
			say "plugin: $pydir/xla_cuda_plugin.so (jax-cuda13-pjrt of ${GPU_CHECK_PYTHON:-python3}), NVIDIA libraries of its site-packages, in go-xla's layout at $where"
			"${GPU_CHECK_PYTHON:-python3}" -m pip list 2>/dev/null | grep -Ei '^(jax|jaxlib|jax-cuda13|nvidia-)' | awk '{printf "%s==%s ", $1, $2} END {print ""}' | sed 's/^/gpu-check: packages: /' || true
		fi
	fi
	export PJRT_PLUGIN_LIBRARY_PATH=$where GOMLX_BACKEND=$backend

	say "graph tests: posgraph.test on $backend ..."
	local log=$tmp/posgraph.log status=0
	(cd "$ROOT/pkg/posgraph" && timeout 170 "$DIR/posgraph.test" -test.v -test.count=1 -test.timeout=160s) >"$log" 2>&1 || status=$?
	local pass fail skip
	pass=$(grep -c '^--- PASS' "$log" || true)
	fail=$(grep -c '^--- FAIL' "$log" || true)
	skip=$(grep -c '^--- SKIP' "$log" || true)
	say "graph tests: $pass passed, $fail failed, $skip skipped (top-level tests of pkg/posgraph on $backend; exit status $status)"
	if [ "$status" != 0 ]; then
		grep -E '^(--- FAIL|panic|FAIL|\s+\S+_test.go:[0-9]+:)' "$log" | head -30 | sed 's/^/gpu-check:   /'
	fi

	say "xla-check on $backend ..."
	timeout 100 "$DIR/xla-check" -steps "${GPU_CHECK_STEPS:-300}" -shape "${GPU_CHECK_SHAPE:-4x32x4096x128}" 2>&1 | sed 's/^xla-check: /gpu-check: /' || status=1

	if [ -x "$DIR/lab.test" ]; then
		say "lab: lab.test on $backend ..."
		# The lab's own small model, then the larger one cmd/lab trains by
		# default on XLA (lab.XLAConfig).
		local cfg
		for cfg in default xla; do
			(cd "$ROOT/pkg/lab" && LAB_BENCH_CONFIG=$cfg timeout 100 "$DIR/lab.test" -test.count=1 -test.run '^$' -test.bench TrainStep -test.benchtime 20x) 2>&1 |
				grep -E 'Benchmark|ok|FAIL' | sed "s/^/gpu-check: lab ($cfg model): /" || status=1
		done
	else
		say "lab: no pkg/lab in this build (its training is measured by xla-check above)"
	fi
	say "done in $((SECONDS - start)) s; $([ "$status" = 0 ] && echo 'all checks passed' || echo 'SOME CHECKS FAILED')"
	return "$status"
}

report() {
	if [ -n "${OUT:-}" ]; then
		mkdir -p "$OUT"
		run_checks 2>&1 | tee "$OUT/gpu-check.txt"
		return "${PIPESTATUS[0]}"
	fi
	run_checks
}

case "$mode" in
build) build ;;
run) report ;;
both)
	build
	report
	;;
esac
