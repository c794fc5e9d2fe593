#!/usr/bin/env bash
# docker-build-local.sh — builds docker/Dockerfile for real on a machine that
# reaches Debian's archive, the Go module proxy and the Python package index,
# but no image registry and not GitHub (this project's CI machines):
#
#   - the image format: docker (the OCI format drops SHELL and HEALTHCHECK);
#   - the base: Debian 12 made here with debootstrap and `podman import`
#     (BASE_IMAGE), instead of the pinned debian image;
#   - Go: from the module proxy, checked against the pinned sha256, as in the
#     real build;
#   - JupyterLab: from the hash-locked scripts/jupyterlab/requirements.txt,
#     as in the real build, when the package index answers (else
#     WITH_JUPYTERLAB=0: the image starts Jupyter Notebook);
#   - the XLA plugin (GitHub) is switched off: WITH_XLA=0, GoMLX on the Go
#     backend;
#   - CA certificates this host added to its trust store are passed in
#     (EXTRA_CA_CERTS), for networks that intercept HTTPS;
#   - everything else runs as in the real build, scripts/install.sh included,
#     and the build's own smoke test runs a GoNB cell through Jupyter.
#
# Then it starts the image (a container, or where the engine cannot start
# one here, its entrypoint in a chroot of its files) and checks that the
# server prints its URL with the published port, answers 200 with the token
# and 403 without, answers the HEALTHCHECK's request, offers the gonb kernel,
# applies the course's JupyterLab settings (when built with JupyterLab), and
# keeps the token off every command line; and that the image names its
# source repository (label), sets HOME for any uid, keeps the home folder
# small (the Go caches in /opt/posenc), and that a dev container's change of
# learner's uid (updateRemoteUserUID) re-owns a few MB, after which the new
# uid builds on the warmed caches. Run as root; podman and
# debootstrap are installed with apt-get when missing. `DOCKER_BUILD=1 make
# test` runs it.
#
# Environment: POSENC_DOCKER_CACHE (default /var/tmp/posenc-docker: the
# debootstrap tree), IMAGE (default posenc-course:local, or
# posenc-course:local-cuda), POSENC_PORT (the host port for the check,
# default 18888), WITH_JUPYTERLAB (default: 1 when the package index
# answers), TARGET (cpu, the default, or cuda: adds the CUDA libraries from
# the package index, ldd-checked, and checks that the GPU preflight explains
# the missing GPU).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${POSENC_DOCKER_CACHE:-/var/tmp/posenc-docker}
TARGET=${TARGET:-cpu}
case "$TARGET" in
cpu) IMAGE=${IMAGE:-posenc-course:local} ;;
cuda) IMAGE=${IMAGE:-posenc-course:local-cuda} ;;
*)
	echo "docker-build-local: TARGET must be cpu or cuda, got \"$TARGET\"" >&2
	exit 2
	;;
esac
BASE=localhost/posenc-debian:bookworm-debootstrap
PORT=${POSENC_PORT:-18888}
MIRROR=http://deb.debian.org/debian

say() { printf 'docker-build-local: %s\n' "$*"; }
die() {
	printf 'docker-build-local: %s\n' "$*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || die "run as root (podman builds with --isolation chroot, debootstrap needs root)"
missing=()
command -v podman >/dev/null 2>&1 || missing+=(podman)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
command -v curl >/dev/null 2>&1 || missing+=(curl)
if [ ${#missing[@]} -gt 0 ]; then
	say "installing ${missing[*]} with apt-get"
	DEBIAN_FRONTEND=noninteractive apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

start=$(date +%s)

# The base image: Debian 12 minbase, with the official image's apt sources.
if ! podman image exists "$BASE"; then
	rootfs=$CACHE/rootfs-bookworm
	if [ ! -x "$rootfs/usr/bin/apt-get" ]; then
		say "debootstrap bookworm into $rootfs"
		rm -rf "$rootfs"
		mkdir -p "$CACHE"
		debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 ||
			die "debootstrap failed; see $CACHE/debootstrap.log"
	fi
	rm -f "$rootfs/etc/apt/sources.list"
	cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $MIRROR
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
	say "podman import -> $BASE"
	tar -C "$rootfs" -c . | podman import --change 'CMD ["/bin/bash"]' - "$BASE" >/dev/null
fi

# CA certificates added to this host's trust store (Debian keeps them outside
# mozilla/): where HTTPS is intercepted, the build's downloads (Go, modules)
# need them too. They go into the local test image only.
extra_ca=$(find /usr/local/share/ca-certificates /usr/share/ca-certificates -maxdepth 2 \
	\( -name '*.crt' -o -name '*.pem' \) -not -path '*/mozilla/*' -type f -exec cat {} + 2>/dev/null || true)
[ -z "$extra_ca" ] || say "trusting the CA certificates this host added to its trust store ($(grep -c 'BEGIN CERTIFICATE' <<<"$extra_ca"))"

if [ -z "${WITH_JUPYTERLAB:-}" ]; then
	WITH_JUPYTERLAB=0
	if curl -fsS -o /dev/null --max-time 10 "${PIP_INDEX_URL:-https://pypi.org/simple}/jupyterlab/"; then WITH_JUPYTERLAB=1; fi
fi
say "podman build (WITH_JUPYTERLAB=$WITH_JUPYTERLAB WITH_XLA=0, base $BASE) -> $IMAGE"
podman build --isolation chroot --format docker \
	-f "$ROOT/docker/Dockerfile" --target "$TARGET" \
	--build-arg BASE_IMAGE="$BASE" \
	--build-arg WITH_JUPYTERLAB="$WITH_JUPYTERLAB" \
	--build-arg WITH_XLA=0 \
	--build-arg EXTRA_CA_CERTS="$extra_ca" \
	-t "$IMAGE" "$ROOT"
built=$(date +%s)
size=$(podman image inspect -f '{{.Size}}' "$IMAGE")
say "built $IMAGE in $((built - start)) s; size $((size / 1000000)) MB"

# Start it as compose would (tini, posenc-start) and check the server. When
# the engine cannot start containers here (some sandboxes refuse crun's
# setrlimit), the image's entrypoint runs in a chroot of the image's files
# instead, as the learner, on the host's network.
name=posenc-build-check-$$
token=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
log=$(mktemp)
root="" pid=""
cleanup() {
	[ -z "$pid" ] || kill -TERM "$pid" 2>/dev/null || true
	[ -z "$pid" ] || wait "$pid" 2>/dev/null || true
	if [ -n "$root" ]; then
		umount -R "$root/proc" 2>/dev/null || true
		umount -R "$root/dev" 2>/dev/null || true
		podman umount "$name" >/dev/null 2>&1 || true
	fi
	podman rm -f "$name" >/dev/null 2>&1 || true
	rm -f "$log"
}
trap cleanup EXIT
url_port=$PORT
# The token reaches podman, and chroot below, through the environment: -e
# JUPYTER_TOKEN names the variable only, so it is on no command line here either.
if JUPYTER_TOKEN=$token podman run -d --name "$name" -p "127.0.0.1:$PORT:8888" -e JUPYTER_TOKEN -e POSENC_PORT="$PORT" "$IMAGE" >/dev/null 2>"$log"; then
	mode=container
	logs() { podman logs "$name" 2>&1; }
	procs() { podman exec "$name" sh -c 'cat /proc/[0-9]*/cmdline 2>/dev/null | tr "\0" " "'; }
else
	say "podman run failed ($(tr '\n' ' ' <"$log")); running the entrypoint in a chroot of the image instead"
	podman rm -f "$name" >/dev/null 2>&1 || true
	mode=chroot
	podman create --name "$name" "$IMAGE" >/dev/null
	root=$(podman mount "$name")
	mount --rbind /dev "$root/dev"
	mount --rbind /proc "$root/proc"
	mapfile -t env < <(podman image inspect -f '{{range .Config.Env}}{{println .}}{{end}}' "$IMAGE" | sed '/^$/d')
	uid=$(chroot "$root" id -u learner)
	workdir=$(podman image inspect -f '{{.Config.WorkingDir}}' "$IMAGE")
	env+=(HOME=/home/learner USER=learner PORT="$PORT" POSENC_PORT="$PORT" JUPYTER_TOKEN="$token")
	chroot=$(command -v chroot)
	# The image's environment only, as in a container, exported in a
	# subshell that has cleared its own (env -i would take it, token
	# included, on its command line).
	(
		for v in $(compgen -e); do unset "$v" 2>/dev/null || true; done
		export "${env[@]}"
		exec "$chroot" --userspec="$uid:$uid" "$root" /bin/sh -c "cd '$workdir' && exec /usr/bin/tini -s -- posenc-start"
	) >"$log" 2>&1 &
	pid=$!
	logs() { cat "$log"; }
	# The command lines of the processes inside the chroot only: this
	# script's own (its grep for the token, say) are outside it.
	procs() {
		local p
		for p in /proc/[0-9]*; do
			[ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && tr '\0' ' ' <"$p/cmdline" 2>/dev/null && echo
		done
		return 0
	}
fi
for _ in $(seq 1 90); do
	grep -q "token=$token" <<<"$(logs)" && break
	sleep 1
done
logs | grep -E '^posenc-start|^lab.sh|token=' || true
grep -q "127.0.0.1:$url_port/.*token=$token" <<<"$(logs)" || {
	logs | tail -20 >&2
	die "the server ($mode) did not print its URL within 90 s"
}
status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/api/status?token=$token" || true)
nostatus=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/api/status" || true)
[ "$status" = 200 ] || die "GET /api/status with the token: HTTP $status; want 200"
[ "$nostatus" = 403 ] || die "GET /api/status without a token: HTTP $nostatus; want 403 (token authentication on)"
kernels=$(curl -s "http://127.0.0.1:$PORT/api/kernelspecs?token=$token" || true)
grep -q '"gonb"' <<<"$kernels" || die "the server does not offer the gonb kernel: $kernels"
health=$(podman image inspect -f '{{json .Config.Healthcheck}}' "$IMAGE" 2>/dev/null || true)
grep -q '127.0.0.1:8888/api' <<<"$health" || die "the image has no HEALTHCHECK on /api: $health"
api=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/api" || true)
[ "$api" = 200 ] || die "GET /api (the HEALTHCHECK's request) without a token: HTTP $api; want 200"
grep -q jupyter <<<"$(procs)" || die "cannot read the command lines of the container's processes (no jupyter among them)"
if grep -qF -- "$token" <<<"$(procs)"; then
	die "the token appears on a command line in the container (ps shows it); it must travel in JUPYTER_TOKEN"
fi
say "the server ($mode) answers on 127.0.0.1:$PORT: 200 with the token, 403 without, /api 200 (HEALTHCHECK); kernel gonb offered"
if [ "$WITH_JUPYTERLAB" = 1 ]; then
	# JupyterLab applies the course's overrides.json (scripts/install.sh
	# --lab) to the defaults its settings API serves: no news, no update check.
	notif=$(curl -s "http://127.0.0.1:$PORT/lab/api/settings/@jupyterlab/apputils-extension:notification?token=$token" || true)
	defaults=$(python3 -c 'import json, sys; p = json.load(sys.stdin)["schema"]["properties"]; print(p["fetchNews"]["default"], p["checkForUpdates"]["default"])' <<<"$notif" 2>/dev/null || true)
	[ "$defaults" = "false False" ] ||
		die "JupyterLab does not serve the course's settings (overrides.json: fetchNews \"false\", checkForUpdates false); its notification defaults: ${defaults:-none, answer: ${notif:0:200}}"
	say "JupyterLab serves the course's settings: no news feed, no update check"
fi
# The image's metadata and layout.
src=$(podman image inspect -f '{{index .Config.Labels "org.opencontainers.image.source"}}' "$IMAGE")
[[ "$src" =~ ^https://github\.com/[^/]+/[^/]+$ ]] || die "label org.opencontainers.image.source is \"$src\"; want https://github.com/OWNER/REPO"
image_env=$(podman image inspect -f '{{range .Config.Env}}{{println .}}{{end}}' "$IMAGE")
grep -qx 'HOME=/home/learner' <<<"$image_env" ||
	die "the image does not set HOME=/home/learner (docker run --user would leave HOME=/)"
if [ "$mode" = container ]; then
	inimage() { podman exec "$name" "$@"; }
else
	inimage() { chroot "$root" "$@"; }
fi
sizes=$(inimage du -sm /home/learner /opt/posenc/go /opt/posenc/go-build | awk '{printf "%s %s MB; ", $2, $1}')
home_mb=$(inimage du -sm /home/learner | cut -f1)
say "source label $src; HOME=/home/learner; sizes: $sizes"
[ "$home_mb" -lt 200 ] || die "/home/learner holds $home_mb MB: a dev container's uid change would copy it into a new layer"

# What the dev containers CLI does when the host's uid is not learner's
# (updateRemoteUserUID; its updateUID.Dockerfile): learner's uid and gid
# rewritten in /etc/passwd and /etc/group, the home folder re-owned. Then
# the new uid builds the course on the image's warmed Go caches.
uidfile=$(mktemp)
cat >"$uidfile" <<'UID'
ARG BASE
FROM ${BASE}
USER root
RUN sed -i -e 's/^learner:\([^:]*\):[0-9]*:[0-9]*:/learner:\1:4242:4242:/' /etc/passwd \
    && sed -i -e 's/^learner:\([^:]*\):[0-9]*:/learner:\1:4242:/' /etc/group \
    && chown -R 4242:4242 /home/learner
USER learner
RUN id && cd /home/learner/course && go build ./... && go vet ./pkg/posenc && echo "uid 4242 builds on the warmed caches"
UID
podman build --isolation chroot --format docker --build-arg BASE="$IMAGE" -f "$uidfile" -t "$IMAGE-uid4242" "$ROOT/docker" >"$log.uid" 2>&1 ||
	{ tail -20 "$log.uid" >&2; rm -f "$uidfile"; die "the dev container's uid change (4242) failed"; }
rm -f "$uidfile"
grep -q 'groups=.*(users)' "$log.uid" || die "learner is not in the group users after the uid change: $(grep uid= "$log.uid")"
chown_mb=$(podman history --format json "$IMAGE-uid4242" | python3 -c '
import json, sys
print(next((int(x.get("size", x.get("Size", 0))) // 1000000 for x in json.load(sys.stdin) if "chown -R 4242" in x.get("CreatedBy", "")), ""))')
say "dev container uid change: the re-owning layer is ${chown_mb:-?} MB; $(grep -m1 -x 'uid 4242 builds on the warmed caches' "$log.uid")"
[ -n "$chown_mb" ] && [ "$chown_mb" -lt 200 ] || die "the uid change's layer is ${chown_mb:-of unknown size} MB"
podman rmi "$IMAGE-uid4242" >/dev/null 2>&1 || true
rm -f "$log.uid"

if [ "$TARGET" = cuda ]; then
	line=$(logs | grep '^posenc-gpu-preflight:' || true)
	grep -q 'no NVIDIA GPU is visible.*GOMLX_BACKEND=xla:cpu' <<<"$line" ||
		die "the cuda image started without a GPU, and the GPU preflight did not say so: ${line:-no line}"
	say "without a GPU the cuda image says: $line"
fi
say "ok: $IMAGE ($((size / 1000000)) MB) built in $((built - start)) s and serves the course"
