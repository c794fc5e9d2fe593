// check.mjs — opens every course notebook in a real browser, as a learner
// would after `make lab`, and checks what they would see.
//
// It copies the course into a scratch folder (so that nothing it runs or
// saves touches the checkout), starts scripts/lab.sh there with a fresh
// Jupyter configuration, drives Debian's headless chromium with
// playwright-core, and for every notebooks/*.ipynb asserts:
//
//   - the kernel is "Go (gonb)", and it starts;
//   - the notebook is neither modified (unsaved changes) nor untrusted on
//     open, once the kernel has connected;
//   - every image it holds (committed plots, pictures in the text) loads;
//   - MathJax rendered its formulas without an error;
//   - every relative link in its text answers 200 from the server;
//
// and, for the lessons named by --run (default: all), that "Run All Cells"
// from the menu runs them top to bottom with no error output, showing what
// the committed notebook shows, and that saving the result works. Run All
// must never wait on a learner: nothing presses Done, every interactive cell
// must end by itself with its default figure (its controls closed because
// cells are queued after it), and the whole run must finish within the
// notebook's headless time on the pure-Go backend (build/course-run.json, which `course run` and
// `course notebooks` write; else BROWSER_HEADLESS_S, default 300 s) plus
// BROWSER_STALL_S (default 120 s). Each notebook's Run All wall time, its
// slowest cell and its interactive cells' times go to <out>/run-all.json. It also
// checks that the server refuses requests without the token and that the
// token is on no process's command line.
//
// Screenshots of each notebook (its top, every figure in place, a code cell,
// an answer closed and open) go to build/browser/<server>/, with
// report.json (timings, counts) and the server's log.
//
// In JupyterLab it also drives the live controls of every interactive cell
// (see controls.mjs): each slider and select must redraw the figure, with
// a readout right for the new value, no error, and a redraw time (from the
// control's release to the new figure) whose median over all changes is at
// most BROWSER_REDRAW_MS (default 200).
//
// Usage: node tests/browser/check.mjs [--server lab|notebook] [--run all|01,02|none]
//        [--controls all|none|02,05] [--out DIR] [--only 01,04] [--keep]
// make test-browser (part of make test; tests/browser/run.sh) runs it for
// JupyterLab and, more briefly (no --run), for Jupyter Notebook 6. Exit status 0 when every check passed, 1 when one
// failed, 2 on bad usage.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { checkControls, panelCells } from './controls.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function parseArgs(argv) {
  const o = { server: 'lab', run: ['all'], out: '', only: [], keep: false, controls: 'all' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--server') o.server = val();
    else if (a === '--run') { const v = val(); o.run = v === 'none' ? [] : v.split(',').filter(Boolean); }
    else if (a === '--out') o.out = val();
    else if (a === '--controls') o.controls = val();
    else if (a === '--only') o.only = val().split(',').filter(Boolean);
    else if (a === '--keep') o.keep = true;
    else if (a === '-h' || a === '--help') { console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n\n')[0]); process.exit(0); }
    else usage(`unknown argument ${JSON.stringify(a)}`);
  }
  if (!['lab', 'notebook'].includes(o.server)) usage(`--server must be lab or notebook, got ${JSON.stringify(o.server)}`);
  if (!/^(all|none|\d{2}(,\d{2})*)$/.test(o.controls)) usage(`--controls takes all, none or lessons (02,05), got ${JSON.stringify(o.controls)}`);
  for (const n of [...o.run.filter((r) => r !== 'all'), ...o.only]) if (!/^\d{2}$/.test(n)) usage(`lessons are named by two digits (01), got ${JSON.stringify(n)}`);
  o.out ||= path.join(ROOT, 'build', 'browser', o.server);
  return o;
}

function usage(msg) {
  console.error(`check.mjs: ${msg} (--help for usage)`);
  process.exit(2);
}

const opts = parseArgs(process.argv.slice(2));
const t0 = Date.now();
const secs = (t = t0) => ((Date.now() - t) / 1000).toFixed(1);
const failures = [];
const report = { server: opts.server, notebooks: [], run: [], controls: [], checks: {} };

function fail(where, msg) {
  failures.push(`${where}: ${msg}`);
  console.log(`FAIL  ${where}: ${msg}`);
}

// copyCourse copies the course's sources into dir: no git data, tools,
// caches or build outputs (the ignored ones of .gitignore that can be large:
// .gpu-check/'s test binaries from scripts/gpu-check.sh, *.test binaries,
// and the commands `go build ./cmd/...` leaves at the root).
function copyCourse(dir) {
  const skip = new Set(['.git', '.tools', 'node_modules', 'build', '.bench', 'bin', '.gpu-check', '.ipynb_checkpoints', '__pycache__']);
  const skipAtRoot = new Set(['grade', 'bench', 'course', 'posenc', 'xla-check', 'xla-install']);
  fs.cpSync(ROOT, dir, {
    recursive: true,
    filter: (src) => {
      if (src === ROOT) return true;
      const name = path.basename(src);
      if (skip.has(name) || name.endsWith('.test') || name.endsWith('.prof')) return false;
      return !(path.dirname(src) === ROOT && skipAtRoot.has(name));
    },
  });
}

// startServer runs scripts/lab.sh on the copy and resolves to the URL it
// prints, once the server answers.
function startServer(courseDir, configDir, token) {
  const port = String(20000 + Math.floor(Math.random() * 20000));
  const child = spawn('bash', [path.join(ROOT, 'scripts', 'lab.sh')], {
    cwd: ROOT,
    env: { ...process.env, LAB_ROOT: courseDir, LAB_SERVER: opts.server, JUPYTER_TOKEN: token, PORT: port, JUPYTER_CONFIG_DIR: configDir },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`lab.sh printed no URL within 90 s:\n${log.slice(-3000)}`)), 90_000);
    const onData = (d) => {
      log += d;
      const m = log.match(/The course is open at:\s+(http\S+)/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`lab.sh exited (${code}):\n${log.slice(-3000)}`)); });
  });
  return { child, url, log: () => log };
}

function stopServer(child) {
  if (child.exitCode !== null) return;
  try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
}

// writeConfig writes the Jupyter configuration the check runs with: JupyterLab
// exposes its application object (window.jupyterapp) and renders every cell
// (no windowing), so that the page can be inspected.
function writeConfig(configDir) {
  fs.mkdirSync(path.join(configDir, 'lab', 'user-settings', '@jupyterlab', 'notebook-extension'), { recursive: true });
  fs.writeFileSync(path.join(configDir, 'jupyter_server_config.json'), JSON.stringify({ LabApp: { expose_app_in_browser: true } }));
  fs.writeFileSync(path.join(configDir, 'lab', 'user-settings', '@jupyterlab', 'notebook-extension', 'tracker.jupyterlab-settings'),
    JSON.stringify({ windowingMode: 'none' }));
}

// committed lists what a notebook file holds that the page must show.
function committed(file) {
  const nb = JSON.parse(fs.readFileSync(file, 'utf8'));
  let images = 0, math = false;
  const links = [], anchors = [];
  for (const c of nb.cells) {
    const src = Array.isArray(c.source) ? c.source.join('') : c.source;
    if (c.cell_type === 'markdown') {
      // Code spans and fenced blocks hold no links or math.
      const text = src.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|href="([^"]+)"/g)) {
        const href = m[1] ?? m[2];
        if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue; // absolute: http, mailto
        (href.startsWith('#') ? anchors : links).push(href);
      }
      images += [...text.matchAll(/!\[[^\]]*\]\(|<img\s/g)].length;
      if (/\$[^$]+\$/.test(text)) math = true;
    }
    for (const o of c.outputs ?? []) {
      const d = o.data ?? {};
      if (d['image/png'] || d['image/jpeg'] || d['image/svg+xml'] || d['image/gif']) images++;
    }
  }
  return { nb, images, math, links, anchors };
}

// ui adapts the checks to the server's front end.
const ui = {
  lab: {
    // A workspace of its own per page, so that earlier tabs do not reopen.
    url: (base, rel) => `${base}/lab/workspaces/check-${path.basename(rel, '.ipynb')}-${Date.now()}/tree/${rel}`,
    // The notebook widget is current and its kernel connected and has
    // answered kernel_info (whose language_info the front end stores in the
    // notebook's metadata). GoNB sends no status until the first execution,
    // so the kernel's status may stay "unknown" until then.
    ready: async () => {
      const w = window.__nb?.();
      const k = w?.sessionContext?.session?.kernel;
      if (!(w?.context?.isReady && k && k.connectionStatus === 'connected')) return false;
      return !!(await Promise.race([k.info, new Promise((r) => setTimeout(() => r(null), 200))]));
    },
    state: () => {
      const w = window.__nb();
      const cells = [...w.content.model.cells];
      const tab = document.querySelector('.lm-TabBar-tab.jp-mod-current');
      return {
        kernel: w.sessionContext.kernelDisplayName,
        dirty: w.context.model.dirty || !!tab?.classList.contains('jp-mod-dirty'),
        untrusted: cells.filter((c) => c.type === 'code' && c.outputs?.length > 0 && !c.trusted).length,
        path: w.context.path,
      };
    },
    root: () => window.__nb().node,
    mathErrors: 'mjx-merror, [data-mjx-error]',
    mathRendered: 'mjx-container',
    markdownLinks: '.jp-RenderedMarkdown a:not(.jp-InternalAnchorLink)',
    errorOutputs: '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"], .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"]',
    started: () => [...window.__nb().content.node.querySelectorAll('.jp-InputPrompt')].some((p) => p.textContent.includes('*')),
    runAll: async (page) => {
      await page.locator('.lm-MenuBar-itemLabel', { hasText: /^Run$/ }).click();
      await page.locator('.lm-Menu-itemLabel', { hasText: /^Run All Cells$/ }).click();
    },
    // The index of the code cell running now (Run All clears every count
    // at its start, and each cell gets its count when it finishes), or -1.
    running: () => {
      const cells = [...window.__nb().content.model.cells];
      return cells.findIndex((c) => c.type === 'code' && c.executionCount === null && c.sharedModel.getSource().trim() !== '');
    },
    // Every code cell has run: an execution count, nothing queued or running.
    done: () => {
      const w = window.__nb();
      const cells = [...w.content.model.cells].filter((c) => c.type === 'code');
      const k = w.sessionContext.session?.kernel;
      const busy = [...w.content.node.querySelectorAll('.jp-InputPrompt')].some((p) => p.textContent.includes('*'));
      return k?.status === 'idle' && !busy && cells.every((c) => c.executionCount !== null);
    },
    addNote: (text) => {
      const m = window.__nb().content.model;
      m.sharedModel.insertCell(m.cells.length, { cell_type: 'markdown', source: text });
    },
    save: async (page) => {
      await page.evaluate(() => window.jupyterapp.commands.execute('docmanager:save'));
      await page.waitForFunction(() => !window.__nb().context.model.dirty, null, { timeout: 30_000 });
    },
    kernelId: () => window.__nb().sessionContext.session?.kernel?.id,
  },
  notebook: {
    url: (base, rel) => `${base}/notebooks/${rel}`,
    ready: () => {
      const nb = window.Jupyter?.notebook;
      const k = nb?.kernel;
      return !!(nb && nb._fully_loaded && k && k.is_connected() && k.info_reply?.language_info);
    },
    state: () => {
      const nb = window.Jupyter.notebook;
      return {
        kernel: document.querySelector('.kernel_indicator_name')?.textContent ?? '',
        dirty: nb.dirty || /unsaved/.test(document.querySelector('.autosave_status')?.textContent ?? ''),
        untrusted: nb.trusted ? 0 : 1,
        trustText: document.querySelector('#notification_trusted')?.textContent ?? '',
        path: nb.notebook_path,
      };
    },
    root: () => document.querySelector('#notebook-container'),
    mathErrors: '.MathJax_Error, .merror, .MathJax_Display .merror',
    mathRendered: '.MathJax, .MathJax_Display, .MathJax_CHTML, .MathJax_SVG',
    markdownLinks: '.text_cell_render a:not(.anchor-link)',
    errorOutputs: '.output_stderr, .output_error',
    started: () => [...document.querySelectorAll('.input_prompt')].some((p) => p.textContent.includes('*')),
    runAll: async (page) => {
      await page.click('#celllink');
      await page.click('#run_all_cells > a');
    },
    running: () => window.Jupyter.notebook.get_cells().findIndex((c) => c.cell_type === 'code' && typeof c.input_prompt_number !== 'number'),
    done: () => {
      const nb = window.Jupyter.notebook;
      const cells = nb.get_cells().filter((c) => c.cell_type === 'code');
      return cells.every((c) => typeof c.input_prompt_number === 'number');
    },
    addNote: (text) => {
      window.Jupyter.notebook.insert_cell_at_bottom('markdown').set_text(text);
    },
    save: async (page) => {
      await page.evaluate(() => window.Jupyter.notebook.save_notebook());
      await page.waitForFunction(() => !window.Jupyter.notebook.dirty, null, { timeout: 30_000 });
    },
    kernelId: () => window.Jupyter.notebook.kernel?.id,
  },
}[opts.server];

let apiHeaders = {};

// headlessSeconds returns a notebook's wall time in its last headless run
// on the pure-Go backend, the one the browser's kernel uses
// (build/course-run.json, written by `course run` and `course notebooks`),
// else BROWSER_HEADLESS_S (default 300). A run on another backend (make
// xla-test's) says nothing of this one's time.
function headlessSeconds(rel) {
  try {
    const runs = JSON.parse(fs.readFileSync(path.join(ROOT, 'build', 'course-run.json'), 'utf8'));
    const r = runs.notebooks?.[path.basename(rel)];
    if (r?.seconds > 0 && (!r.backend || r.backend === 'go')) return { seconds: r.seconds, from: `build/course-run.json, ${r.when}` };
  } catch { /* none */ }
  return { seconds: Number(process.env.BROWSER_HEADLESS_S ?? 300), from: 'BROWSER_HEADLESS_S' };
}

// openNotebook shows the notebook rel. JupyterLab, once loaded, opens it as
// a learner would from the file browser, in place of the notebook before
// (whose kernel is shut down); Jupyter Notebook loads its page.
async function openNotebook(page, base, rel) {
  const loaded = opts.server === 'lab' && await page.evaluate(() => !!window.jupyterapp?.commands).catch(() => false);
  if (!loaded) {
    await page.goto(ui.url(base, rel));
    return;
  }
  await page.evaluate(async (path) => {
    const app = window.jupyterapp;
    for (const w of [...app.shell.widgets('main')]) {
      if (w.context) {
        await w.sessionContext?.shutdown?.().catch(() => {});
        w.dispose();
      }
    }
    await app.commands.execute('docmanager:open', { path, factory: 'Notebook' });
  }, rel);
}

// waitFor polls fn in the page (page.evaluate awaits a promise it returns,
// unlike waitForFunction) until it returns something truthy.
async function waitFor(page, fn, timeoutMs, what) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await page.evaluate(fn).catch(() => false);
    if (v) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await page.waitForTimeout(250);
  }
}

async function shutdownKernel(page, base, id) {
  if (!id) return;
  const res = await page.request.delete(`${base}/api/kernels/${id}`, { headers: apiHeaders }).catch((e) => ({ status: () => e.message }));
  if (res.status() !== 204 && res.status() !== 404) console.log(`note  shutting down kernel ${id}: ${res.status()}`);
}

// checkNotebook opens one notebook and checks it.
async function checkNotebook(page, base, courseDir, rel) {
  const name = path.basename(rel, '.ipynb');
  const file = path.join(courseDir, rel);
  const want = committed(file);
  const t = Date.now();
  const rec = { notebook: rel };
  const failed = failures.length;
  await openNotebook(page, base, rel);
  try {
    await waitFor(page, ui.ready, 120_000, 'notebook open, kernel connected');
  } catch (e) {
    fail(rel, `the notebook or its kernel did not become ready: ${e.message.split('\n')[0]}`);
    await page.screenshot({ path: path.join(opts.out, `${name}.png`) });
    return rec;
  }
  rec.kernelReadySeconds = +secs(t);
  // Give the front end a moment to apply what the kernel said, then look.
  await page.waitForTimeout(1000);
  const st = await page.evaluate(ui.state);
  rec.kernel = st.kernel;
  if (st.kernel !== 'Go (gonb)') fail(rel, `the kernel is ${JSON.stringify(st.kernel)}, want "Go (gonb)"`);
  if (st.dirty) fail(rel, 'marked modified (unsaved changes) right after opening: its committed metadata differs from what the kernel sets');
  if (st.untrusted) fail(rel, `opens untrusted${st.trustText ? ` ("${st.trustText}")` : ''}: run scripts/install.sh --trust`);

  // Images: every one in the notebook loads, and none is missing.
  await page.waitForFunction((root) => [...eval(root)().querySelectorAll('img')].every((i) => i.complete), ui.root.toString(), { timeout: 30_000 }).catch(() => {});
  const imgs = await page.evaluate((root) => [...eval(root)().querySelectorAll('img')].map((i) => ({ src: i.src.slice(0, 80), ok: i.complete && i.naturalWidth > 0 })), ui.root.toString());
  rec.images = imgs.length;
  const broken = imgs.filter((i) => !i.ok);
  if (broken.length) fail(rel, `${broken.length} of ${imgs.length} images do not load: ${broken.map((i) => i.src).join(', ')}`);
  if (imgs.length < want.images) fail(rel, `shows ${imgs.length} images; the notebook holds ${want.images}`);

  // MathJax: typeset, no error. It typesets asynchronously: wait until the
  // count of rendered formulas stops changing.
  let last = -1, n = 0;
  for (let i = 0; i < 40; i++) {
    n = await page.evaluate(([root, sel]) => eval(root)().querySelectorAll(sel).length, [ui.root.toString(), ui.mathRendered]);
    if (n === last) break;
    last = n;
    await page.waitForTimeout(250);
  }
  rec.formulas = n;
  const mathErrors = await page.evaluate(([root, sel]) => [...eval(root)().querySelectorAll(sel)].map((e) => e.textContent.slice(0, 80)), [ui.root.toString(), ui.mathErrors]);
  if (mathErrors.length) fail(rel, `MathJax errors: ${mathErrors.join(' | ')}`);
  if (want.math && n === 0) fail(rel, 'its text has formulas but MathJax rendered none');

  // Links: every relative link in the text answers 200.
  const hrefs = await page.evaluate(([root, sel]) => [...eval(root)().querySelectorAll(sel)]
    .map((a) => ({ raw: a.getAttribute('href') ?? '', abs: a.href }))
    .filter((a) => a.raw && !a.raw.startsWith('#') && (!/^[a-z][a-z0-9+.-]*:/i.test(a.raw) || a.abs.startsWith(location.origin))),
  [ui.root.toString(), ui.markdownLinks]);
  rec.links = hrefs.length;
  rec.badLinks = [];
  // Fetched from the page, as a click would: same origin, cookies, referrer.
  const statuses = await page.evaluate((urls) => Promise.all(urls.map((u) =>
    fetch(u, { credentials: 'same-origin' }).then((r) => r.status, (e) => String(e)))), hrefs.map((h) => h.abs));
  hrefs.forEach((h, i) => { if (statuses[i] !== 200) rec.badLinks.push(`${h.raw} (${statuses[i]})`); });
  if (rec.badLinks.length) fail(rel, `${rec.badLinks.length} of ${hrefs.length} relative links do not answer 200: ${rec.badLinks.join(', ')}`);
  if (hrefs.length < want.links.length) fail(rel, `shows ${hrefs.length} relative links; its text has ${want.links.length}`);
  const missingAnchors = await page.evaluate(([root, anchors]) => anchors.filter((a) => {
    const id = decodeURIComponent(a.slice(1));
    return !eval(root)().querySelector(`[id="${CSS.escape(id)}"], a[name="${CSS.escape(id)}"]`);
  }), [ui.root.toString(), want.anchors]);
  if (missingAnchors.length) fail(rel, `links to missing anchors: ${missingAnchors.join(', ')}`);

  await page.screenshot({ path: path.join(opts.out, `${name}.png`) });
  // Every figure in its place on the page, for a person to look at.
  const figs = page.locator(opts.server === 'lab' ? '.jp-OutputArea-output img' : '.output_png img');
  const nfigs = opts.server === 'lab' ? await figs.count() : Math.min(await figs.count(), 1);
  for (let k = 0; k < nfigs; k++) {
    await figs.nth(k).evaluate((e) => e.scrollIntoView({ block: 'center' }));
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(opts.out, `${name}-figure-${k + 1}.png`) });
  }
  // The first code cell indented with tabs, to see how Go code looks.
  // (Not a check cell: its source is collapsed.)
  const tabbed = want.nb.cells.findIndex((c) => c.cell_type === 'code' && /^\t/m.test([].concat(c.source).join('')) && !/^\/\/ Checks:/.test([].concat(c.source).join('')));
  if (tabbed >= 0) {
    const cell = page.locator(opts.server === 'lab' ? '.jp-Notebook > .jp-WindowedPanel-viewport > .jp-Cell, .jp-Notebook .jp-Cell' : '#notebook-container > .cell').nth(tabbed);
    const input = cell.locator(opts.server === 'lab' ? '.jp-InputArea' : '.input').first();
    await input.evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(200);
    const box = await input.boundingBox();
    if (box) await page.screenshot({ path: path.join(opts.out, `${name}-code.png`), clip: { x: box.x, y: Math.max(box.y, 0), width: box.width, height: Math.min(box.height, 420) } });
    // Tabs read as indentation: four columns, no arrows drawn on them.
    const look = await input.evaluate((e) => {
      const tab = e.querySelector('.cm-tab');
      const line = e.querySelector('.cm-content, .CodeMirror-code pre');
      return {
        arrow: tab ? getComputedStyle(tab).backgroundImage : 'none',
        tabSize: line ? getComputedStyle(line).tabSize : '',
      };
    });
    if (look.arrow !== 'none') fail(rel, `tabs in code are drawn with an arrow (${look.arrow.slice(0, 40)}…)`);
    if (opts.server === 'lab' && look.tabSize !== '4') fail(rel, `tabs in code are ${look.tabSize} columns wide, want 4`);
  }
  // The first answer (<details>), closed and open, for a person to look at.
  const details = page.locator(opts.server === 'lab' ? '.jp-RenderedMarkdown details' : '.text_cell_render details').first();
  if (await details.count()) {
    await details.scrollIntoViewIfNeeded();
    const display = await details.locator('summary').evaluate((e) => getComputedStyle(e).display);
    if (display !== 'list-item') fail(rel, `an answer's <summary> shows no disclosure marker (display: ${display})`);
    await details.screenshot({ path: path.join(opts.out, `${name}-answer-closed.png`) });
    await details.locator('summary').click();
    await page.waitForTimeout(200);
    await details.screenshot({ path: path.join(opts.out, `${name}-answer-open.png`) });
  }
  rec.seconds = +secs(t);
  console.log(`${failures.length > failed ? 'FAIL' : 'ok  '}  ${rel}: kernel ${rec.kernel} ready in ${rec.kernelReadySeconds}s; ${rec.images} images, ${rec.formulas} formulas, ${rec.links} links checked (${secs(t)}s)`);
  return rec;
}

// runNotebook runs every cell from the menu and checks the outputs.
async function runNotebook(page, base, courseDir, rel) {
  const name = path.basename(rel, '.ipynb');
  const want = committed(path.join(courseDir, rel));
  const t = Date.now();
  const rec = { notebook: rel };
  const failed = failures.length;
  await openNotebook(page, base, rel);
  await waitFor(page, ui.ready, 120_000, 'notebook open, kernel connected');
  const before = fs.readFileSync(path.join(courseDir, rel), 'utf8');
  await ui.runAll(page);
  // Run All must not wait on a learner: nothing here presses Done. Its
  // budget is the notebook's headless time plus BROWSER_STALL_S.
  const headless = headlessSeconds(rel);
  const stall = Number(process.env.BROWSER_STALL_S ?? 120);
  rec.headlessSeconds = headless.seconds;
  rec.headlessFrom = headless.from;
  rec.budgetSeconds = Math.round(headless.seconds + stall);
  const busy = new Map(); // cell index → seconds it was seen running
  try {
    await page.waitForFunction(ui.started, null, { timeout: 30_000, polling: 100 });
    let last = Date.now();
    for (const end = Date.now() + rec.budgetSeconds * 1000; !(await page.evaluate(ui.done)); await page.waitForTimeout(500)) {
      const now = Date.now();
      const i = await page.evaluate(ui.running).catch(() => -1);
      if (i >= 0) busy.set(i, (busy.get(i) ?? 0) + (now - last) / 1000);
      last = now;
      if (now > end) {
        const stuck = i >= 0 ? `cell ${i + 1} has been running for ${Math.round(busy.get(i))} s` : 'no cell seen running';
        throw new Error(`not done within ${rec.budgetSeconds} s (headless ${Math.round(headless.seconds)} s, ${headless.from}, + ${stall} s): ${stuck}`);
      }
    }
  } catch (e) {
    fail(rel, `Run All Cells stalled: ${e.message.split('\n')[0]}`);
  }
  rec.seconds = +secs(t);
  const slowest = [...busy].sort((a, b) => b[1] - a[1])[0];
  if (slowest) rec.slowestCell = { cell: slowest[0] + 1, seconds: +slowest[1].toFixed(1) };
  await page.screenshot({ path: path.join(opts.out, `${name}-run.png`) });
  const errors = await page.evaluate(([root, sel]) => [...eval(root)().querySelectorAll(sel)].map((e) => e.textContent.trim().slice(0, 300)), [ui.root.toString(), ui.errorOutputs]);
  rec.errorOutputs = errors.length;
  if (errors.length) fail(rel, `Run All Cells: ${errors.length} error outputs, the first: ${errors[0]}`);

  // A learner's note at the end, then save: it must reach the file, and
  // the outputs must be what the committed notebook shows.
  const note = `A learner's note, ${Date.now()}`;
  await page.evaluate(ui.addNote, note);
  await ui.save(page);
  const after = fs.readFileSync(path.join(courseDir, rel), 'utf8');
  if (after === before || !after.includes(note)) fail(rel, 'saving did not write the learner\'s new cell to the file: their work would be lost');
  const got = JSON.parse(after);
  // GoNB sends a program's standard output and what it displays down two
  // pipes, so their order within a cell, and how the streams are split,
  // vary from run to run: compare each stream's text and the displays.
  const summary = (outputs = []) => {
    const out = { stdout: '', stderr: '', other: [] };
    for (const o of outputs) {
      // Timings ("trained in 18.2 s (31000 tokens/s)", a progress line's
      // "15.5k tok/s  ETA 0:09") vary from run to run: compare them masked,
      // with the spaces that pad them to a column (a slower machine's
      // "9.8k" is padded where a faster one's "15.5k" is not).
      if (o.output_type === 'stream') out[o.name] += [].concat(o.text).join('').replace(/ *\d+(\.\d+)?k? (s|ms|tokens\/s|tok\/s)\b/g, ' # $2').replace(/ETA \d+(:\d+)+/g, 'ETA #');
      else if (o.output_type === 'error') out.other.push(`error: ${o.ename}: ${o.evalue}`);
      else {
        const d = o.data ?? {};
        const images = Object.keys(d).filter((k) => k.startsWith('image/'));
        const text = (k) => [].concat(d[k]).join('');
        if (Object.keys(d).length === 1 && d['text/html'] !== undefined && text('text/html') === '') continue; // a closed panel's controls
        // A panel's readout: the same up to its last line, which says how
        // the controls ended (or, committed, where to get them).
        const panel = (t) => (/\n(Run this cell in JupyterLab to explore it|Controls closed \()/.test(t) ? t.slice(0, t.lastIndexOf('\n')) : t);
        out.other.push(images.length ? images.join(',') : Object.keys(d).sort().map((k) => `${k}: ${panel(text(k))}`).join('; '));
      }
    }
    out.other.sort();
    return JSON.stringify(out);
  };
  const diffs = [];
  want.nb.cells.forEach((c, i) => {
    if (c.cell_type !== 'code') return;
    const a = summary(c.outputs), b = summary(got.cells[i]?.outputs);
    if (a !== b) diffs.push(`cell ${i + 1}:\n      committed: ${a.slice(0, 300)}\n      live:      ${b.slice(0, 300)}`);
  });
  rec.differingCells = diffs.length;
  // Every interactive cell ended by itself: its controls closed because
  // cells were queued after it (not by Done, not after minutes idle).
  if (opts.server === 'lab') {
    const queuedNote = 'Controls closed (another cell is queued to run)';
    rec.panels = [];
    for (const i of panelCells(want.nb).cells) {
      const readout = [].concat(...(got.cells[i]?.outputs ?? []).map((o) => o.data?.['text/plain'] ?? [])).join('');
      const p = { cell: i + 1, seconds: +(busy.get(i) ?? 0).toFixed(1), endedByItself: readout.includes(queuedNote) };
      rec.panels.push(p);
      if (!p.endedByItself) fail(rel, `Run All Cells: interactive cell ${i + 1} did not end by itself (its readout lacks "${queuedNote}"): ${JSON.stringify(readout.slice(-200))}`);
    }
  }
  if (diffs.length) fail(rel, `after Run All Cells, ${diffs.length} cells show other outputs than the committed notebook:\n    ${diffs.slice(0, 3).join('\n    ')}`);
  if (failures.length === failed) {
    const panels = rec.panels?.length ? `; ${rec.panels.length} interactive cells ended by themselves (${rec.panels.map((p) => `${p.seconds}s`).join(', ')})` : '';
    console.log(`ok    ${rel}: Run All Cells from the menu in ${rec.seconds}s (budget ${rec.budgetSeconds}s), no error output, outputs as committed, saved${panels}`);
  }
  await shutdownKernel(page, base, await page.evaluate(ui.kernelId));
  return rec;
}

// driveControls runs the interactive cells of every notebook that has
// them (or of the lessons --controls names) and drives their controls.
async function driveControls(page, base, courseDir, all) {
  const t = Date.now();
  const wanted = opts.controls === 'all' ? null : opts.controls.split(',');
  const ctx = { fail, failures: () => failures.length, out: opts.out, ui, waitFor };
  for (const f of all) {
    const rel = `notebooks/${f}`;
    const nb = JSON.parse(fs.readFileSync(path.join(courseDir, rel), 'utf8'));
    if (!panelCells(nb).cells.length || (wanted && !wanted.includes(f.slice(0, 2)))) continue;
    await openNotebook(page, base, rel);
    try {
      await waitFor(page, ui.ready, 120_000, 'notebook open, kernel connected');
      report.controls.push(await checkControls(ctx, page, rel, nb));
    } catch (e) {
      fail(rel, `driving the controls: ${e.stack ?? e}`);
    }
    await shutdownKernel(page, base, await page.evaluate(ui.kernelId).catch(() => null));
  }
  if (wanted && !report.controls.length) fail('--controls', `no interactive cells in lessons ${opts.controls}`);
  const ms = report.controls.flatMap((r) => r.panels.flatMap((p) => p.moves.map((m) => m.ms))).sort((a, b) => a - b);
  if (!ms.length) return;
  const limit = Number(process.env.BROWSER_REDRAW_MS ?? 200);
  const median = ms[Math.floor(ms.length / 2)], p90 = ms[Math.floor(ms.length * 0.9)];
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  report.checks.redraw = { changes: ms.length, medianMs: median, p90Ms: p90, maxMs: ms[ms.length - 1], limitMs: limit, loadAverage: load, seconds: +secs(t) };
  const line = `${ms.length} control changes, redraw (release to new figure) median ${median} ms, 90th percentile ${p90} ms, max ${ms[ms.length - 1]} ms (load average ${load}; ${secs(t)}s)`;
  if (median > limit) fail('controls', `${line}: the median is over ${limit} ms`);
  else console.log(`ok    ${line}`);
}

async function main() {
  fs.rmSync(opts.out, { recursive: true, force: true });
  fs.mkdirSync(opts.out, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'course-browser-'));
  const courseDir = path.join(scratch, 'course');
  const configDir = path.join(scratch, 'jupyter-config');
  const profile = path.join(scratch, 'chromium-profile');
  copyCourse(courseDir);
  writeConfig(configDir);
  const token = randomBytes(24).toString('hex');
  const server = startServer(courseDir, configDir, token);
  let context;
  try {
    const url = await server.url;
    const base = new URL(url).origin;
    apiHeaders = { Authorization: `token ${token}` };
    report.checks.serverSeconds = +secs();
    console.log(`ok    ${opts.server === 'lab' ? 'JupyterLab' : 'Jupyter Notebook'} answers at ${url.replace(token, '<token>')} (${secs()}s)`);

    // The token: required, and on no command line.
    const anon = await fetch(`${base}/api/contents/notebooks`).catch((e) => ({ status: e.message }));
    if (anon.status !== 403) fail('server', `a request without the token got ${anon.status}, want 403`);
    const leaked = [];
    for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      try { if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(token)) leaked.push(pid); } catch { /* gone */ }
    }
    if (leaked.length) fail('server', `the token is on the command line of processes ${leaked.join(', ')} (ps shows it)`);

    context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      viewport: { width: 1280, height: 1000 },
    });
    // __nb returns JupyterLab's notebook panel: each page has a workspace of its own.
    await context.addInitScript(() => {
      window.__nb = () => {
        const app = window.jupyterapp;
        if (!app) return null;
        const panels = [...app.shell.widgets('main')].filter((w) => w.context && w.content && w.sessionContext);
        return panels[panels.length - 1] ?? null;
      };
    });
    const page = context.pages()[0] ?? await context.newPage();
    page.setDefaultTimeout(60_000);
    report.checks.browserSeconds = +secs();

    // Log in with the token; the page opens on notebooks/.
    await page.goto(url);
    if (opts.server === 'lab') {
      await page.waitForFunction(() => window.jupyterapp?.serviceManager?.contents && document.querySelector('.jp-DirListing-item'), null, { timeout: 60_000 });
      await page.waitForFunction(() => document.querySelector('.jp-FileBrowser-crumbs')?.textContent.includes('notebooks'), null, { timeout: 10_000 }).catch(() => {});
      const where = await page.evaluate(() => document.querySelector('.jp-FileBrowser-crumbs')?.textContent ?? '');
      if (!where.includes('notebooks')) fail('server', `the start page shows the folder "${where}", want notebooks/`);
    } else {
      await page.waitForSelector('#notebook_list .list_item');
      if (!page.url().includes('/tree/notebooks')) fail('server', `the start page is ${page.url().replace(token, '<token>')}, want notebooks/`);
    }
    await page.screenshot({ path: path.join(opts.out, 'start.png') });

    const all = fs.readdirSync(path.join(courseDir, 'notebooks')).filter((f) => /^\d{2}-.*\.ipynb$/.test(f)).sort();
    const chosen = opts.only.length ? all.filter((f) => opts.only.includes(f.slice(0, 2))) : all;
    if (!chosen.length) fail('notebooks', 'no notebooks found');
    for (const f of chosen) {
      const rel = `notebooks/${f}`;
      const rec = await checkNotebook(page, base, courseDir, rel);
      report.notebooks.push(rec);
      await shutdownKernel(page, base, await page.evaluate(ui.kernelId).catch(() => null));
    }
    const toRun = opts.run.includes('all') ? chosen : opts.run.map((n) => all.find((x) => x.startsWith(`${n}-`)) ?? n);
    for (const f of toRun) {
      if (!f.endsWith('.ipynb')) { fail(`--run ${f}`, 'no such notebook'); continue; }
      report.run.push(await runNotebook(page, base, courseDir, `notebooks/${f}`));
      fs.writeFileSync(path.join(opts.out, 'run-all.json'), JSON.stringify({
        server: opts.server,
        loadAverage: fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
        notebooks: report.run.map((r) => ({ notebook: r.notebook, seconds: r.seconds, budgetSeconds: r.budgetSeconds, headlessSeconds: r.headlessSeconds, headlessFrom: r.headlessFrom, slowestCell: r.slowestCell, panels: r.panels })),
      }, null, 1));
    }
    if (opts.server === 'lab' && opts.controls !== 'none') await driveControls(page, base, courseDir, chosen);
  } catch (e) {
    fail('check', e.stack ?? String(e));
  } finally {
    await context?.close().catch(() => {});
    stopServer(server.child);
    await new Promise((r) => setTimeout(r, 500));
    fs.writeFileSync(path.join(opts.out, 'server.log'), server.log().replaceAll(token, '<token>'));
    if (opts.keep) console.log(`kept ${scratch}`);
    else fs.rmSync(scratch, { recursive: true, force: true });
  }
  report.seconds = +secs();
  report.failures = failures;
  fs.writeFileSync(path.join(opts.out, 'report.json'), JSON.stringify(report, null, 1));
  const nbs = report.notebooks.length;
  const links = report.notebooks.reduce((s, r) => s + (r.links ?? 0), 0);
  const bad = report.notebooks.reduce((s, r) => s + (r.badLinks?.length ?? 0), 0);
  console.log(`browser check (${opts.server}): ${nbs} notebooks, ${links - bad}/${links} relative links answer 200, ` +
    `${report.run.length} run from the menu, ${failures.length} failures, ${secs()}s; screenshots in ${path.relative(ROOT, opts.out)}/`);
  process.exit(failures.length ? 1 : 0);
}

await main();
