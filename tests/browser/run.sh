#!/usr/bin/env bash
# run.sh — the browser check as make test-browser runs it (see check.mjs):
# every notebook in JupyterLab, each run from the menu (Run All, which must
# never wait on a learner: build/browser/lab/run-all.json has its times); then every
# notebook in Jupyter Notebook 6, Debian's, which a machine without a Python
# package index gets instead of JupyterLab. Without JupyterLab installed,
# Notebook 6 gets the full check. JupyterLab's check also drives every
# interactive cell's live controls (controls.mjs). Last, every page of the
# static site (make site, build/site) in chromium (site.mjs). Screenshots and
# reports: build/browser/.
# Environment: BROWSER_RUN, the lessons to run from the menu (default all;
# 01,04 for some); BROWSER_ONLY, the lessons to check at all (default all).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$here/../.." && pwd)
run=${BROWSER_RUN:-all}
only=()
if [ -n "${BROWSER_ONLY:-}" ]; then only=(--only "$BROWSER_ONLY"); fi
venv=${COURSE_TOOLS:-$ROOT/.tools}/venv

status=0
if [ -x "$venv/bin/jupyter-lab" ]; then
	node "$here/check.mjs" --server lab --run "$run" "${only[@]}" || status=1
	node "$here/check.mjs" --server notebook --run none "${only[@]}" || status=1
else
	echo "run.sh: JupyterLab is not installed (no package index?): checking Jupyter Notebook 6 only (the live controls need JupyterLab: not driven)"
	node "$here/check.mjs" --server notebook --run "$run" "${only[@]}" || status=1
fi
node "$here/site.mjs" || status=1
exit $status
