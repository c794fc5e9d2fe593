#!/usr/bin/env bash
# posenc-start — the image's start command (docker/Dockerfile, run by tini).
#
# The learner's work lives in the course's exercises/ and notebooks/ folders,
# which docker/compose.yaml mounts as volumes so that it outlives the
# container. A new named volume starts with the image's copy; an empty bind
# mount (your own folder) does not, so the image's copy is put there first.
# Nothing is ever overwritten.
#
# When GOMLX_BACKEND asks for CUDA, posenc-gpu-preflight checks the GPU and
# its driver and prints one line saying what is missing, if anything.
#
# Then scripts/lab.sh starts JupyterLab (or, in an image built without it,
# Jupyter Notebook) on all interfaces, port 8888, with token authentication,
# rooted at the course folder, and prints the URL with its token. The token
# travels in the environment (JUPYTER_TOKEN), never on a command line.
#
# Environment: JUPYTER_TOKEN (default: a random one); GOMLX_BACKEND
# (default: xla:cpu when the plugin is installed, else go); POSENC_PORT, the
# host port that compose publishes the server on (default 8888), which the
# printed URL names instead of the container's own port.
set -euo pipefail

COURSE=${COURSE_DIR:-/home/learner/course}
SEED=/opt/posenc/seed

for d in exercises notebooks; do
	if [ -d "$SEED/$d" ] && [ -z "$(ls -A "$COURSE/$d" 2>/dev/null)" ]; then
		if mkdir -p "$COURSE/$d" 2>/dev/null && cp -a "$SEED/$d/." "$COURSE/$d/" 2>/dev/null; then
			echo "posenc-start: your $d/ folder was empty: copied the course's $d/ into it"
		fi
	fi
	if [ ! -w "$COURSE/$d" ]; then
		echo "posenc-start: warning: $COURSE/$d is not writable by uid $(id -u): work saved there will fail" \
			"(on Linux, build with --build-arg LEARNER_UID=\$(id -u); see README, Docker)" >&2
	fi
done

plugins=$(cd /usr/local/lib/go-xla 2>/dev/null && ls -- pjrt_c_api_*_plugin.so nvidia/pjrt_c_api_*_plugin.so 2>/dev/null | tr '\n' ' ' || true)
echo "posenc-start: GOMLX_BACKEND=${GOMLX_BACKEND:-<unset: xla:cpu if its plugin is installed, else go>}; XLA plugins: ${plugins:-none}"
gpu_check=$(command -v posenc-gpu-preflight || echo "$COURSE/docker/gpu-preflight.sh")
"$gpu_check" || true

export LAB_IP=0.0.0.0 LAB_ROOT=$COURSE PORT=${PORT:-8888}
[ -n "${JUPYTER_TOKEN:-}" ] || JUPYTER_TOKEN=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
export JUPYTER_TOKEN
published=${POSENC_PORT:-$PORT}
if [ "$published" = "$PORT" ]; then
	exec "$COURSE/scripts/lab.sh"
fi
# The server listens on 8888 inside the container; the URL it prints must
# name the port the host publishes it on.
exec "$COURSE/scripts/lab.sh" > >(sed -u "s#//127\.0\.0\.1:$PORT/#//127.0.0.1:$published/#g")
