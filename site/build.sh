#!/usr/bin/env bash
# build.sh — make site: the course as a static site in build/site (see
# build.py), to read without installing anything; .github/workflows/pages.yml
# publishes it.
#
# It renders with nbconvert from the course's JupyterLab environment
# (.tools/venv, hash-locked in scripts/jupyterlab/requirements.txt; made by
# scripts/install.sh --lab when missing), or, on a machine without a Python
# package index, Debian's nbconvert; and serves MathJax, pinned in
# site/package-lock.json, from the site itself (npm ci, once).
#
# The content is the committed files of SITE_REV (default HEAD, via git
# archive), never the working copies a learner has run and edited.
#
# Environment: SITE_OUT (default build/site); SITE_REV (default HEAD);
# SITE_REPO_URL and SITE_REF,
# where links to other files of the repository point (the Pages workflow
# sets them; without them those links are plain text). Arguments go to
# build.py.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$here/.." && pwd)
venv=${COURSE_TOOLS:-$ROOT/.tools}/venv
start=$(date +%s%N)

has_nbconvert() { [ -x "$1" ] && "$1" -c 'import nbconvert' 2>/dev/null; }
py=$venv/bin/python
if ! has_nbconvert "$py"; then
	bash "$ROOT/scripts/install.sh" --lab >&2 || true
fi
if ! has_nbconvert "$py"; then
	py=/usr/bin/python3
	has_nbconvert "$py" || {
		echo "site/build.sh: no nbconvert: run scripts/install.sh (JupyterLab's, or Debian's jupyter-nbconvert)" >&2
		exit 1
	}
	echo "site/build.sh: rendering with Debian's nbconvert ($("$py" -c 'import nbconvert; print(nbconvert.__version__)')): JupyterLab's environment is not installed" >&2
fi

stamp=$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)
if [ "$(cat "$here/node_modules/.course-stamp" 2>/dev/null)" != "$stamp" ]; then
	command -v npm >/dev/null || {
		echo "site/build.sh: MathJax comes from npm: install Node.js 20 or later and npm (apt-get install nodejs npm)" >&2
		exit 1
	}
	(cd "$here" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
	printf '%s\n' "$stamp" >"$here/node_modules/.course-stamp"
fi

# The site shows the course as committed, never a learner's working copies
# (their notebooks' outputs, their solutions in exercises/): it is built from
# the files of SITE_REV (default HEAD), exported with git archive. Outside a
# git checkout (an unpacked release), the files as they are.
content=$ROOT
rev=${SITE_REV:-HEAD}
if git -C "$ROOT" rev-parse --verify -q "$rev^{commit}" >/dev/null 2>&1; then
	content=$(mktemp -d)
	trap 'rm -rf "$content"' EXIT
	git -C "$ROOT" archive "$rev" | tar -x -C "$content"
	changed=$(git -C "$ROOT" status --porcelain -- notebooks exercises lessons README.md 2>/dev/null | wc -l)
	echo "site/build.sh: from the files committed at $rev ($(git -C "$ROOT" rev-parse --short "$rev"))$([ "$changed" = 0 ] || echo "; $changed changed or new files (notebooks/, exercises/, lessons/, README.md) are left out: commit them to publish them")" >&2
elif [ -n "${SITE_REV:-}" ]; then
	echo "site/build.sh: SITE_REV=$SITE_REV is not a commit of $ROOT" >&2
	exit 2
fi

"$py" "$here/build.py" --root "$content" --out "${SITE_OUT:-$ROOT/build/site}" --mathjax "$here/node_modules/mathjax" "$@"
ms=$((($(date +%s%N) - start) / 1000000))
printf 'site: built in %d.%d s\n' $((ms / 1000)) $((ms % 1000 / 100))
