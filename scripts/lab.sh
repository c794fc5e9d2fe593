#!/usr/bin/env bash
# lab.sh — starts the course in JupyterLab (from .tools/venv, or the system's),
# else in Jupyter Notebook, in notebooks/, bound to 127.0.0.1 with a token,
# and prints the URL once the server answers. Ctrl-C stops it.
#
# Environment: PORT (default 8888; the next free port is used if taken),
# JUPYTER_TOKEN (default: a random one), COURSE_TOOLS (default <repo>/.tools);
# for the Docker image (docker/start.sh): LAB_IP, the address to listen on
# (default 127.0.0.1), and LAB_ROOT, the folder to serve (default notebooks/).
# Run scripts/install.sh first (make lab does).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOLS=${COURSE_TOOLS:-$ROOT/.tools}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)

# The server: JupyterLab when installed, else Jupyter Notebook.
if [ -x "$TOOLS/venv/bin/jupyter-lab" ]; then
	server=("$TOOLS/venv/bin/jupyter-lab") app=ServerApp path=lab kind=JupyterLab
elif [ -x /usr/bin/jupyter-lab ]; then
	server=(/usr/bin/jupyter-lab) app=ServerApp path=lab kind=JupyterLab
elif [ -x /usr/bin/jupyter-notebook ]; then
	server=(/usr/bin/jupyter-notebook) app=NotebookApp path=tree kind="Jupyter Notebook"
elif command -v jupyter-notebook >/dev/null 2>&1; then
	server=("$(command -v jupyter-notebook)") app=NotebookApp path=tree kind="Jupyter Notebook"
else
	echo "lab.sh: neither JupyterLab nor Jupyter Notebook is installed: run scripts/install.sh" >&2
	exit 1
fi

token=${JUPYTER_TOKEN:-$("$PY" -c 'import secrets; print(secrets.token_hex(24))')}
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

lab_root=${LAB_ROOT:-$ROOT/notebooks}
dir_option=root_dir # Jupyter Notebook 6 calls it notebook_dir
[ "$app" = ServerApp ] || dir_option=notebook_dir
args=(--no-browser --ip="${LAB_IP:-127.0.0.1}" --port="$port" --port-retries=0
	"--$app.token=$token" "--$app.$dir_option=$lab_root")
[ "$(id -u)" != 0 ] || args+=(--allow-root)

url="http://127.0.0.1:$port/$path?token=$token"
echo "lab.sh: starting $kind in notebooks/ on 127.0.0.1:$port ..."
cd "$lab_root"
"${server[@]}" "${args[@]}" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true; wait $pid 2>/dev/null || true' INT TERM

for _ in $(seq 1 120); do
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid" || true
		echo "lab.sh: $kind exited before answering" >&2
		exit 1
	fi
	if "$PY" - "http://127.0.0.1:$port/api/status?token=$token" <<'EOF' 2>/dev/null; then
import sys, urllib.request
urllib.request.urlopen(sys.argv[1], timeout=2).close()
EOF
		cat <<EOF

  The course is open at:

      $url

  Start with 01-*.ipynb (Kernel: "Go (gonb)"). Ctrl-C stops the server.

EOF
		wait "$pid"
		exit $?
	fi
	sleep 0.5
done
echo "lab.sh: $kind did not answer on port $port within 60 s" >&2
kill -TERM "$pid" 2>/dev/null || true
exit 1
