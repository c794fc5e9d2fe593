#!/usr/bin/env bash
# lab.sh — starts the course in JupyterLab (from the course's own environment,
# .tools/venv, or the system's), else in Jupyter Notebook, bound to 127.0.0.1
# with a token, and prints the URL once the server answers. Ctrl-C stops it.
#
# The server's root is the course folder, so that the notebooks' links to
# ../exercises/ and ../lessons/ resolve; the URL opens on notebooks/.
#
# Environment:
#   PORT           first port to try (default 8888; the next free one is used)
#   JUPYTER_TOKEN  the token (default: a random one). It reaches the server
#                  through the environment, never its command line (ps).
#   LAB_SERVER     auto (default: JupyterLab when installed), lab, or notebook
#                  (Jupyter Notebook 6 even when JupyterLab is installed)
#   COURSE_TOOLS   the folder holding JupyterLab's venv (default <repo>/.tools)
#   LAB_IP         the address to listen on (default 127.0.0.1; the Docker
#                  image listens on all)
#   LAB_ROOT       the folder to serve (default: the course folder)
#   LAB_LOG        all: keep GoNB's INFO log records in the terminal (default:
#                  dropped, warnings and errors kept)
# Run scripts/install.sh first (make lab does).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOLS=${COURSE_TOOLS:-$ROOT/.tools}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)

lab=() notebook=()
if [ -x "$TOOLS/venv/bin/jupyter-lab" ]; then
	lab=("$TOOLS/venv/bin/jupyter-lab")
elif [ -x /usr/bin/jupyter-lab ]; then
	lab=(/usr/bin/jupyter-lab)
fi
if [ -x /usr/bin/jupyter-notebook ]; then
	notebook=(/usr/bin/jupyter-notebook)
elif command -v jupyter-notebook >/dev/null 2>&1; then
	notebook=("$(command -v jupyter-notebook)")
fi
case "${LAB_SERVER:-auto}" in
auto) if [ ${#lab[@]} -eq 0 ]; then want=notebook; else want=lab; fi ;;
lab | notebook) want=$LAB_SERVER ;;
*)
	echo "lab.sh: LAB_SERVER must be auto, lab or notebook, got \"$LAB_SERVER\"" >&2
	exit 2
	;;
esac
if [ "$want" = lab ] && [ ${#lab[@]} -gt 0 ]; then
	server=("${lab[@]}") app=ServerApp kind=JupyterLab
elif [ "$want" = notebook ] && [ ${#notebook[@]} -gt 0 ]; then
	server=("${notebook[@]}") app=NotebookApp kind="Jupyter Notebook"
else
	case "$want" in
	lab) echo "lab.sh: JupyterLab is not installed: run scripts/install.sh --lab (it needs the Python package index)" >&2 ;;
	*) echo "lab.sh: Jupyter Notebook is not installed: run scripts/install.sh --apt" >&2 ;;
	esac
	exit 1
fi

token=${JUPYTER_TOKEN:-}
[ -n "$token" ] || token=$("$PY" -c 'import secrets; print(secrets.token_hex(24))')
export JUPYTER_TOKEN=$token
port=$("$PY" - "${PORT:-8888}" <<'EOF'
import socket, sys
p = int(sys.argv[1])
for port in range(p, p + 50):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port))
    except OSError:
        continue
    finally:
        s.close()
    print(port)
    break
else:
    sys.exit("lab.sh: no free port from %d to %d" % (p, p + 49))
EOF
)

lab_root=${LAB_ROOT:-$ROOT}
# Open on notebooks/ when the served folder has one.
start=""
[ ! -d "$lab_root/notebooks" ] || start=notebooks
if [ "$app" = ServerApp ]; then
	path=lab/tree/$start dir_option=root_dir
	extra=("--LabApp.default_url=/lab/tree/$start")
else
	path=tree/$start dir_option=notebook_dir # Jupyter Notebook 6's name
	# The course's stylesheet (tabs, answers) replaces the user's custom.css.
	extra=("--NotebookApp.default_url=/tree/$start"
		"--NotebookApp.tornado_settings=static_custom_path=$ROOT/scripts/notebook6/custom")
fi
args=(--no-browser --ip="${LAB_IP:-127.0.0.1}" --port="$port" --port-retries=0
	"--$app.$dir_option=$lab_root" "${extra[@]}")
[ "$(id -u)" != 0 ] || args+=(--allow-root)

url="http://127.0.0.1:$port/$path?token=$token"
echo "lab.sh: starting $kind in $lab_root on 127.0.0.1:$port ..."
cd "$lab_root"
# The server runs in a session of its own, so that Ctrl-C reaches this
# script only, not the server and its kernels at once (GoNB, interrupted
# mid-shutdown, printed its goroutines' stacks): the trap below stops the
# server with SIGTERM, which shuts its kernels down in order, and exits 0
# with one line (a 143 would make `make lab` report an error).
own_session=()
if command -v setsid >/dev/null 2>&1; then own_session=(setsid); fi
# GoNB logs at INFO level to the server's terminal: every kernel start, and at
# shutdown a goroutine stack with "killing gopls" (a log record, not a
# crash), then an error-level "Signal terminated triggers kernel stop" (a
# normal stop). Those records go (LAB_LOG=all keeps them); other warnings
# and errors, and the server's own log, stay. A line that does not start a log record belongs
# to the record before it.
quiet_gonb() {
	trap '' INT TERM HUP # Ctrl-C reaches this filter too: it ends with the server's output
	if [ "${LAB_LOG:-}" = all ]; then
		cat
		return
	fi
	awk '
		/^[IWEF][0-9][0-9][0-9][0-9] [0-9:.]+ +[0-9]+ [^ ]+:[0-9]+\]/ {
			drop = ($0 ~ /^I/) || / (Warning|Error) message$/ || /Signal terminated triggers kernel stop\.$/
			if (!drop) print
			fflush()
			next
		}
		/^\[[A-Z] [0-9]/ { drop = 0 }
		!drop { print; fflush() }
	'
}
"${own_session[@]}" "${server[@]}" "${args[@]}" > >(quiet_gonb) 2>&1 &
pid=$!
stop() {
	trap '' INT TERM
	echo
	echo "lab.sh: stopping $kind (its kernels shut down; your saved work stays) ..."
	kill -TERM "$pid" 2>/dev/null || true
	for _ in $(seq 1 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	sleep 0.2 # the log filter's last lines
	echo "lab.sh: the course's server has stopped."
	exit 0
}
trap stop INT TERM HUP

for _ in $(seq 1 120); do
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid" || true
		echo "lab.sh: $kind exited before answering" >&2
		exit 1
	fi
	if "$PY" - "http://127.0.0.1:$port/api/status" <<'EOF' 2>/dev/null; then
import os, sys, urllib.request
req = urllib.request.Request(sys.argv[1], headers={"Authorization": "token " + os.environ["JUPYTER_TOKEN"]})
urllib.request.urlopen(req, timeout=2).close()
EOF
		cat <<EOF

  The course is open at:

      $url

  Start with notebooks/01-*.ipynb (kernel: "Go (gonb)"); the exercises are in
  exercises/. Ctrl-C stops the server.

EOF
		status=0
		wait "$pid" || status=$?
		echo "lab.sh: $kind exited (status $status)."
		exit "$status"
	fi
	sleep 0.5
done
echo "lab.sh: $kind did not answer on port $port within 60 s" >&2
kill -TERM "$pid" 2>/dev/null || true
exit 1
