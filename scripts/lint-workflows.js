// lint-workflows.js JS_YAML ROOT — the rules of .github/workflows that
// decide whether a release can happen and what it publishes, which
// actionlint cannot know. Run by scripts/lint-dockerfile.sh (make
// lint-docker) with the js-yaml that dockerfilelint brings. Prints one
// problem a line and exits 1, or prints nothing and exits 0.
"use strict";
const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");

const [yamlPath, root] = process.argv.slice(2);
const yaml = require(yamlPath);
const load = (f) => yaml.safeLoad(fs.readFileSync(path.join(root, f), "utf8"));
const bad = [];

// steps returns every step of every job of a workflow, with its job's id.
const steps = (wf) =>
  Object.entries(wf.jobs || {}).flatMap(([id, job]) => (job.steps || []).map((s) => ({ job: id, ...s })));
// scopes returns the gha cache scopes a cache-from or cache-to value names;
// a scope may be an expression, ${{ matrix.target }}-${{ matrix.arch }}.
const scopes = (v) => [...String(v || "").matchAll(/type=gha[^\n]*?scope=((?:\$\{\{[^}]*\}\}|[^,\s'"])+)/g)].map((m) => m[1]);

const image = load(".github/workflows/image.yml");

// 1. The pull-request paths: every top-level entry of the repository that
// the image's build context holds (COPY . takes it all, less
// .dockerignore) must trigger the image build, except the ones below, which
// neither the build nor its smoke tests read.
const notBuilt = {
  ".ci": "CI's entry point, make test",
  ".devcontainer": "the dev container, which builds the image itself",
  ".gitignore": "git only",
  Makefile: "the image has no make",
  "README.md": "documentation",
  docs: "documentation",
  lab: "the lab's committed results, read by make test, not by the build",
  lessons: "the notebooks' sources; notebooks/ is what the image runs",
  model: "the long run's committed cells (model/results), read by make test, not by the build",
  site: "the static site's builder, run by make site and the Pages workflow",
  tests: "the browser check, run by make test",
};
let tracked;
try {
  tracked = execFileSync("git", ["-C", root, "ls-files"], { encoding: "utf8" }).split("\n").filter(Boolean);
} catch (e) {
  tracked = fs.readdirSync(root);
}
const ignored = fs
  .readFileSync(path.join(root, ".dockerignore"), "utf8")
  .split("\n")
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith("#") && !/[*?]/.test(l));
const prPaths = ((image.on || {}).pull_request || {}).paths;
if (prPaths) {
  const tops = new Set(tracked.map((f) => f.split("/")[0]));
  for (const top of [...tops].sort()) {
    if (ignored.includes(top) || top in notBuilt) continue;
    if (top === ".github") {
      if (!prPaths.includes(".github/workflows/image.yml") && !prPaths.includes(".github/**"))
        bad.push("image.yml: pull_request.paths must include .github/workflows/image.yml");
      continue;
    }
    const isDir = tracked.some((f) => f.startsWith(top + "/"));
    const ok = prPaths.includes("**") || (isDir ? prPaths.includes(top + "/**") : prPaths.includes(top));
    if (!ok)
      bad.push(`image.yml: pull_request.paths leaves out ${isDir ? top + "/**" : top}, which the image builds from (or list it in scripts/lint-workflows.js as not built)`);
  }
}

// 2. The build cache: every GitHub Actions cache scope read is written.
const imageSteps = steps(image);
const written = new Set(imageSteps.flatMap((s) => scopes((s.with || {})["cache-to"])));
for (const s of imageSteps) {
  for (const scope of scopes((s.with || {})["cache-from"])) {
    if (!written.has(scope)) bad.push(`image.yml: job ${s.job} reads the build cache scope=${scope}, which no step writes (cache-to)`);
  }
}

// 3. Releases: pushed with their cache inline (the dev container's
// cacheFrom), built with the same arguments as pull requests and main (a
// build argument that differs rebuilds the XLA layer and all after it),
// after a first job that records the plugin sums.
const builds = imageSteps.filter((s) => /^docker\/build-push-action@/.test(s.uses || ""));
const pushes = builds.filter((s) => (s.with || {}).push === true || (s.with || {}).push === "true");
if (pushes.length === 0) bad.push("image.yml: no step pushes the image");
for (const s of pushes) {
  if (!/type=inline/.test((s.with || {})["cache-to"] || "")) bad.push(`image.yml: job ${s.job} pushes without cache-to: type=inline (the dev container reuses the released image's layers through it)`);
}
const args = (s) => String((s.with || {})["build-args"] || "").trim();
if (new Set(builds.filter((s) => s.job === "build").map(args)).size > 1)
  bad.push("image.yml: the build and the push differ in build-args: the push would rebuild instead of reusing the tested layers");
for (const s of builds) {
  if (/XLA_REQUIRE_SHA256|XLA_CPU_SHA256/.test(args(s)))
    bad.push(`image.yml: job ${s.job} passes XLA_REQUIRE_SHA256 or XLA_CPU_SHA256: releases would then differ from dev builds in the XLA layer; check the sum the image records instead`);
}
const sumsJob = Object.entries(image.jobs || {}).find(([, j]) => (j.steps || []).some((s) => /xla-install[^\n]*-sums\b/.test(s.run || "")));
if (!sumsJob) bad.push("image.yml: no job prints the plugin archives' sums (xla-install -sums)");
else {
  for (const [id, j] of Object.entries(image.jobs)) {
    const builds = (j.steps || []).some((s) => /^docker\/build-push-action@/.test(s.uses || ""));
    if (builds && ![].concat(j.needs || []).includes(sumsJob[0])) bad.push(`image.yml: job ${id} builds the image without needs: ${sumsJob[0]}`);
  }
}

// 4. CI: the whole history (pkg/lab's TestCommittedResults) in a checkout
// git accepts in the container.
const ci = load(".github/workflows/ci.yml");
const ciSteps = steps(ci).filter((s) => s.job === "test");
const checkout = ciSteps.find((s) => /^actions\/checkout@/.test(s.uses || ""));
if (!checkout || String((checkout.with || {})["fetch-depth"]) !== "0") bad.push("ci.yml: job test must check out with fetch-depth: 0");
if (!ciSteps.some((s) => /safe\.directory/.test(s.run || ""))) bad.push("ci.yml: job test must mark the checkout safe for git (git config --global --add safe.directory)");
if (ciSteps.some((s) => /apt-get install[^\n]*(\\\n[^\n]*)*\snodejs\b/.test(s.run || ""))) bad.push("ci.yml: job test installs Debian's nodejs (18), older than playwright-core allows: use scripts/install-node.sh");

if (bad.length) {
  console.log(bad.join("\n"));
  process.exit(1);
}
