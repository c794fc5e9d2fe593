#!/usr/bin/env bash
# smoke-image.sh IMAGE TARGET — starts a built image as compose would and
# checks that it serves the course: the URL it prints names the published
# port and the token; /api/status answers 200 with the token and 403
# without; the HEALTHCHECK turns healthy; the gonb kernel is offered; the
# token is on no command line; the image names its source repository (the
# label GitHub's registry links the package by); a uid the image does not
# know (docker run --user UID --group-add users) gets HOME=/home/learner and
# can write there and to the Go caches. For TARGET cuda, on a machine without a GPU,
# also that posenc-gpu-preflight explains in one line what is missing, and
# that the CUDA plugin and cuBLAS are in place. Needs docker and curl; the
# image workflow (.github/workflows/image.yml) runs it.
set -euo pipefail
# (Output is read into grep with <<<, not piped: under pipefail, grep -q
# leaving early can fail the writer with SIGPIPE, and so the check.)

image=${1:?usage: smoke-image.sh IMAGE cpu|cuda}
target=${2:?usage: smoke-image.sh IMAGE cpu|cuda}
port=${POSENC_PORT:-18888}
token=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
name=posenc-smoke-$$

say() { printf 'smoke-image: %s\n' "$*"; }
die() {
	printf 'smoke-image: %s\n' "$*" >&2
	docker logs "$name" 2>&1 | tail -20 >&2 || true
	exit 1
}
trap 'docker rm -f "$name" >/dev/null 2>&1 || true' EXIT

# -e JUPYTER_TOKEN names the variable only: docker takes its value from this
# environment, so the token is not on docker's command line either.
JUPYTER_TOKEN=$token docker run -d --name "$name" -p "127.0.0.1:$port:8888" -e JUPYTER_TOKEN -e POSENC_PORT="$port" \
	-e GOMLX_BACKEND=xla:cpu "$image" >/dev/null
for _ in $(seq 1 90); do
	grep -q "token=$token" <<<"$(docker logs "$name" 2>&1)" && break
	sleep 1
done
grep -q "127.0.0.1:$port/.*token=$token" <<<"$(docker logs "$name" 2>&1)" || die "no URL naming 127.0.0.1:$port and the token within 90 s"
code() { curl -s -o /dev/null -w '%{http_code}' "$@" || true; }
[ "$(code "http://127.0.0.1:$port/api/status?token=$token")" = 200 ] || die "/api/status with the token: want 200"
[ "$(code "http://127.0.0.1:$port/api/status")" = 403 ] || die "/api/status without a token: want 403"
grep -q '"gonb"' <<<"$(curl -s "http://127.0.0.1:$port/api/kernelspecs?token=$token")" || die "the gonb kernel is not offered"
if grep -qF -- "$token" <<<"$(docker exec "$name" sh -c 'cat /proc/[0-9]*/cmdline 2>/dev/null | tr "\0" " "')"; then
	die "the token appears on a command line in the container"
fi
health=""
for _ in $(seq 1 60); do
	health=$(docker inspect -f '{{.State.Health.Status}}' "$name")
	[ "$health" != healthy ] || break
	sleep 2
done
[ "$health" = healthy ] || die "HEALTHCHECK: $health after 120 s; want healthy"
say "$image serves the course on 127.0.0.1:$port (token, 403 without, healthy, gonb)"

src=$(docker inspect -f '{{index .Config.Labels "org.opencontainers.image.source"}}' "$image")
[[ "$src" =~ ^https://github\.com/[^/]+/[^/]+$ ]] || die "label org.opencontainers.image.source is \"$src\"; want https://github.com/OWNER/REPO"
out=$(docker run --rm --user 4242 --group-add users --entrypoint bash "$image" -c \
	'set -e; echo "HOME=$HOME"; touch "$HOME/.probe"; cd "$HOME/course"; go build -o /dev/null ./pkg/posenc; echo built' 2>&1) ||
	die "as uid 4242 in group users: $out"
grep -qx 'HOME=/home/learner' <<<"$out" && grep -qx built <<<"$out" || die "as uid 4242 in group users: $out"
say "source $src; uid 4242 (group users) has HOME=/home/learner and builds with the Go caches"

if [ "$target" = cuda ]; then
	docker exec "$name" test -x /usr/local/lib/go-xla/nvidia/pjrt_c_api_cuda_plugin.so || die "no CUDA plugin in /usr/local/lib/go-xla/nvidia"
	docker exec "$name" sh -c 'ldconfig -p | grep -q "libcublas.so.13 "' || die "ldconfig does not know libcublas.so.13"
	out=$(docker run --rm -e GOMLX_BACKEND=xla:cuda "$image" posenc-gpu-preflight 2>&1) && die "posenc-gpu-preflight passed without a GPU: $out"
	grep -q "no NVIDIA GPU is visible.*GOMLX_BACKEND=xla:cpu" <<<"$out" || die "posenc-gpu-preflight without a GPU said: $out"
	say "without a GPU, posenc-gpu-preflight says: $out"
fi
