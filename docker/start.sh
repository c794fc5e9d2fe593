#!/usr/bin/env bash
# posenc-start — the image's start command (docker/Dockerfile, run by tini).
#
# The learner's work lives in the course's exercises/ and notebooks/ folders,
# which docker/compose.yaml mounts as volumes so that it outlives the
# container. A new named volume starts with the image's copy; an empty bind
# mount (your own folder) does not, so the image's copy is put there first.
# When a newer image starts on an older volume, what the learner does not
# write follows the image: exercises/internal/ is replaced, the generated
# exercises/*_test.go (the case tables), README.md and doc.go are updated (an
# edited one is kept beside as NAME.mine), and exercises or notebooks the
# volume lacks are added. The learner's own files (exercises/NN_*.go, the
# notebooks they have, anything they added) are never overwritten.
#
# When GOMLX_BACKEND asks for CUDA, posenc-gpu-preflight checks the GPU and
# its driver and prints one line saying what is missing, if anything.
#
# Then scripts/lab.sh starts JupyterLab (or, in an image built without it,
# Jupyter Notebook) on all interfaces, port 8888, with token authentication,
# rooted at the course folder, and prints the URL with its token. The token
# travels in the environment (JUPYTER_TOKEN), never on a command line.
#
# Environment: JUPYTER_TOKEN (default: a random one, made by lab.sh);
# GOMLX_BACKEND (default: xla:cpu when the plugin is installed, else go);
# POSENC_PORT, the host port that compose publishes the server on (default
# 8888), which the printed URL names instead of the container's own port.
set -euo pipefail

COURSE=${COURSE_DIR:-/home/learner/course}
SEED=/opt/posenc/seed

# refresh brings a volume made from an older image up to this one (see the
# top of this file). exercises/.course-files.sha256 records the course's
# files as they were put there, so that an edited one can be told from an
# older one.
refresh() {
	local d=$1 f name rec added=()
	if [ "$d" = exercises ] && [ -d "$SEED/exercises/internal" ]; then
		rec=$COURSE/exercises/.course-files.sha256
		rm -rf "$COURSE/exercises/internal" && cp -a "$SEED/exercises/internal" "$COURSE/exercises/internal"
		for f in "$SEED"/exercises/*_test.go "$SEED/exercises/README.md" "$SEED/exercises/doc.go"; do
			[ -f "$f" ] || continue
			name=$(basename "$f")
			if [ -f "$COURSE/exercises/$name" ] && ! cmp -s "$f" "$COURSE/exercises/$name"; then
				if [ -f "$rec" ] && (cd "$COURSE/exercises" && grep -F "  $name" "$rec" | sha256sum -c --status 2>/dev/null); then
					rm -f "$COURSE/exercises/$name" # as the older image delivered it
				else
					mv "$COURSE/exercises/$name" "$COURSE/exercises/$name.mine"
					echo "posenc-start: exercises/$name is new in this image; your copy is now exercises/$name.mine"
				fi
			fi
			[ -f "$COURSE/exercises/$name" ] || cp -a "$f" "$COURSE/exercises/$name"
		done
		(cd "$SEED/exercises" && sha256sum -- *_test.go README.md doc.go 2>/dev/null) >"$rec" || true
	fi
	for f in "$SEED/$d"/*; do
		name=$(basename "$f")
		[ -f "$f" ] && [ ! -e "$COURSE/$d/$name" ] || continue
		cp -a "$f" "$COURSE/$d/$name" && added+=("$name")
	done
	[ ${#added[@]} = 0 ] || echo "posenc-start: new in this image, added to your $d/: ${added[*]}"
}

for d in exercises notebooks; do
	if [ -d "$SEED/$d" ] && [ -z "$(ls -A "$COURSE/$d" 2>/dev/null)" ]; then
		if mkdir -p "$COURSE/$d" 2>/dev/null && cp -a "$SEED/$d/." "$COURSE/$d/" 2>/dev/null; then
			echo "posenc-start: your $d/ folder was empty: copied the course's $d/ into it"
		fi
	fi
	if [ -d "$SEED/$d" ] && [ -w "$COURSE/$d" ]; then
		refresh "$d"
	fi
	if [ ! -w "$COURSE/$d" ]; then
		echo "posenc-start: warning: $COURSE/$d is not writable by uid $(id -u): work saved there will fail" \
			"(on Linux, build with --build-arg LEARNER_UID=\$(id -u); see docs/docker.md)" >&2
	fi
done

plugins=$(cd /usr/local/lib/go-xla 2>/dev/null && ls -- pjrt_c_api_*_plugin.so nvidia/pjrt_c_api_*_plugin.so 2>/dev/null | tr '\n' ' ' || true)
echo "posenc-start: GOMLX_BACKEND=${GOMLX_BACKEND:-<unset: xla:cpu if its plugin is installed, else go>}; XLA plugins: ${plugins:-none}"
gpu_check=$(command -v posenc-gpu-preflight || echo "$COURSE/docker/gpu-preflight.sh")
"$gpu_check" || true

# lab.sh makes a random JUPYTER_TOKEN when none is set, and prints the URL
# with it.
export LAB_IP=0.0.0.0 LAB_ROOT=$COURSE PORT=${PORT:-8888}
published=${POSENC_PORT:-$PORT}
if [ "$published" = "$PORT" ]; then
	exec "$COURSE/scripts/lab.sh"
fi
# The server listens on 8888 inside the container; the URL it prints must
# name the port the host publishes it on.
exec "$COURSE/scripts/lab.sh" > >(sed -u "s#//127\.0\.0\.1:$PORT/#//127.0.0.1:$published/#g")
