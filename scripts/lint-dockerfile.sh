#!/usr/bin/env bash
# lint-dockerfile.sh — lints the Docker image's files, for make test:
#
#   1. dockerfilelint 1.8.0 (npm; pinned with its lock file in docker/lint/,
#      installed into .tools/dockerfilelint on first use) on docker/Dockerfile,
#      with docker/.dockerfilelintrc;
#   2. the course's own rules, which that linter cannot check: every FROM is
#      an earlier stage or ${BASE_IMAGE}, whose default is pinned by tag and
#      digest; nothing "latest"; no sudo; the Go archive pinned by sha256 for
#      amd64 and arm64; go-xla's automatic downloads off; a HEALTHCHECK; the
#      image ends as a non-root user under tini; docker/compose.yaml parses,
#      publishes on loopback only, mounts subfolders of the course, not the
#      home folder, and names images with a fixed tag;
#      useradd --no-log-init; the image names its source repository
#      (LABEL org.opencontainers.image.source); HOME is set for any uid; the
#      Go caches are outside the home folder; compose passes WITH_XLA
#      (default 1) and names its images by a release's fixed tags
#      (cpu-vX.Y.Z, cuda-vX.Y.Z); every pip install in the scripts checks
#      hashes;
#   3. bash -n on docker/*.sh, and docker/gpu-preflight_test.sh;
#   4. .devcontainer/devcontainer.json parses, uses docker/Dockerfile, passes
#      WITH_XLA, reuses the released image's layers (cacheFrom);
#   5. the workflows, as far as they decide what a release is
#      (scripts/lint-workflows.js): the image workflow's pull-request paths
#      cover everything the image builds from, every build cache it reads is
#      written, releases push their cache inline and build with the same
#      arguments as everything else, a first job records the plugin sums and
#      the builds need it; CI checks out the whole history and marks it safe
#      for git.
#
# Exit status 0 when all pass, 1 otherwise (each problem on its own line).
# Needs Node.js and npm (and the npm registry, the first time).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOLS=${COURSE_TOOLS:-$ROOT/.tools}
DOCKERFILE=$ROOT/docker/Dockerfile
COMPOSE=$ROOT/docker/compose.yaml
LINT_DIR=$TOOLS/dockerfilelint

fail=0
problem() {
	printf 'lint-dockerfile: %s\n' "$*" >&2
	fail=1
}

# 1. dockerfilelint, pinned by docker/lint/package-lock.json.
command -v npm >/dev/null 2>&1 || {
	echo "lint-dockerfile: npm is not installed (needed for dockerfilelint): apt-get install npm, or install Node.js" >&2
	exit 1
}
if ! cmp -s "$ROOT/docker/lint/package-lock.json" "$LINT_DIR/package-lock.json" ||
	[ ! -x "$LINT_DIR/node_modules/.bin/dockerfilelint" ]; then
	echo "lint-dockerfile: installing dockerfilelint (docker/lint/package-lock.json) into ${LINT_DIR#"$ROOT"/}"
	rm -rf "$LINT_DIR"
	mkdir -p "$LINT_DIR"
	cp "$ROOT/docker/lint/package.json" "$ROOT/docker/lint/package-lock.json" "$LINT_DIR/"
	(cd "$LINT_DIR" && npm ci --no-audit --no-fund --silent)
fi
if ! out=$("$LINT_DIR/node_modules/.bin/dockerfilelint" -c "$ROOT/docker" "$DOCKERFILE" 2>&1); then
	printf '%s\n' "$out" >&2
	problem "dockerfilelint found issues in docker/Dockerfile"
fi

# 2. The course's rules for the Dockerfile.
# Instructions with their continuation lines joined, comments dropped.
instructions=$(sed -e '/^[[:space:]]*#/d' "$DOCKERFILE" | sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}')
stages=()
while read -r from; do
	# shellcheck disable=SC2086
	set -- $from
	image=$2
	if [ "$image" = '${BASE_IMAGE}' ]; then
		:
	elif printf '%s\n' "${stages[@]}" | grep -qxF -- "$image"; then
		:
	else
		problem "FROM $image: not an earlier stage nor \${BASE_IMAGE}"
	fi
	if [ "${3:-}" != "" ] && [ "${3,,}" = as ]; then stages+=("$4"); fi
done < <(printf '%s\n' "$instructions" | grep -iE '^FROM[[:space:]]')

base=$(printf '%s\n' "$instructions" | sed -nE 's/^ARG[[:space:]]+BASE_IMAGE=(.*)$/\1/p' | head -n1)
if ! printf '%s' "$base" | grep -qE '^[^@ ]+:[A-Za-z0-9._-]+@sha256:[0-9a-f]{64}$'; then
	problem "ARG BASE_IMAGE=$base: pin the base image by tag and digest (name:tag@sha256:...)"
fi
if grep -nE '(:|@)latest\b' "$DOCKERFILE" "$COMPOSE" | grep -v '^[^:]*:[0-9]*:[[:space:]]*#'; then
	problem "an image or module pinned to \"latest\" (above)"
fi
if printf '%s\n' "$instructions" | grep -nwE 'sudo|sudoers'; then
	problem "sudo in docker/Dockerfile (above): the learner has no sudo rules"
fi
last_user=$(printf '%s\n' "$instructions" | sed -nE 's/^USER[[:space:]]+([^[:space:]]+).*/\1/p' | tail -n1)
case "$last_user" in
"" | root | 0 | 0:*) problem "the image must end as a non-root user (last USER: ${last_user:-none})" ;;
esac
grep -qE '^ENTRYPOINT \["/usr/bin/tini", "--"\]' "$DOCKERFILE" || problem "ENTRYPOINT must be tini"
for a in AMD64 ARM64; do
	printf '%s\n' "$instructions" | grep -qE "^ARG[[:space:]]+GO_ZIP_SHA256_$a=[0-9a-f]{64}$" ||
		problem "ARG GO_ZIP_SHA256_$a: pin the Go archive for linux/${a,,} by its sha256"
done
printf '%s\n' "$instructions" | grep -qE '^ENV .*GOMLX_NO_AUTO_INSTALL=1' ||
	problem "ENV GOMLX_NO_AUTO_INSTALL=1 missing: go-xla must not download plugins in the image"
printf '%s\n' "$instructions" | grep -qE '^HEALTHCHECK[[:space:]]' || problem "no HEALTHCHECK"
while read -r line; do
	grep -qE -- '--no-log-init' <<<"$line" ||
		problem "useradd without --no-log-init (a large uid makes a huge sparse /var/log/lastlog in the layer): $line"
done < <(printf '%s\n' "$instructions" | grep -oE 'useradd[^&;]*')
printf '%s\n' "$instructions" | grep -qE '^LABEL .*org\.opencontainers\.image\.source="?https://github\.com/[^/" ]+/[^/" ]+' ||
	problem "no LABEL org.opencontainers.image.source=\"https://github.com/OWNER/REPO\": GitHub's registry links a package to its repository by it"
printf '%s\n' "$instructions" | grep -qE '^ENV .*HOME=/home/learner' ||
	problem "ENV HOME=/home/learner missing: docker run --user with a uid the image does not know would leave HOME=/"
for v in GOMODCACHE GOCACHE; do
	where=$(printf '%s\n' "$instructions" | sed -nE "s/^ENV .*$v=([^ ]+).*/\1/p" | tail -n1)
	case "$where" in
	"" | /home/*) problem "ENV $v=${where:-unset}: keep the Go caches outside the home folder (a dev container's uid change re-owns the home folder into a new layer)" ;;
	esac
done

# 2b. docker/compose.yaml.
if ! out=$(node - "$LINT_DIR/node_modules/js-yaml" "$COMPOSE" 2>&1 <<'EOF'
const [yamlPath, file] = process.argv.slice(2);
const yaml = require(yamlPath);
const doc = yaml.safeLoad(require("fs").readFileSync(file, "utf8"));
const bad = [];
const tags = [];
for (const [name, svc] of Object.entries(doc.services || {})) {
  for (const p of svc.ports || []) {
    if (!String(p).startsWith("127.0.0.1:")) bad.push(`${name}: port ${p} is not bound to 127.0.0.1`);
  }
  for (const v of svc.volumes || []) {
    const target = String(v).split(":")[1] || "";
    if (!target.startsWith("/home/learner/course/")) bad.push(`${name}: volume ${v} must mount a subfolder of /home/learner/course`);
  }
  if (!svc.build || svc.build.dockerfile !== "docker/Dockerfile") bad.push(`${name}: build.dockerfile must be docker/Dockerfile`);
  else if (!svc.build.args || svc.build.args.WITH_XLA !== "${WITH_XLA:-1}") bad.push(`${name}: build.args must pass WITH_XLA: \${WITH_XLA:-1} (0 builds without XLA's plugin)`);
  // The default tag names a release: cpu-vX.Y.Z, cuda-vX.Y.Z, never the moving cpu or cuda.
  const tag = /:\$\{[A-Z_]+:-([^}]*)\}$/.exec(String(svc.image || ""));
  if (!tag || !/^(cpu|cuda)-v[0-9]+\.[0-9]+\.[0-9]+$/.test(tag[1])) bad.push(`${name}: image ${svc.image}: its default tag must be a release's, cpu-vX.Y.Z or cuda-vX.Y.Z`);
  else tags.push(tag[1]);
  // ${VAR:-default} stands for its default.
  const image = String(svc.image || "").replace(/\$\{[A-Z_]+:-([^}]*)\}/g, "$1");
  if (!/^[^:]+:[A-Za-z0-9._-]+$/.test(image) || /:latest$/.test(image)) bad.push(`${name}: image ${svc.image} needs a fixed tag`);
}
if (new Set(tags.map((t) => t.replace(/^(cpu|cuda)-/, ""))).size > 1) bad.push(`the default tags name different releases: ${tags.join(", ")}`);
if (!doc.services || !doc.services.course) bad.push("no service \"course\"");
else if (doc.services.course.build.target !== "cpu") bad.push("service course must build target cpu");
if (bad.length) { console.log(bad.join("\n")); process.exit(1); }
EOF
); then
	while IFS= read -r line; do problem "docker/compose.yaml: $line"; done <<<"$out"
fi

# 2c. Every pip install or download in the course's scripts checks hashes
# (--require-hashes within the command, which may go on for two lines).
while IFS=: read -r f n _; do
	sed -n "${n},$((n + 2))p" "$f" | grep -q -- '--require-hashes' ||
		problem "${f#"$ROOT"/}:$n: pip without --require-hashes: pin what it installs by hash"
done < <(grep -nE '(^|[^#]*[[:space:]"/])pip"?[[:space:]]+(install|download)[[:space:]]' \
	"$ROOT"/scripts/*.sh "$ROOT"/scripts/*/*.sh "$ROOT"/cmd/*/*/*.sh "$ROOT"/docker/*.sh 2>/dev/null |
	grep -vE '^[^:]+:[0-9]+:[[:space:]]*#' | grep -vE "printf|echo|die |say ")

# 3. The image's shell scripts, and the GPU check's tests.
for f in "$ROOT"/docker/*.sh; do
	bash -n "$f" || problem "bash -n ${f#"$ROOT"/} failed"
done
"$ROOT/docker/gpu-preflight_test.sh" || problem "docker/gpu-preflight_test.sh failed"

# 4. The dev container.
if ! out=$(node - "$ROOT/.devcontainer/devcontainer.json" 2>&1 <<'EOF'
const text = require("fs").readFileSync(process.argv[2], "utf8");
// devcontainer.json is JSON with comments.
const doc = JSON.parse(text.replace(/^\s*\/\/.*$/gm, ""));
const bad = [];
if (!doc.build || doc.build.dockerfile !== "../docker/Dockerfile" || doc.build.context !== "..") bad.push("build must use ../docker/Dockerfile with context ..");
if (doc.remoteUser !== "learner") bad.push("remoteUser must be learner");
if (!doc.build || !doc.build.args || !/^\$\{localEnv:WITH_XLA:1\}$/.test(doc.build.args.WITH_XLA || "")) bad.push("build.args must pass WITH_XLA: ${localEnv:WITH_XLA:1}");
const cacheFrom = [].concat((doc.build && doc.build.cacheFrom) || []);
if (!cacheFrom.some((c) => /^ghcr\.io\/[^:]+:cpu$/.test(c))) bad.push("build.cacheFrom must name the released cpu image, whose cache is pushed inline");
if (bad.length) { console.log(bad.join("\n")); process.exit(1); }
EOF
); then
	while IFS= read -r line; do problem ".devcontainer/devcontainer.json: $line"; done <<<"$out"
fi

# 5. The workflows.
if ! out=$(node "$ROOT/scripts/lint-workflows.js" "$LINT_DIR/node_modules/js-yaml" "$ROOT" 2>&1); then
	while IFS= read -r line; do problem ".github/workflows: $line"; done <<<"$out"
fi

if [ "$fail" = 0 ]; then
	echo "lint-dockerfile: docker/Dockerfile, docker/compose.yaml, docker/*.sh, .devcontainer and the workflows: ok"
fi
exit "$fail"
