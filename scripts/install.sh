#!/usr/bin/env bash
# install.sh — installs what the course needs to run its notebooks, pinned and
# idempotent: a second run checks, prints "ok" lines and changes nothing.
#
# Steps (default: --apt --gonb --lab --trust):
#   --apt      Jupyter from the OS packages (Debian/Ubuntu): jupyter-notebook,
#              jupyter-nbconvert, python3-nbclient, ... Pinned to Debian 12's
#              versions on Debian 12. Installed with apt-get when run as root;
#              otherwise the exact command is printed and the script fails.
#   --gonb     GoNB v0.11.5, goimports and gopls v0.23.0, built from the pinned
#              tools/ module into one folder per user, outside the checkout
#              (~/.local/share/posenc-course/bin), and the "gonb" Jupyter
#              kernel registered there: deleting or moving a checkout never
#              breaks the kernel for another one.
#   --lab      JupyterLab, from the hash-locked scripts/jupyterlab/requirements.txt
#              (pip --require-hashes, wheels only) into the checkout's own
#              virtual environment, .tools/venv; only when a Python package
#              index is reachable, skipped with a message otherwise (make lab
#              then uses Jupyter Notebook).
#   --trust    marks the course's notebooks trusted for this user (jupyter
#              trust), so that they do not open "Not Trusted".
#   --browser  what the browser check needs (tests/browser): Debian's chromium,
#              pinned, and the check's npm packages from its package-lock.json.
#              Not part of the default: make test runs it.
#   --xla      only when asked (it downloads; not part of the default):
#              XLA's PJRT CPU plugin, pinned and checked against the sha256
#              recorded in cmd/xla-install/sha256.txt, via go run
#              ./cmd/xla-install, into ~/.local/lib/go-xla (macOS: ~/Library/
#              Application Support/go-xla, where go-xla looks there), after
#              checking that this system's C library can load it. XLA_PLUGIN=cuda for
#              the CUDA one (wheels locked in cmd/xla-install/cuda13/), XLA_DIR
#              for another folder, XLA_SHA256 to give the archive's sum,
#              XLA_REQUIRE_SHA256=1 to refuse an archive whose sum is unrecorded.
# Options:
#   --dry-run  print what would be done; change nothing
#   -h, --help
#
# Environment:
#   COURSE_TOOLS      one folder for GoNB's tools (COURSE_TOOLS/bin) and the
#                     JupyterLab environment (COURSE_TOOLS/venv), as the Docker
#                     image uses (default: the per-user folder above for the
#                     tools, <repo>/.tools/venv for JupyterLab)
#   JUPYTER_DATA_DIR  where the kernel is registered (default: Jupyter's user
#                     data folder, ~/.local/share/jupyter)
#   PIP_INDEX_URL     the Python package index to use for --lab
#   COURSE_DPKG_QUERY, COURSE_UID  test hooks: a dpkg-query stand-in and the
#                     user id to act as (to exercise the install paths)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# user_data_dir is the per-user data folder (XDG on Linux).
user_data_dir() {
	case "$(uname -s)" in
	Darwin) printf '%s/Library/Application Support' "$HOME" ;;
	*) printf '%s' "${XDG_DATA_HOME:-$HOME/.local/share}" ;;
	esac
}

# GoNB and its tools live outside the checkout, so that the one "gonb" kernel
# a user has does not depend on which checkout installed it last.
if [ -n "${COURSE_TOOLS:-}" ]; then
	TOOLS_BIN=$COURSE_TOOLS/bin
	VENV=$COURSE_TOOLS/venv
else
	TOOLS_BIN=$(user_data_dir)/posenc-course/bin
	VENV=$ROOT/.tools/venv
fi
LAB_REQUIREMENTS=$ROOT/scripts/jupyterlab/requirements.txt
BROWSER_DIR=$ROOT/tests/browser

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
# Debian 12's chromium comes from bookworm-security, which keeps only the
# latest version: when this pin is gone, the current one is installed.
CHROMIUM_PACKAGE="chromium=156.0.8078.114-1~deb12u1"
# JupyterLab's version is pinned in scripts/jupyterlab/requirements.in, and
# with every dependency, by hash, in requirements.txt.
JUPYTERLAB_VERSION=$(sed -n 's/^jupyterlab==\([^ ]*\).*/\1/p' "$LAB_REQUIREMENTS" 2>/dev/null || true)
GONB_VERSION=v0.11.5 # also in tools/go.mod, which is what gets built
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
	--apt | --gonb | --lab | --trust | --browser | --xla) STEPS+=("${arg#--}") ;;
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
[ ${#STEPS[@]} -gt 0 ] || STEPS=(apt gonb lab trust)

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

# kernel_json is the kernel spec the course registers: GoNB from TOOLS_BIN,
# with TOOLS_BIN (goimports, gopls) and Go's bin folder first on its PATH
# (Jupyter substitutes ${PATH} from the server's environment). On amd64 the
# notebooks are built with GOEXPERIMENT=simd, which switches on GoMLX's
# AVX-512/AVX2 matrix multiplication on the pure-Go backend (chosen at run
# time from the CPU's features): the lab's model trains about 1.5 times
# faster with it (make bench measures it).
kernel_json() {
	local goroot simd=""
	goroot=$(go env GOROOT)
	[ "$(go env GOARCH)" != amd64 ] || simd=',"GOEXPERIMENT":"simd"'
	printf '{"argv":[%s,"--kernel","{connection_file}"],"display_name":"Go (gonb)","language":"go","interrupt_mode":"message","env":{"PATH":%s%s}}\n' \
		"$(json_string "$TOOLS_BIN/gonb")" "$(json_string "$TOOLS_BIN:$goroot/bin:\${PATH}")" "$simd"
}

# short names a path for messages: relative to the checkout or home.
short() {
	case "$1" in
	"$ROOT"/*) printf '%s' "${1#"$ROOT"/}" ;;
	"$HOME"/*) printf '~/%s' "${1#"$HOME"/}" ;;
	*) printf '%s' "$1" ;;
	esac
}

step_gonb() {
	command -v go >/dev/null 2>&1 || die "Go is not on PATH: install Go 1.26 or later (https://go.dev/dl/), then rerun"
	local gover
	gover=$(go env GOVERSION)
	case "$gover" in
	go1.2[6-9]* | go1.[3-9][0-9]* | go[2-9]*) ;;
	*) die "gopls $GOPLS_VERSION needs Go 1.26 or later; this is $gover" ;;
	esac

	local bin=$TOOLS_BIN stamp
	stamp=$(tools_stamp | sha256sum | cut -c1-16)
	if [ -x "$bin/gonb" ] && [ -x "$bin/goimports" ] && [ -x "$bin/gopls" ] &&
		[ "$(cat "$bin/.stamp" 2>/dev/null)" = "$stamp" ]; then
		ok "GoNB $GONB_VERSION, goimports, gopls $GOPLS_VERSION in $(short "$bin")"
	else
		# `go install github.com/janpfeifer/gonb@version` fails: the module
		# proxy refuses gonb's version list. tools/go.mod requires it instead.
		# go install replaces each binary in one rename, so a kernel that is
		# running meanwhile keeps its own copy.
		if [ "$DRY_RUN" = 1 ]; then
			say "would run: (cd tools && GOBIN=$bin go install tool)   # gonb, goimports, gopls"
		else
			mkdir -p "$bin"
			act "building GoNB $GONB_VERSION, goimports, gopls $GOPLS_VERSION into $(short "$bin") (a minute or two the first time)"
			(cd "$ROOT/tools" && GOBIN=$bin GOFLAGS=-mod=readonly go install tool)
			printf '%s\n' "$stamp" >"$bin/.stamp"
		fi
	fi

	local kdir want
	kdir=$(kernel_dir)
	want=$(kernel_json)
	if [ "$(cat "$kdir/kernel.json" 2>/dev/null)" = "$want" ] && [ -f "$kdir/logo-svg.svg" ]; then
		ok "gonb kernel registered in $(short "$kdir")"
		return 0
	fi
	if [ "$DRY_RUN" = 1 ]; then
		say "would run: (cd $bin && PATH=$bin:\$PATH ./gonb --install) and write $kdir/kernel.json with PATH=$bin:\$(go env GOROOT)/bin:\${PATH}"
		return 0
	fi
	# Run as ./gonb: GoNB copies a binary it was started from under /tmp into
	# the kernel folder, and that copy would go stale after a rebuild.
	act "registering the gonb kernel in $(short "$kdir")"
	local out
	if ! out=$(cd "$bin" && JUPYTER_DATA_DIR=$(dirname "$(dirname "$kdir")") PATH="$bin:$PATH" ./gonb --install 2>&1); then
		printf '%s\n' "$out" >&2
		die "gonb --install failed"
	fi
	printf '%s\n' "$want" >"$kdir/kernel.json"
	ok "gonb kernel registered in $(short "$kdir")"
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

# lab_stamp identifies a JupyterLab environment: the lock file it was
# installed from and the Python that runs it.
lab_stamp() {
	{
		cat "$LAB_REQUIREMENTS"
		"$(system_python)" -c 'import sys, platform; print(sys.version, platform.machine())'
	} | sha256sum | cut -c1-16
}

# lab_settings writes JupyterLab's setting overrides for the course: no news
# feed and no update check, which would call out to jupyter.org and pop up a
# question over the first notebook a learner opens.
lab_settings() {
	local dir=$VENV/share/jupyter/lab/settings
	local want='{"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": false}}'
	[ "$(cat "$dir/overrides.json" 2>/dev/null)" != "$want" ] || return 0
	[ "$DRY_RUN" != 1 ] || return 0
	mkdir -p "$dir"
	printf '%s\n' "$want" >"$dir/overrides.json"
}

step_lab() {
	[ -f "$LAB_REQUIREMENTS" ] && [ -n "$JUPYTERLAB_VERSION" ] ||
		die "$(short "$LAB_REQUIREMENTS") is missing or pins no jupyterlab: regenerate it with scripts/jupyterlab/lock.sh"
	local venv=$VENV stamp
	stamp=$(lab_stamp)
	if [ -x "$venv/bin/jupyter-lab" ] && [ "$(cat "$venv/.course-stamp" 2>/dev/null)" = "$stamp" ]; then
		lab_settings
		ok "JupyterLab $JUPYTERLAB_VERSION in $(short "$venv") (locked by $(short "$LAB_REQUIREMENTS"))"
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
	local pip_install=(pip install --disable-pip-version-check -q --no-input --index-url "$url"
		--require-hashes --only-binary :all: --no-deps -r "$LAB_REQUIREMENTS")
	if [ "$DRY_RUN" = 1 ]; then
		say "would run: rm -rf $venv && $py -m venv $venv && $venv/bin/${pip_install[*]}"
		return 0
	fi
	# A fresh environment whenever the lock changes: nothing stale is left.
	act "installing JupyterLab $JUPYTERLAB_VERSION into $(short "$venv") from $url ($(short "$LAB_REQUIREMENTS"), every file checked against its hash)"
	rm -rf "$venv"
	if "$py" -m venv "$venv" && "$venv/bin/${pip_install[@]}"; then
		printf '%s\n' "$stamp" >"$venv/.course-stamp"
		lab_settings
		ok "JupyterLab $JUPYTERLAB_VERSION in $(short "$venv")"
	else
		# JupyterLab is a comfort, not a need: Jupyter Notebook runs the course.
		rm -rf "$venv"
		skip "JupyterLab: installing it failed (see above); make lab will use Jupyter Notebook"
	fi
}

# jupyter_command prints the jupyter command to use: JupyterLab's when
# installed, else the system's.
jupyter_command() {
	if [ -x "$VENV/bin/jupyter" ]; then
		printf '%s' "$VENV/bin/jupyter"
	elif [ -x /usr/bin/jupyter ]; then
		printf /usr/bin/jupyter
	else
		command -v jupyter || true
	fi
}

# step_trust signs the course's notebooks with this user's Jupyter secret
# (jupyter trust): an untrusted notebook opens "Not Trusted" and hides its
# committed HTML outputs. Jupyter signs a notebook again whenever the user
# saves it, so only the committed copies need this; rerun it after pulling
# new ones (make lab does).
step_trust() {
	local jupyter
	jupyter=$(jupyter_command)
	[ -n "$jupyter" ] || die "no jupyter command to trust the notebooks with: run scripts/install.sh --apt first"
	local nbs=("$ROOT"/notebooks/*.ipynb)
	if [ ! -e "${nbs[0]}" ]; then
		skip "trust: no notebooks in notebooks/"
		return 0
	fi
	if [ "$DRY_RUN" = 1 ]; then
		say "would run: $jupyter trust notebooks/*.ipynb"
		return 0
	fi
	local out signed
	if ! out=$("$jupyter" trust "${nbs[@]}" 2>&1); then
		printf '%s\n' "$out" >&2
		die "jupyter trust failed"
	fi
	signed=$(grep -c '^Signing notebook' <<<"$out" || true)
	ok "notebooks trusted for $(id -un 2>/dev/null || echo this user): ${#nbs[@]} ($signed newly signed)"
}

# step_browser installs what tests/browser needs: chromium from Debian and
# the pinned npm packages (npm ci: exactly package-lock.json).
step_browser() {
	if ! command -v chromium >/dev/null 2>&1; then
		if ! command -v "$DPKG_QUERY" >/dev/null 2>&1; then
			die "the browser check needs chromium: install it with your system's package manager, then rerun"
		fi
		apt_install "$CHROMIUM_PACKAGE"
	fi
	[ "$DRY_RUN" = 1 ] || ok "$(chromium --version 2>/dev/null | head -1)"
	command -v npm >/dev/null 2>&1 || die "the browser check needs Node.js 20 or later and npm: install them (apt-get install nodejs npm), then rerun"
	local stamp
	stamp=$({
		cat "$BROWSER_DIR/package-lock.json"
		node --version
	} | sha256sum | cut -c1-16)
	if [ "$(cat "$BROWSER_DIR/node_modules/.course-stamp" 2>/dev/null)" = "$stamp" ]; then
		ok "browser check's npm packages in $(short "$BROWSER_DIR")/node_modules"
		return 0
	fi
	if [ "$DRY_RUN" = 1 ]; then
		say "would run: (cd $(short "$BROWSER_DIR") && npm ci)"
		return 0
	fi
	act "npm ci in $(short "$BROWSER_DIR") (exactly package-lock.json)"
	(cd "$BROWSER_DIR" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
	printf '%s\n' "$stamp" >"$BROWSER_DIR/node_modules/.course-stamp"
	ok "browser check's npm packages in $(short "$BROWSER_DIR")/node_modules"
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
