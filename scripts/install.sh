#!/usr/bin/env bash
# install.sh — installs what the course needs to run its notebooks, pinned and
# idempotent: a second run checks, prints "ok" lines and changes nothing.
#
# Steps (default: --apt --gonb --lab):
#   --apt    Jupyter from the OS packages (Debian/Ubuntu): jupyter-notebook,
#            jupyter-nbconvert, python3-nbclient, ... Pinned to Debian 12's
#            versions on Debian 12. Installed with apt-get when run as root;
#            otherwise the exact command is printed and the script fails.
#   --gonb   GoNB v0.11.3, goimports and gopls v0.23.0, built from the pinned
#            tools/ module into .tools/bin, and the "gonb" Jupyter kernel
#            registered (gonb --install) with .tools/bin and Go on its PATH.
#   --lab    JupyterLab (pinned) from the Python package index into
#            .tools/venv, only when an index is reachable; skipped with a
#            message otherwise (make lab then uses Jupyter Notebook).
#   --xla    only when asked (it downloads; not part of the default or --all):
#            XLA's PJRT CPU plugin, pinned and checked against the sha256
#            recorded in cmd/xla-install/sha256.txt, via go run
#            ./cmd/xla-install, into ~/.local/lib/go-xla. XLA_PLUGIN=cuda for
#            the CUDA one (wheels locked in cmd/xla-install/cuda13/), XLA_DIR
#            for another folder, XLA_SHA256 to give the archive's sum,
#            XLA_REQUIRE_SHA256=1 to refuse an archive whose sum is unrecorded.
# Options:
#   --dry-run  print what would be done; change nothing
#   -h, --help
#
# Environment:
#   COURSE_TOOLS      where tools go (default: <repo>/.tools)
#   JUPYTER_DATA_DIR  where the kernel is registered (default: Jupyter's user
#                     data folder, ~/.local/share/jupyter)
#   PIP_INDEX_URL     the Python package index to use for --lab
#   COURSE_DPKG_QUERY, COURSE_UID  test hooks: a dpkg-query stand-in and the
#                     user id to act as (to exercise the install paths)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOLS=${COURSE_TOOLS:-$ROOT/.tools}

# Pins. Debian 12 (bookworm) versions: `apt-cache policy <package>`.
APT_PACKAGES=(
	"jupyter-notebook=6.4.12-2.2"
	"jupyter-nbconvert=6.5.3-3"
	"python3-nbclient=0.7.2-1"
	"python3-nbformat=5.5.0-1"
	"python3-jupyter-client=7.4.9-2"
	"python3-ipykernel=6.17.0-1"
)
VENV_PACKAGE="python3-venv=3.11.2-1+b1"
JUPYTERLAB_VERSION=4.6.6
GONB_VERSION=v0.11.3 # also in tools/go.mod, which is what gets built
GOPLS_VERSION=v0.23.0

DRY_RUN=0
STEPS=()
DPKG_QUERY=${COURSE_DPKG_QUERY:-dpkg-query}
USER_ID=${COURSE_UID:-$(id -u)}

say() { printf '%s\n' "$*"; }
ok() { printf 'ok    %s\n' "$*"; }
act() { printf 'do    %s\n' "$*"; }
skip() { printf 'skip  %s\n' "$*"; }
die() {
	printf 'install.sh: %s\n' "$*" >&2
	exit 1
}

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; }

for arg in "$@"; do
	case "$arg" in
	--apt | --gonb | --lab | --xla) STEPS+=("${arg#--}") ;;
	--all) STEPS+=(apt gonb lab) ;;
	--dry-run) DRY_RUN=1 ;;
	-h | --help)
		usage
		exit 0
		;;
	*)
		printf 'install.sh: unknown argument %q (see --help)\n' "$arg" >&2
		exit 2
		;;
	esac
done
[ ${#STEPS[@]} -gt 0 ] || STEPS=(apt gonb lab)

# run prints a command and runs it, unless this is a dry run.
run() {
	if [ "$DRY_RUN" = 1 ]; then
		say "would run: $*"
	else
		act "$*"
		"$@"
	fi
}

os_codename() { (. /etc/os-release 2>/dev/null && printf '%s' "${VERSION_CODENAME:-}") || true; }

# system_python is the Python that Debian's Jupyter packages belong to.
system_python() {
	if [ -x /usr/bin/python3 ]; then printf /usr/bin/python3; else command -v python3 || true; fi
}

# apt_install installs packages given as name=version: pinned on Debian 12,
# by name elsewhere. As non-root it prints the command and fails.
apt_install() {
	local specs=("$@") names=() s
	for s in "${specs[@]}"; do names+=("${s%%=*}"); done
	if [ "$(os_codename)" != bookworm ]; then
		specs=("${names[@]}") # the pins are Debian 12's versions
	fi
	local cmd="apt-get install -y --no-install-recommends ${specs[*]}"
	if ! command -v apt-get >/dev/null 2>&1; then
		die "no apt-get here: install Jupyter Notebook, nbconvert and nbclient with your system's package manager (or pip), then rerun; the course runs them with $(system_python)"
	fi
	if [ "$USER_ID" != 0 ]; then
		if [ "$DRY_RUN" = 1 ]; then
			say "would need root for: apt-get update && $cmd"
			return 0
		fi
		printf 'install.sh: missing packages: %s\nRun as root, then rerun this script:\n  sudo apt-get update && sudo %s\n' "${names[*]}" "$cmd" >&2
		exit 1
	fi
	if [ "$DRY_RUN" = 1 ]; then
		say "would run: apt-get update && $cmd"
		return 0
	fi
	export DEBIAN_FRONTEND=noninteractive
	run apt-get update -qq
	if ! run apt-get install -y -qq --no-install-recommends "${specs[@]}"; then
		if [ "${specs[*]}" != "${names[*]}" ]; then
			say "warn  the pinned versions are no longer in the archive; installing Debian 12's current ones"
			run apt-get install -y -qq --no-install-recommends "${names[@]}"
		else
			die "apt-get install failed"
		fi
	fi
}

step_apt() {
	if ! command -v "$DPKG_QUERY" >/dev/null 2>&1; then
		# Not a Debian system: accept any Python that has Jupyter's nbclient.
		if "$(system_python)" -c 'import nbclient, nbformat, jupyter_client, notebook' 2>/dev/null; then
			ok "Jupyter (not Debian; $(system_python) has nbclient and notebook)"
			return 0
		fi
		die "not a Debian/Ubuntu system: install Jupyter Notebook, nbconvert and nbclient for $(system_python) (e.g. with pip), then rerun"
	fi
	local missing=() have=() spec name want got
	for spec in "${APT_PACKAGES[@]}"; do
		name=${spec%%=*} want=${spec#*=}
		got=$("$DPKG_QUERY" -W -f='${db:Status-Status} ${Version}' "$name" 2>/dev/null || true)
		if [ "${got%% *}" = installed ]; then
			have+=("$name ${got#* }")
			if [ "${got#* }" != "$want" ] && [ "$(os_codename)" = bookworm ]; then
				say "note  $name ${got#* } is installed (pin: $want); keeping it"
			fi
		else
			missing+=("$spec")
		fi
	done
	if [ ${#missing[@]} -eq 0 ]; then
		ok "Jupyter packages: $(printf '%s, ' "${have[@]}" | sed 's/, $//')"
		return 0
	fi
	apt_install "${missing[@]}"
	[ "$DRY_RUN" = 1 ] || ok "Jupyter packages installed"
}

# tools_stamp identifies the tools build: pins and Go version.
tools_stamp() {
	cat "$ROOT/tools/go.mod" "$ROOT/tools/go.sum"
	go env GOVERSION GOOS GOARCH
}

kernel_dir() {
	local data=${JUPYTER_DATA_DIR:-}
	if [ -z "$data" ]; then
		case "$(uname -s)" in
		Darwin) data=$HOME/Library/Jupyter ;;
		*) data=${XDG_DATA_HOME:-$HOME/.local/share}/jupyter ;;
		esac
	fi
	printf '%s/kernels/gonb' "$data"
}

json_string() {
	local s=${1//\\/\\\\}
	printf '"%s"' "${s//\"/\\\"}"
}

# kernel_json is the kernel spec the course registers: GoNB from .tools/bin,
# with .tools/bin (goimports, gopls) and Go's bin folder first on its PATH
# (Jupyter substitutes ${PATH} from the server's environment).
kernel_json() {
	local goroot
	goroot=$(go env GOROOT)
	printf '{"argv":[%s,"--kernel","{connection_file}"],"display_name":"Go (gonb)","language":"go","interrupt_mode":"message","env":{"PATH":%s}}\n' \
		"$(json_string "$TOOLS/bin/gonb")" "$(json_string "$TOOLS/bin:$goroot/bin:\${PATH}")"
}

step_gonb() {
	command -v go >/dev/null 2>&1 || die "Go is not on PATH: install Go 1.26 or later (https://go.dev/dl/), then rerun"
	local gover
	gover=$(go env GOVERSION)
	case "$gover" in
	go1.2[6-9]* | go1.[3-9][0-9]* | go[2-9]*) ;;
	*) die "gopls $GOPLS_VERSION needs Go 1.26 or later; this is $gover" ;;
	esac

	local bin=$TOOLS/bin stamp
	stamp=$(tools_stamp | sha256sum | cut -c1-16)
	if [ -x "$bin/gonb" ] && [ -x "$bin/goimports" ] && [ -x "$bin/gopls" ] &&
		[ "$(cat "$bin/.stamp" 2>/dev/null)" = "$stamp" ]; then
		ok "GoNB $GONB_VERSION, goimports, gopls $GOPLS_VERSION in ${bin#"$ROOT"/}"
	else
		# `go install github.com/janpfeifer/gonb@version` fails: the module
		# proxy refuses gonb's version list. tools/go.mod requires it instead.
		if [ "$DRY_RUN" = 1 ]; then
			say "would run: (cd tools && GOBIN=$bin go install tool)   # gonb, goimports, gopls"
		else
			mkdir -p "$bin"
			act "building GoNB $GONB_VERSION, goimports, gopls $GOPLS_VERSION into ${bin#"$ROOT"/} (a minute or two the first time)"
			(cd "$ROOT/tools" && GOBIN=$bin GOFLAGS=-mod=readonly go install tool)
			printf '%s\n' "$stamp" >"$bin/.stamp"
		fi
	fi

	local kdir want
	kdir=$(kernel_dir)
	want=$(kernel_json)
	if [ "$(cat "$kdir/kernel.json" 2>/dev/null)" = "$want" ] && [ -f "$kdir/logo-svg.svg" ]; then
		ok "gonb kernel registered in $kdir"
		return 0
	fi
	if [ "$DRY_RUN" = 1 ]; then
		say "would run: (cd $bin && PATH=$bin:\$PATH ./gonb --install) and write $kdir/kernel.json with PATH=$bin:\$(go env GOROOT)/bin:\${PATH}"
		return 0
	fi
	# Run as ./gonb: GoNB copies a binary it was started from under /tmp into
	# the kernel folder, and that copy would go stale after a rebuild.
	act "registering the gonb kernel in $kdir"
	local out
	if ! out=$(cd "$bin" && JUPYTER_DATA_DIR=$(dirname "$(dirname "$kdir")") PATH="$bin:$PATH" ./gonb --install 2>&1); then
		printf '%s\n' "$out" >&2
		die "gonb --install failed"
	fi
	printf '%s\n' "$want" >"$kdir/kernel.json"
	ok "gonb kernel registered in $kdir"
}

# index_url returns the Python package index pip would use.
index_url() {
	local url=${PIP_INDEX_URL:-}
	if [ -z "$url" ]; then
		url=$("$(system_python)" -m pip config get global.index-url 2>/dev/null || true)
	fi
	printf '%s' "${url:-https://pypi.org/simple}"
}

index_reachable() {
	"$(system_python)" - "$1" <<'EOF' 2>/dev/null
import sys, urllib.request
try:
    urllib.request.urlopen(sys.argv[1].rstrip("/") + "/jupyterlab/", timeout=8).close()
except Exception:
    sys.exit(1)
EOF
}

step_lab() {
	local venv=$TOOLS/venv
	if [ -x "$venv/bin/jupyter-lab" ] &&
		[ "$("$venv/bin/python" -c 'import jupyterlab; print(jupyterlab.__version__)' 2>/dev/null)" = "$JUPYTERLAB_VERSION" ]; then
		ok "JupyterLab $JUPYTERLAB_VERSION in ${venv#"$ROOT"/}"
		return 0
	fi
	local url
	url=$(index_url)
	if ! index_reachable "$url"; then
		skip "JupyterLab: the Python package index ($url) is not reachable; make lab will use Jupyter Notebook"
		return 0
	fi
	local py
	py=$(system_python)
	if ! "$py" -c 'import ensurepip, venv' 2>/dev/null; then
		if [ "$USER_ID" != 0 ] && [ "$DRY_RUN" != 1 ]; then
			skip "JupyterLab: $py cannot make a virtual environment; as root: apt-get install -y ${VENV_PACKAGE%%=*}, then rerun"
			return 0
		fi
		apt_install "$VENV_PACKAGE"
	fi
	if [ "$DRY_RUN" = 1 ]; then
		say "would run: $py -m venv $venv && $venv/bin/pip install jupyterlab==$JUPYTERLAB_VERSION   # from $url"
		return 0
	fi
	act "installing JupyterLab $JUPYTERLAB_VERSION into ${venv#"$ROOT"/} from $url"
	if "$py" -m venv "$venv" &&
		"$venv/bin/pip" install --disable-pip-version-check -q --index-url "$url" "jupyterlab==$JUPYTERLAB_VERSION"; then
		ok "JupyterLab $JUPYTERLAB_VERSION in ${venv#"$ROOT"/}"
	else
		# JupyterLab is a comfort, not a need: Jupyter Notebook runs the course.
		rm -rf "$venv"
		skip "JupyterLab: installing it failed (see above); make lab will use Jupyter Notebook"
	fi
}

# step_xla installs an XLA PJRT plugin with cmd/xla-install, which pins its
# version and says what it downloads; it is idempotent.
step_xla() {
	command -v go >/dev/null 2>&1 || die "Go is not on PATH: install Go 1.26 or later (https://go.dev/dl/), then rerun"
	local args=(-plugin "${XLA_PLUGIN:-cpu}")
	[ -z "${XLA_DIR:-}" ] || args+=(-dir "$XLA_DIR")
	[ -z "${XLA_SHA256:-}" ] || args+=(-sha256 "$XLA_SHA256")
	[ "$DRY_RUN" != 1 ] || args+=(-dry-run)
	act "go run ./cmd/xla-install ${args[*]}"
	(cd "$ROOT" && go run ./cmd/xla-install "${args[@]}")
}

[ "$DRY_RUN" = 1 ] && say "dry run: nothing will be changed"
for s in "${STEPS[@]}"; do
	"step_$s"
done
