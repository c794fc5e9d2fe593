# xla-backend.sh — sourced by the long runs (lab-results.sh,
# model-results.sh): unless GOMLX_BACKEND is set, choose XLA's CPU plugin
# when one is found (XLA_PLUGIN_DIR, else the test plugin scripts/xla-test.sh
# installs into .tools/xla-cpu-test), else the pure-Go backend, saying so.
#
# Usage: . scripts/xla-backend.sh NAME SLOWER   (NAME: the caller, for the
# message; SLOWER: how much slower the Go backend is, e.g. "several times")
xla_backend() {
	local name=$1 slower=$2 root
	root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	local dir=${XLA_PLUGIN_DIR:-$root/.tools/xla-cpu-test}
	[ -z "${GOMLX_BACKEND:-}" ] || return 0
	if [ -e "$dir/pjrt_c_api_cpu_plugin.so" ]; then
		export PJRT_PLUGIN_LIBRARY_PATH=$dir GOMLX_BACKEND=xla:cpu
	else
		echo "$name: no XLA CPU plugin in $dir (make xla-test installs one); running on the Go backend, $slower slower" >&2
		export GOMLX_BACKEND=go
	fi
}
xla_backend "$@"
