#!/usr/bin/env bash
# xla-test.sh — runs the GoMLX graph layer's tests, SmolLM2's logits against
# Hugging Face's and lesson 11's notebook (whose cells run live only on XLA)
# on XLA's CPU PJRT plugin (GOMLX_BACKEND=xla:cpu), for make test.
# --notebooks runs every notebook on it instead (make xla-notebooks).
#
# The plugin: XLA_PLUGIN_DIR when set (a folder holding
# pjrt_c_api_cpu_plugin.so, such as ~/.local/lib/go-xla after make xla, which
# is what CI with the internet uses); otherwise a test-only copy of XLA's CPU
# plugin that a package on the Python package index ships, pinned below by
# version and sha256, unpacked into .tools/xla-cpu-test. This project's
# machines cannot reach go-xla's official plugin (GitHub); learners and the
# image still get that one (make xla, cmd/xla-install).
#
#   lammps-jax-pjrt-cpu 0.11.2: XLA's PJRT CPU plugin built from the XLA of
#   jaxlib 0.11.2 (PJRT C API 0.115; go-xla v0.4.5, like v0.4.1, is built against 0.104
#   and its default plugin, v0.114.0, implements 0.114). Wheels for
#   linux x86_64 only: elsewhere this script says so and skips.
#
# --bench: instead of the tests, cmd/xla-check on the same plugin: host/graph
# agreement, posgraph.ApplyRoPE against GoMLX's pos.RoPE in time, training
# steps per second (make bench).
# --notebooks: instead of the tests, every notebook on xla:cpu (about 4 min
# on 2 idle cores, 264 s for lessons 1–10 and 117 s for lesson 11 in one
# run); make test leaves lessons 1–10 to the browser check's Run All on the
# pure-Go backend, which compares every output with the committed one.
# --plugin-dir: instead, print the plugin's folder (installing the test
# plugin first where needed) and nothing else on stdout, for a command to
# run on it: PJRT_PLUGIN_LIBRARY_PATH=$(scripts/xla-test.sh --plugin-dir)
# (make bench's lab and model benchmarks).
#
# Environment: XLA_PLUGIN_DIR, COURSE_TOOLS, GO.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOLS=${COURSE_TOOLS:-$ROOT/.tools}
GO=${GO:-go}

WHEEL_NAME=lammps-jax-pjrt-cpu
WHEEL_VERSION=0.11.2
WHEEL_FILE=lammps_jax_pjrt_cpu-0.11.2-py3-none-manylinux_2_27_x86_64.whl
WHEEL_SHA256=1319390d948b39f69f7dade496b7c385149d9ca6097a6b62114da113216d9ad1
WHEEL_PLUGIN=lammps_jax_pjrt_cpu/pjrt_c_api_cpu_plugin.so

# The tests of pkg/smollm/experiments.go (lesson 11's cells on the real
# model): minutes on two cores, so make test leaves them to
# make model-experiments (xla-test.sh --experiments).
SMOLLM_EXPERIMENTS='Experiment|ProbeLayers|PositionPrecision|DynamicNTKStaleCache|ShortPromptCost'
# The growing cache against the whole-capacity path it replaced, and key
# blocks against the whole scores: backend independent, so make test runs
# them on the pure-Go backend only (35 s and 30 s here; on XLA the second
# compiles for 100 s: go test -run KeyBlocks ./pkg/smollm runs it there;
# TestCacheMatchesPrefill checks the XLA-only cache write, and
# TestLogitsMatchHuggingFace runs in key blocks of 512 and 96 on both).
SMOLLM_GO_ONLY='GrowingCacheMatchesWholeCapacity|KeyBlocksMatchWholeScores'

bench=0
experiments=0
notebooks=0
plugin_dir=0
case "${1:-}" in
--bench) bench=1 ;;
--experiments) experiments=1 ;;
--notebooks) notebooks=1 ;;
--plugin-dir) plugin_dir=1 ;;
"") ;;
*)
	echo "usage: xla-test.sh [--bench | --experiments | --notebooks | --plugin-dir]" >&2
	exit 2
	;;
esac

say() { printf 'xla-test: %s\n' "$*"; }
if [ "$plugin_dir" = 1 ]; then
	exec 3>&1 1>&2 # stdout is the folder's alone; everything else to stderr
fi
die() {
	printf 'xla-test: %s\n' "$*" >&2
	exit 1
}

# install_test_plugin unpacks the pinned wheel's plugin into $1, downloading
# the wheel with pip, which checks it against WHEEL_SHA256.
install_test_plugin() {
	local dir=$1 stamp="$1/.wheel"
	if [ -f "$dir/pjrt_c_api_cpu_plugin.so" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$WHEEL_SHA256" ]; then
		return 0
	fi
	local pip=()
	for py in python3 /usr/bin/python3; do
		if "$py" -m pip --version >/dev/null 2>&1; then
			pip=("$py" -m pip)
			break
		fi
	done
	if [ ${#pip[@]} -eq 0 ]; then
		/usr/bin/python3 -m venv "$TOOLS/xla-test-venv" || die "no pip here, and /usr/bin/python3 cannot make a virtual environment (apt-get install python3-venv)"
		pip=("$TOOLS/xla-test-venv/bin/python" -m pip)
	fi
	local tmp
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' RETURN
	printf '%s==%s --hash=sha256:%s\n' "$WHEEL_NAME" "$WHEEL_VERSION" "$WHEEL_SHA256" >"$tmp/req.txt"
	say "downloading $WHEEL_NAME $WHEEL_VERSION (63 MB, sha256-checked) for XLA's CPU plugin"
	"${pip[@]}" download --disable-pip-version-check -q --no-deps --only-binary :all: \
		--platform manylinux_2_27_x86_64 --require-hashes -r "$tmp/req.txt" -d "$tmp" ||
		die "pip download of $WHEEL_NAME==$WHEEL_VERSION failed (is the Python package index reachable?)"
	[ -f "$tmp/$WHEEL_FILE" ] || die "pip downloaded $(ls "$tmp"), not $WHEEL_FILE"
	mkdir -p "$dir"
	/usr/bin/python3 - "$tmp/$WHEEL_FILE" "$WHEEL_PLUGIN" "$dir/pjrt_c_api_cpu_plugin.so" <<'EOF'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3] + ".tmp", "wb") as dst:
    shutil.copyfileobj(src, dst)
EOF
	mv "$dir/pjrt_c_api_cpu_plugin.so.tmp" "$dir/pjrt_c_api_cpu_plugin.so"
	printf '%s\n' "$WHEEL_SHA256" >"$stamp"
}

dir=${XLA_PLUGIN_DIR:-}
if [ -z "$dir" ]; then
	if [ "$(uname -s)/$(uname -m)" != Linux/x86_64 ]; then
		say "skipped: the test plugin ($WHEEL_NAME) is built for linux x86_64 only; give XLA_PLUGIN_DIR (make xla installs one)"
		exit "$plugin_dir" # --plugin-dir has no folder to print: a failure
	fi
	if [ "$("$GO" env CGO_ENABLED)" != 1 ]; then
		die "cgo is off (CGO_ENABLED=0): XLA needs it, and a C compiler"
	fi
	dir=$TOOLS/xla-cpu-test
	install_test_plugin "$dir"
fi
[ -e "$dir/pjrt_c_api_cpu_plugin.so" ] || die "no pjrt_c_api_cpu_plugin.so in XLA_PLUGIN_DIR=$dir (make xla installs one into ~/.local/lib/go-xla)"
export PJRT_PLUGIN_LIBRARY_PATH=$dir GOMLX_BACKEND=xla:cpu

cd "$ROOT"
# The check cmd/xla-install makes before installing a plugin: this
# system's C and C++ runtime libraries define every version it needs.
"$GO" run ./cmd/xla-install -runtime-check "$dir/pjrt_c_api_cpu_plugin.so" | sed 's/^/xla-test: /'

if [ "$experiments" = 1 ]; then
	say "the real-model experiments on xla:cpu ($dir)"
	exec "$GO" test -count=1 -v -run "$SMOLLM_EXPERIMENTS" ./pkg/smollm
fi
if [ "$plugin_dir" = 1 ]; then
	printf '%s\n' "$dir" >&3
	exit 0
fi
if [ "$bench" = 1 ]; then
	say "cmd/xla-check on xla:cpu ($dir)"
	exec "$GO" run ./cmd/xla-check
fi
if [ "$notebooks" = 1 ]; then
	say "every notebook on xla:cpu"
	exec "$GO" run ./cmd/course -backend xla:cpu run
fi
# The graph layer.
say "go test ./pkg/posgraph/... on xla:cpu ($dir)"
"$GO" test -count=1 ./pkg/posgraph/...

# The attention kernel inside XLA's graphs (it skips on a CPU without
# AVX-512, where the model's attention stays GoMLX's own).
say "go test ./pkg/cpuattention on xla:cpu ($dir)"
"$GO" test -count=1 -v ./pkg/cpuattention 2>&1 | grep -E '^(--- |ok|FAIL|panic)|SKIP'

# SmolLM2-135M against Hugging Face's logits, 512 tokens (make model fetched
# it; the tests skip without it, and fail without it on CI). The
# experiments behind lesson 11's cells take minutes more: make
# model-experiments runs them.
say "go test ./pkg/smollm on xla:cpu ($dir), experiments apart"
"$GO" test -count=1 -skip "$SMOLLM_EXPERIMENTS|$SMOLLM_GO_ONLY" ./pkg/smollm

# Lesson 11, whose cells run live here and are compared with their
# committed records (on the pure-Go backend they show those records).
say "lesson 11's notebook on xla:cpu"
"$GO" run ./cmd/course -backend xla:cpu run 11
