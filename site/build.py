"""Render the course's executed notebooks as a static site, for reading it
without installing anything.

Every notebooks/NN-*.ipynb (they are committed executed) becomes
notebooks/NN-*.html through nbconvert's HTML exporter and the course's
template (site/templates/course: JupyterLab's look, MathJax from the site,
a bar of links to the course map and the previous and next lessons, and a
note that the controls are live only in JupyterLab). The course map
(README.md's introduction and its table of lessons) becomes index.html;
exercises/README.md becomes exercises/index.html; every exercise stub
becomes a highlighted page, exercises/NN_name.go.html, beside a raw copy.
Links between them are rewritten to the pages; a link to another file of
the repository goes to it on the code host when --repo-url is given, and is
left as plain text otherwise. The build fails when a relative link of a
page does not resolve to a file of the site.

Run by site/build.sh (make site) with the Python of the course's JupyterLab
environment, which has nbconvert pinned (scripts/jupyterlab/requirements.txt).

Usage: python site/build.py --root . --out build/site --mathjax site/node_modules/mathjax
       [--repo-url https://github.com/OWNER/REPO --ref COMMIT]
"""

import argparse
import html
import multiprocessing
import os
import posixpath
import re
import shutil
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import GoLexer

HERE = Path(__file__).resolve().parent

NOTE_LESSON = (
    "This page is the lesson's notebook as committed, with the outputs of its last headless run. "
    "Its code runs, and the controls of its interactive cells (sliders and selects that redraw a figure) "
    "are live, only in JupyterLab: clone the course and run <code>make lab</code>{where}."
)
NOTE_INDEX = (
    "This site is the course's notebooks rendered with their outputs, to read without installing anything. "
    "To run the code, do the exercises and move the controls of the interactive cells, which are live only "
    "in JupyterLab, clone the course and run <code>make lab</code>{where}."
)

# A Markdown link or image: [text](target "title").
MD_LINK = re.compile(r'(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?((?:\s+"[^"]*")?)\s*\)')
# An HTML attribute holding a URL.
HTML_URL = re.compile(r'\b(href|src)="([^"]+)"')
# Fenced code blocks and inline code spans: no links there.
CODE = re.compile(r"(```[\s\S]*?```|`[^`\n]*`)")


# The first line of a check cell (cmd/course: a lesson's assertions, silent
# when they pass) and the source of the setup cell the course tool adds: the
# site shows neither.
CHECK_PREFIX = "// Checks:"
SETUP_PREFIX = "!*go mod edit"


def hidden_on_site(cell):
    """Whether a code cell is machinery, not teaching: a check cell or the
    setup cell."""
    return cell.cell_type == "code" and (cell.source.startswith(CHECK_PREFIX) or cell.source.startswith(SETUP_PREFIX))


def drop_machinery(nb):
    """nb without its check and setup cells: a cell with no outputs goes, one
    with outputs (a failing check: never committed, but never hidden) keeps
    them and loses its source."""
    kept = []
    for c in nb.cells:
        if hidden_on_site(c):
            if not c.get("outputs"):
                continue
            c.transient = {"remove_source": True}
        kept.append(c)
    nb.cells = kept
    return nb


class Site:
    def __init__(self, root, out, repo_url, ref):
        self.root, self.out = root, out
        self.repo_url, self.ref = repo_url.rstrip("/") if repo_url else "", ref or "main"
        self.lessons = sorted(p for p in (root / "notebooks").glob("[0-9][0-9]-*.ipynb"))
        self.exporter = HTMLExporter(template_name="course", extra_template_basedirs=[str(HERE / "templates")])
        self.pages = []  # site paths written, relative to out

    # -- Links ------------------------------------------------------------

    def site_path(self, repo_path):
        """The site path that shows a repository path, or None."""
        p = repo_path.rstrip("/")
        m = re.fullmatch(r"(?:notebooks|lessons)/(\d\d-[a-z0-9-]+)\.(?:ipynb|md)", p)
        if m:
            return f"notebooks/{m.group(1)}.html"
        if p in ("notebooks", "lessons", "README.md", ""):
            return "index.html"
        if p == "exercises/README.md" or p == "exercises":
            return "exercises/index.html"
        if re.fullmatch(r"exercises/\d\d_[a-z0-9_]+\.go", p) and (self.root / p).is_file():
            return p + ".html"
        return None

    def rewrite(self, target, repo_dir, page):
        """The URL a link to target (as written in a file of repo_dir)
        takes on the site page page; None to drop the link."""
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
            return target
        path, _, frag = target.partition("#")
        repo_path = posixpath.normpath(posixpath.join(repo_dir, path)) if path else ""
        if repo_path.startswith(".."):
            return None
        if repo_path == ".":
            repo_path = ""
        dest = self.site_path(repo_path)
        if dest is None:
            if not self.repo_url or not (self.root / repo_path).exists():
                return None
            kind = "tree" if (self.root / repo_path).is_dir() else "blob"
            return f"{self.repo_url}/{kind}/{self.ref}/{repo_path}" + (f"#{frag}" if frag else "")
        rel = posixpath.relpath(dest, posixpath.dirname(page) or ".")
        return rel + (f"#{frag}" if frag else "")

    def rewrite_markdown(self, text, repo_dir, page):
        """text with its links rewritten for page; code left alone."""

        def link(m):
            bang, label, target, title = m.groups()
            url = self.rewrite(target, repo_dir, page)
            if url is None:
                return label if not bang else m.group(0)
            return f"{bang}[{label}]({url}{title})"

        def attr(m):
            url = self.rewrite(m.group(2), repo_dir, page)
            return f'{m.group(1)}="{html.escape(url) if url else "#"}"' if url else m.group(0)

        # Code stands aside while links are rewritten, but stays inside
        # their labels ([`internal/check`](internal/check)).
        code = []

        def hide(m):
            code.append(m.group(0))
            return f"\x00{len(code) - 1}\x00"

        text = HTML_URL.sub(attr, MD_LINK.sub(link, CODE.sub(hide, text)))
        return re.sub(r"\x00(\d+)\x00", lambda m: code[int(m.group(1))], text)

    # -- Pages ------------------------------------------------------------

    def note(self, template, repo_file=None):
        where = ""
        if self.repo_url:
            where = f' (<a href="{self.repo_url}">the repository</a>'
            if repo_file:
                where += f'; this file: <a href="{self.repo_url}/blob/{self.ref}/{repo_file}">{repo_file}</a>'
            where += ")"
        return template.format(where=where)

    def render(self, nb, page, title, prev=None, next_=None, note=""):
        """Write nb as the site page page."""
        self.write(page, self.export(nb, page, title, prev, next_, note))

    def export(self, nb, page, title, prev=None, next_=None, note=""):
        """The HTML of nb as the site page page."""
        depth = page.count("/")
        up = "../" * depth
        resources = {
            "metadata": {"name": title},
            "course": {
                "static": f"{up}static",
                "index": f"{up}index.html",
                "prev": prev,
                "next": next_,
                "note": note,
            },
        }
        body, _ = self.exporter.from_notebook_node(nb, resources=resources)
        return body

    def write(self, page, text):
        dest = self.out / page
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(text, encoding="utf-8")
        self.pages.append(page)

    def lesson_title(self, nb, path):
        for c in nb.cells:
            if c.cell_type == "markdown":
                m = re.search(r"^#\s+(.+)$", c.source, re.M)
                if m:
                    return m.group(1).strip()
        return path.stem

    def build_lessons(self):
        nbs = [nbformat.read(p, as_version=4) for p in self.lessons]
        titles = [self.lesson_title(nb, p) for nb, p in zip(nbs, self.lessons)]
        jobs = []
        for i, (path, nb) in enumerate(zip(self.lessons, nbs)):
            page = f"notebooks/{path.stem}.html"
            drop_machinery(nb)
            for c in nb.cells:
                if c.cell_type == "markdown":
                    c.source = self.rewrite_markdown(c.source, "notebooks", page)
            # GoNB reports no Pygments lexer: highlight the cells as Go.
            nb.metadata.setdefault("language_info", {})["pygments_lexer"] = "go"
            prev = {"href": f"{self.lessons[i - 1].stem}.html", "title": titles[i - 1]} if i > 0 else None
            next_ = {"href": f"{self.lessons[i + 1].stem}.html", "title": titles[i + 1]} if i + 1 < len(nbs) else None
            jobs.append((nb, page, titles[i], prev, next_, self.note(NOTE_LESSON, f"notebooks/{path.name}")))
        # One lesson per core: nbconvert spends a second or two on each.
        workers = min(len(jobs), os.cpu_count() or 1)
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            for job, body in zip(jobs, pool.map(self.export_job, jobs)):
                self.write(job[1], body)
        return titles

    def export_job(self, job):
        return self.export(*job)

    def markdown_page(self, text, page, title, repo_dir, note):
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_markdown_cell(self.rewrite_markdown(text, repo_dir, page))]
        self.render(nb, page, title, note=note)

    def build_index(self, titles):
        readme = (self.root / "README.md").read_text(encoding="utf-8")
        # The introduction and the course map: up to the section after "## The course".
        start = readme.find("## The course")
        end = readme.find("\n## ", start + 1) if start >= 0 else -1
        text = readme[: end if end >= 0 else len(readme)]
        # The README's pointer to this site.
        text = re.sub(r"<!-- Not on the site itself[^>]*-->.*?<!-- End of what the site drops\. -->\n?", "", text, flags=re.S)
        # Links to README sections the index leaves out point to the README
        # on the code host, or become plain text when there is none.
        kept = {re.sub(r"[^a-z0-9 -]", "", h.strip().lower()).replace(" ", "-") for h in re.findall(r"^#+ (.*)$", text, flags=re.M)}

        def outside(m):
            label, anchor = m.group(1), m.group(2)
            if anchor in kept:
                return m.group(0)
            if self.repo_url:
                return f"[{label}]({self.repo_url}/blob/{self.ref}/README.md#{anchor})"
            return label

        text = re.sub(r"\[([^\]]+)\]\(#([^)]+)\)", outside, text)
        linked = set(re.findall(r"notebooks/(\d\d-[a-z0-9-]+)\.ipynb", text))
        missing = [(p, t) for p, t in zip(self.lessons, titles) if p.stem not in linked]
        if missing:
            text += "\n\nAlso on this site:\n\n" + "".join(f"- [{t}](notebooks/{p.name})\n" for p, t in missing)
        text += "\n\nThe exercises: [exercises/README.md](exercises/README.md).\n"
        self.markdown_page(text, "index.html", "Positional encodings, in Go", "", self.note(NOTE_INDEX))

    def build_exercises(self):
        d = self.root / "exercises"
        text = (d / "README.md").read_text(encoding="utf-8")
        self.markdown_page(text, "exercises/index.html", "Exercises", "exercises", self.note(NOTE_INDEX))
        style = HtmlFormatter(style="default").get_style_defs(".highlight")
        for f in sorted(d.glob("[0-9][0-9]_*.go")):
            if f.name.endswith("_test.go"):
                continue
            code = f.read_text(encoding="utf-8")
            shutil.copyfile(f, self.out / "exercises" / f.name)
            repo = f' · <a href="{self.repo_url}/blob/{self.ref}/exercises/{f.name}">on the code host</a>' if self.repo_url else ""
            body = highlight(code, GoLexer(tabsize=4), HtmlFormatter(style="default", linenos="table"))
            self.write(
                f"exercises/{f.name}.html",
                f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>exercises/{f.name}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="../static/course.css">
<style>{style}</style>
</head>
<body>
<main class="course-code">
<nav class="course-nav course-nav-top" aria-label="lessons"><a class="course-map" href="../index.html">Course map</a> <a href="index.html">Exercises</a></nav>
<h1>exercises/{f.name}</h1>
<aside class="course-note">The stub you edit in your clone of the course: replace the body that panics with your
code, then run <code>go test ./exercises</code> or <code>go run ./cmd/grade</code>
(<a href="index.html">how exercises work</a>). The file as is: <a href="{f.name}">{f.name}</a>{repo}.</aside>
{body}
</main>
</body>
</html>
""",
            )

    def copy_static(self, mathjax):
        static = self.out / "static"
        static.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(HERE / "static" / "course.css", static / "course.css")
        es5 = Path(mathjax) / "es5"
        if not (es5 / "tex-chtml-full.js").is_file():
            sys.exit(f"build.py: no MathJax at {mathjax} (run site/build.sh, which installs it)")
        (static / "mathjax").mkdir(exist_ok=True)
        shutil.copyfile(es5 / "tex-chtml-full.js", static / "mathjax" / "tex-chtml-full.js")
        shutil.copytree(es5 / "output" / "chtml" / "fonts" / "woff-v2", static / "mathjax" / "output" / "chtml" / "fonts" / "woff-v2")
        shutil.copyfile(Path(mathjax) / "LICENSE", static / "mathjax" / "LICENSE")

    def check_links(self):
        """Every relative href and src of every page resolves to a file."""
        bad = []
        for page in self.pages:
            text = (self.out / page).read_text(encoding="utf-8")
            for m in HTML_URL.finditer(text):
                url = html.unescape(m.group(2))
                if re.match(r"^[a-z][a-z0-9+.-]*:", url, re.I) or url.startswith("#"):
                    continue
                path = url.split("#")[0].split("?")[0]
                if not (self.out / posixpath.normpath(posixpath.join(posixpath.dirname(page), path))).is_file():
                    bad.append(f"{page}: {url}")
        return bad


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--root", default=".", help="the course's repository")
    p.add_argument("--out", default="build/site")
    p.add_argument("--mathjax", default=str(HERE / "node_modules" / "mathjax"), help="the mathjax npm package")
    p.add_argument("--repo-url", default=os.environ.get("SITE_REPO_URL", ""), help="https://github.com/OWNER/REPO: where other files are linked")
    p.add_argument("--ref", default=os.environ.get("SITE_REF", ""), help="the commit or branch those links show")
    a = p.parse_args()
    root, out = Path(a.root).resolve(), Path(a.out).resolve()
    if out.exists():
        shutil.rmtree(out)
    (out / "exercises").mkdir(parents=True)
    site = Site(root, out, a.repo_url, a.ref)
    if not site.lessons:
        sys.exit("build.py: no notebooks/NN-*.ipynb")
    site.copy_static(a.mathjax)
    titles = site.build_lessons()
    site.build_index(titles)
    site.build_exercises()
    bad = site.check_links()
    if bad:
        sys.exit("build.py: links that resolve to no file of the site:\n  " + "\n  ".join(bad))
    print(f"site: {len(site.lessons)} lessons, {len(site.pages)} pages in {out}")


if __name__ == "__main__":
    main()
