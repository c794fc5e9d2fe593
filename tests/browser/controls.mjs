// controls.mjs — the part of the browser check that drives the notebooks'
// live controls (pkg/live) in JupyterLab, as a learner would: for every
// cell whose committed output invites the reader to run it in JupyterLab
// for controls, it runs the notebook's setup cell and that cell, waits for
// the controls, then moves each slider with the mouse (to one end and back
// to the middle) and picks every option of each select. After each change
// it fails unless
//
//   - the figure changes (a new image in the cell's output),
//   - the readout's first line names the new setting, and its numbers are
//     right for it (recomputed here, independently, for the panels the
//     course has: the band view, lesson 2's table, lesson 4's shifted pair,
//     lesson 6's ALiBi windows),
//   - no error output, page error or console error appears;
//
// and it measures the time from the control's change event (the slider's
// release) to the new figure decoded in the page. Done must close the
// controls and end the cell; so must running another cell while they are
// live (Run All's case, where cells are queued from the start, is
// check.mjs's). Screenshots: <out>/<notebook>-controls-<n>.png.
//
// Used by check.mjs (--server lab); exported: panelCells, checkControls.

import path from 'node:path';

// The note a panel's committed (headless) readout ends with: the marker of
// an interactive cell.
export const PANEL_NOTE = 'Run this cell in JupyterLab to explore it with controls for';

// CLOSED_NOTE starts the last line of a panel's readout once it ran in
// JupyterLab (Run All closes its controls at once): the marker in a
// notebook the check has run and saved.
export const CLOSED_NOTE = '\nControls closed (';

// panelCells returns the indexes of the interactive cells of a notebook,
// and of its setup cell (the first code cell).
export function panelCells(nb) {
  const text = (o) => [].concat(o?.text ?? o?.data?.['text/plain'] ?? []).join('');
  const cells = [];
  nb.cells.forEach((c, i) => {
    if (c.cell_type === 'code' && (c.outputs ?? []).some((o) => text(o).includes(PANEL_NOTE) || text(o).includes(CLOSED_NOTE))) cells.push(i);
  });
  const setup = nb.cells.findIndex((c) => c.cell_type === 'code');
  return { setup, cells };
}

// --- Independent recomputations of what each panel's readout says. -------

const near = (got, want, tol) => Math.abs(got - want) <= tol;

// The sinusoidal frequencies ω_i = b^(−2i/d), i < d/2 (Vaswani et al. 2017).
const freqs = (d, b) => Array.from({ length: d / 2 }, (_, i) => b ** (-(2 * i) / d));

// ALiBi's slopes, as the authors' code computes them (ofirpress/attention_with_linear_biases,
// fairseq/models/transformer.py, get_slopes).
function alibiSlopes(n) {
  const pow2 = (m) => {
    const start = 2 ** -(2 ** -(Math.log2(m) - 3));
    return Array.from({ length: m }, (_, i) => start * start ** i);
  };
  if (Number.isInteger(Math.log2(n))) return pow2(n);
  const c = 2 ** Math.floor(Math.log2(n));
  return pow2(c).concat(alibiSlopes(2 * c).filter((_, i) => i % 2 === 0).slice(0, n - c));
}

const num = (s) => Number(s);

// verifiers check a readout (its lines after the setting) against the
// setting; each returns a list of problems, or null when the readout is not
// of its kind.
const verifiers = [
  // pkg/bandview: "<method>: d = 128, base = 10000, L = 4096, factor s = 4 (target 16384 tokens)"
  function bandview(lines, setting) {
    const m = lines[0]?.match(/^(.+): d = (\d+), base = ([\d.e+]+), L = (\d+), factor s = ([\d.]+) \(target (\d+) tokens\)$/);
    if (!m) return null;
    const [method, d, base, L, s, target] = [m[1], num(m[2]), num(m[3]), num(m[4]), num(m[5]), num(m[6])];
    const bad = [];
    if (setting.method !== undefined && setting.method !== method) bad.push(`method ${method}, set ${setting.method}`);
    if (setting['base b'] !== undefined && num(setting['base b']) !== base) bad.push(`base ${base}, set ${setting['base b']}`);
    if (setting['factor s'] !== undefined && num(setting['factor s']) !== s) bad.push(`factor ${s}, set ${setting['factor s']}`);
    if (setting['training length L'] !== undefined && num(setting['training length L']) !== L) bad.push(`L ${L}, set ${setting['training length L']}`);
    if (target !== Math.round(s * L)) bad.push(`target ${target} ≠ s·L = ${s * L}`);
    const w = freqs(d, base);
    const lambda = w.map((x) => 2 * Math.PI / x);
    const wl = lines[1]?.match(/^wavelengths: ([\d.]+) to (\d+) tokens unscaled/);
    if (!wl || !near(num(wl[1]), lambda[0], 0.05) || !near(num(wl[2]), lambda[lambda.length - 1], 0.5 + 1e-9 * lambda[lambda.length - 1])) {
      bad.push(`wavelengths line "${lines[1]}", want 2π to ${lambda[lambda.length - 1].toFixed(0)}`);
    }
    const rg = lines[2]?.match(/^pairs kept (\d+), blended (\d+), interpolated (\d+), divided by more than s (\d+)$/);
    if (!rg) bad.push(`no regimes line: "${lines[2]}"`);
    else {
      const [k, b, i, beyond] = rg.slice(1).map(num);
      if (k + b + i + beyond !== d / 2) bad.push(`regimes sum to ${k + b + i + beyond}, not d/2 = ${d / 2}`);
      // LongRoPE at s = 1 applies its searched short factors, which do divide
      // pairs: only the closed-form methods keep every pair there.
      if ((method === 'none' || (s === 1 && !/LongRoPE/.test(method))) && k !== d / 2) bad.push(`${method} at s = ${s} keeps ${k} pairs, not all ${d / 2}`);
      if (method === 'PI' && s > 1 && i !== d / 2) bad.push(`PI interpolates ${i} pairs, not all ${d / 2}`);
    }
    // Pairs past their trained angle at s·L, for the methods with a closed
    // form: none (ω' = ω), PI (ω/s), NTK (base b·s^(d/(d−2))).
    const scaled = {
      none: () => w,
      PI: () => w.map((x) => x / s),
      NTK: () => freqs(d, base * s ** (d / (d - 2))),
    }[method];
    const past = lines.find((l) => l.startsWith('pairs past their trained angle'));
    if (past && scaled) {
      const ws = scaled();
      const want = w.filter((x, i) => L * x < 2 * Math.PI && target * ws[i] > L * x * (1 + 1e-9)).length;
      const got = num(past.match(/: (\d+)/)?.[1]);
      if (got !== want) bad.push(`${past}: want ${want}`);
    }
    const slow = lines.find((l) => l.startsWith('pairs that turn less than once'));
    if (slow) {
      const want = lambda.filter((x) => x > L).length;
      if (num(slow.match(/tokens: (\d+)/)?.[1]) !== want) bad.push(`${slow}: want ${want}`);
    }
    const rel = lines.find((l) => l.startsWith('relative property'));
    if (rel && !(num(rel.match(/= ([\d.e+-]+)$/)?.[1]) < 1e-9)) bad.push(`${rel}: want rounding error (< 1e-9)`);
    return bad;
  },

  // Lesson 2: "wavelengths from 6.28 (pair 0) to 54410.1 tokens (pair 63)" for d and base b.
  function sinusoidal(lines, setting) {
    const m = lines[0]?.match(/^wavelengths from ([\d.]+) \(pair 0\) to ([\d.]+) tokens \(pair (\d+)\)$/);
    if (!m) return null;
    const d = num(setting.d), b = num(setting['base b']);
    const w = freqs(d, b);
    const bad = [];
    if (!near(num(m[2]), 2 * Math.PI / w[w.length - 1], 0.05 + 1e-9 * 2 * Math.PI / w[w.length - 1]) || num(m[3]) !== d / 2 - 1) {
      bad.push(`${lines[0]}: want ${(2 * Math.PI / w[w.length - 1]).toFixed(1)} tokens (pair ${d / 2 - 1})`);
    }
    const doc = lines[1]?.match(/^in a (\d+)-token document: (\d+) pairs wrap, (\d+) are still$/);
    if (!doc) bad.push(`no document line: "${lines[1]}"`);
    else {
      const L = num(doc[1]);
      const wrap = w.filter((x) => 2 * Math.PI / x < L).length;
      const still = w.filter((x) => x * L < 2 * Math.PI / 100).length;
      if (num(doc[2]) !== wrap || num(doc[3]) !== still) bad.push(`${lines[1]}: want ${wrap} wrap, ${still} still`);
    }
    // PE(0)·PE(k) = Σ_i cos(k ω_i) (lesson 2, section 4).
    const sim = (k) => w.reduce((a, x) => a + Math.cos(k * x), 0) / (d / 2);
    const sl = lines[2]?.match(/(never negative up to k = 2000|first negative at k = (\d+)); ([-\d.]+) at k = 1000; largest \|similarity\| past k = 200: ([\d.]+)$/);
    if (!sl) bad.push(`no similarity line: "${lines[2]}"`);
    else {
      let first = -1, swing = 0;
      for (let k = 0; k <= 2000; k++) {
        const v = sim(k);
        if (v < 0 && first < 0) first = k;
        if (k >= 200) swing = Math.max(swing, Math.abs(v));
      }
      if ((sl[2] === undefined ? -1 : num(sl[2])) !== first) bad.push(`${lines[2]}: first negative at ${first}`);
      if (!near(num(sl[3]), sim(1000), 0.0006)) bad.push(`${lines[2]}: similarity at 1000 is ${sim(1000).toFixed(3)}`);
      if (!near(num(sl[4]), swing, 0.0006)) bad.push(`${lines[2]}: largest past 200 is ${swing.toFixed(3)}`);
    }
    return bad;
  },

  // Lesson 4: "RoPE: q(m)·k(n) = a, q(m+t)·k(n+t) = b, gap g: equal".
  function shiftedPair(lines, setting) {
    const r = lines[0]?.match(/^RoPE: q\(m\)·k\(n\) = ([-\d.]+), q\(m\+t\)·k\(n\+t\) = ([-\d.]+), gap ([\d.e+-]+): (equal|different)$/);
    if (!r) return null;
    const a = lines[1]?.match(/^added table: .* = ([-\d.]+), at m\+t, n\+t: ([-\d.]+), gap ([\d.e+-]+): (equal|different)$/);
    const bad = [];
    if (r[1] !== r[2] || !(num(r[3]) < 1e-9) || r[4] !== 'equal') bad.push(`${lines[0]}: RoPE's scores must be equal`);
    const t = num(setting.t);
    if (!a) bad.push(`no added-table line: "${lines[1]}"`);
    else if (t === 0 && (num(a[3]) !== 0 || a[1] !== a[2])) bad.push(`${lines[1]}: at t = 0 the scores are the same cell`);
    else if (!near(Math.abs(num(a[1]) - num(a[2])), num(a[3]), 2e-6 + 0.051 * num(a[3]))) bad.push(`${lines[1]}: the gap is not the difference`); // gap printed to 2 digits
    return bad;
  },

  // Lesson 6: "slopes: steepest 0.5 (head 1), gentlest 0.003906 (head 8)".
  function alibi(lines, setting) {
    const m = lines[0]?.match(/^slopes: steepest ([\d.e-]+) \(head (\d+)\), gentlest ([\d.e-]+) \(head (\d+)\)$/);
    if (!m) return null;
    const n = num(setting['heads n']), i = num(setting['query position i']);
    const s = alibiSlopes(n);
    const steep = s.indexOf(Math.max(...s)), gentle = s.indexOf(Math.min(...s));
    const bad = [];
    if (!near(num(m[1]), s[steep], 1e-4 * s[steep]) || num(m[2]) !== steep + 1 || !near(num(m[3]), s[gentle], 1e-4 * s[gentle]) || num(m[4]) !== gentle + 1) {
      bad.push(`${lines[0]}: want ${s[steep].toPrecision(4)} (head ${steep + 1}) and ${s[gentle].toPrecision(4)} (head ${gentle + 1})`);
    }
    const win = s.map((x) => Math.log(100) / x);
    const wl = lines[1]?.match(/^windows ln\(100\)\/m: ([\d.]+) to ([\d.]+) tokens$/);
    if (!wl || !near(num(wl[1]), win[steep], 0.05) || !near(num(wl[2]), win[gentle], 0.05)) bad.push(`${lines[1]}: want ${win[steep].toFixed(1)} to ${win[gentle].toFixed(1)}`);
    const reach = lines[2]?.match(/\(window ≥ (\d+)\): (\d+) of (\d+)$/);
    const want = win.filter((x) => x >= i).length;
    if (!reach || num(reach[1]) !== i || num(reach[2]) !== want || num(reach[3]) !== n) bad.push(`${lines[2]}: want ${want} of ${n} for i = ${i}`);
    return bad;
  },
];

// verify checks a readout against the setting the controls show: its first
// line names it exactly; the rest is checked by the first verifier that
// knows the kind. It returns the problems and the verifier's name.
function verify(readout, controls) {
  const lines = readout.split('\n');
  const setting = Object.fromEntries(controls.map((c) => [c.label, c.value]));
  const want = controls.map((c) => `${c.label} = ${c.value}`).join(', ');
  const bad = lines[0] === want ? [] : [`the readout says "${lines[0]}", the controls "${want}"`];
  for (const v of verifiers) {
    const problems = v(lines.slice(1), setting);
    if (problems) return { bad: bad.concat(problems), kind: v.name };
  }
  return { bad, kind: 'setting only' };
}

// --- Driving the page. -----------------------------------------------------

// In the page: the state of the panel in cell i.
function panelState(i) {
  const cell = window.__nb().content.widgets[i];
  const node = cell.node;
  const controls = [...node.querySelectorAll('[data-course-control]')].map((c) => {
    const label = c.closest('label')?.firstChild?.textContent.trim() ?? '';
    const value = c.tagName === 'SELECT' ? c.options[c.selectedIndex].text : node.querySelector(`[data-course-output="${c.dataset.courseControl}"]`)?.textContent ?? '';
    return { label, value, kind: c.tagName === 'SELECT' ? 'select' : 'slider', index: Number(c.value), max: c.tagName === 'SELECT' ? c.options.length - 1 : Number(c.max), disabled: c.disabled };
  });
  const texts = [...node.querySelectorAll('.jp-OutputArea-output[data-mime-type="text/plain"]')].map((e) => e.textContent);
  // The figure: the default PNG, then the SVGs redrawn inline.
  const fig = node.querySelector('.jp-OutputArea-output img, .jp-OutputArea-output svg');
  return {
    controls,
    readout: texts.filter((t) => !t.startsWith('✓')).pop() ?? '',
    figure: fig?.tagName === 'IMG' ? fig.src : fig?.outerHTML ?? '',
    errors: [...node.querySelectorAll('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"], .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"]')].map((e) => e.textContent.trim().slice(0, 300)),
    running: node.querySelector('.jp-InputPrompt')?.textContent.includes('*') ?? false,
  };
}

// In the page: start timing at the next change event of any of cell i's
// controls.
function armProbe(i) {
  const node = window.__nb().content.widgets[i].node;
  window.__probe = { t0: 0 };
  for (const c of node.querySelectorAll('[data-course-control]')) {
    c.addEventListener('change', () => { window.__probe.t0 ||= performance.now(); }, { once: true });
  }
}

// In the page: wait until cell i's figure is not `before` and is drawn
// (an image decoded, an inline SVG laid out: the next frame), and its
// readout names the setting the controls show (the figure of the final
// value, not of one the slider passed); the time since the change event, in
// ms (null after 15 s).
async function awaitFigure([i, before]) {
  const node = window.__nb().content.widgets[i].node;
  const end = performance.now() + 15_000;
  for (;;) {
    const fig = node.querySelector('.jp-OutputArea-output img, .jp-OutputArea-output svg');
    const key = fig?.tagName === 'IMG' ? fig.src : fig?.outerHTML;
    const setting = [...node.querySelectorAll('[data-course-control]')].map((c) => {
      const label = c.closest('label')?.firstChild?.textContent.trim() ?? '';
      const value = c.tagName === 'SELECT' ? c.options[c.selectedIndex].text : node.querySelector(`[data-course-output="${c.dataset.courseControl}"]`)?.textContent ?? '';
      return `${label} = ${value}`;
    }).join(', ');
    const readout = [...node.querySelectorAll('.jp-OutputArea-output[data-mime-type="text/plain"]')].map((e) => e.textContent).pop() ?? '';
    if (key && key !== before && readout.split('\n')[0] === setting) {
      if (fig.tagName === 'IMG') await fig.decode().catch(() => {});
      else await new Promise((r) => requestAnimationFrame(() => r()));
      return window.__probe.t0 ? performance.now() - window.__probe.t0 : null;
    }
    if (performance.now() > end) return null;
    await new Promise((r) => setTimeout(r, 2));
  }
}

// In the page: the share of pixels that differ clearly (by more than 64
// in a channel) between two PNG screenshots, given in base64; an error when
// their sizes differ.
async function comparePictures([a, b]) {
  const load = async (src) => {
    const img = new Image();
    img.src = `data:image/png;base64,${src}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    return ctx.getImageData(0, 0, c.width, c.height);
  };
  const [x, y0] = await Promise.all([load(a), load(b)]);
  // A figure wider than the output shrinks to fit it, the PNG and the SVG
  // (whose HTML output has a padding) by a few pixels apart: compare at one
  // size; the aspect ratio must agree.
  if (Math.abs(x.width / x.height - y0.width / y0.height) > 0.02) return { error: `sizes ${x.width}×${x.height} and ${y0.width}×${y0.height}` };
  let y = y0;
  if (x.width !== y0.width || x.height !== y0.height) {
    const c = document.createElement('canvas');
    c.width = x.width;
    c.height = x.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(await createImageBitmap(y0), 0, 0, x.width, x.height);
    y = ctx.getImageData(0, 0, x.width, x.height);
  }
  let differ = 0;
  for (let p = 0; p < x.data.length; p += 4) {
    if (Math.abs(x.data[p] - y.data[p]) > 64 || Math.abs(x.data[p + 1] - y.data[p + 1]) > 64 || Math.abs(x.data[p + 2] - y.data[p + 2]) > 64) differ++;
  }
  return { fraction: differ / (x.data.length / 4) };
}

// slideTo drags control k of cell i to index target with the mouse, as a
// learner does: press on the thumb, move, release.
async function slideTo(page, i, k, target) {
  const input = page.locator(".jp-Notebook .jp-Cell").nth(i).locator(`[data-course-control="${k}"]`);
  await input.scrollIntoViewIfNeeded();
  const box = await input.boundingBox();
  const { value, max } = await input.evaluate((e) => ({ value: Number(e.value), max: Number(e.max) }));
  const thumb = 16; // Chromium's range thumb, in CSS pixels
  const x = (v) => box.x + thumb / 2 + (box.width - thumb) * v / max;
  const y = box.y + box.height / 2;
  await page.mouse.move(x(value), y);
  await page.mouse.down();
  await page.mouse.move(x(target), y, { steps: 4 });
  await page.mouse.up();
  if (await input.evaluate((e) => Number(e.value)) === value) {
    // The drag missed the thumb: step with the keyboard instead.
    await input.focus();
    await page.keyboard.press(target > value ? 'ArrowRight' : 'ArrowLeft');
  }
}

// screenshotPanel saves what a learner sees of the panel in cell i: its
// controls, figure and readout.
async function screenshotPanel(page, i, file) {
  const outputs = page.locator('.jp-Notebook .jp-Cell').nth(i).locator('.jp-OutputArea-child');
  const controls = page.locator('.jp-Notebook .jp-Cell').nth(i).locator('[data-course-done]');
  await controls.evaluate((e) => e.closest('.jp-OutputArea-child').scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(150);
  const boxes = [];
  for (let k = 0; k < await outputs.count(); k++) {
    const b = await outputs.nth(k).boundingBox();
    const hasPanel = await outputs.nth(k).evaluate((e) => !!e.querySelector('[data-course-done], img') || e.querySelector('[data-mime-type="text/plain"]') !== null);
    if (b && hasPanel) boxes.push(b);
  }
  const top = Math.max(0, Math.min(...boxes.map((b) => b.y)));
  const bottom = Math.min(page.viewportSize().height, Math.max(...boxes.map((b) => b.y + b.height)));
  const left = Math.min(...boxes.map((b) => b.x));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  await page.screenshot({ path: file, clip: { x: left, y: top, width: right - left, height: bottom - top } });
}

// checkControls runs the interactive cells of the open notebook rel and
// drives their controls. ctx: { fail, out, ui, waitFor }.
export async function checkControls(ctx, page, rel, nb) {
  const { setup, cells } = panelCells(nb);
  const name = path.basename(rel, '.ipynb');
  const rec = { notebook: rel, panels: [] };
  if (!cells.length) return rec;
  const consoleErrors = [];
  // GoNB's websocket script reports, as an error, that it replaces the
  // connection of the page's previous kernel: that is the check opening one
  // notebook after another in the same page, as a learner may.
  const benign = /^gonb_comm already running: we assume this is after a kernel restart/;
  // GoNB's script gives the kernel 500 ms to acknowledge its connection; on
  // a busy machine that fails, and the cell connects again (pkg/live): a
  // note, and a failure only when the controls never come up.
  const handshake = /^gonb_comm: failed to connect to kernel.*comm_open_ack not received in time/;
  rec.handshakeRetries = 0;
  const onConsole = (m) => {
    if (m.type() !== 'error' || benign.test(m.text())) return;
    if (handshake.test(m.text())) rec.handshakeRetries++;
    else consoleErrors.push(m.text().slice(0, 300));
  };
  const onPageError = (e) => consoleErrors.push(`page error: ${String(e).slice(0, 300)}`);
  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  const run = (i) => page.evaluate((i) => {
    const w = window.__nb();
    w.content.activeCellIndex = i;
    w.content.deselectAll();
    void window.jupyterapp.commands.execute('notebook:run-cell');
  }, i);
  try {
    await run(setup);
    await ctx.waitFor(page, () => window.__nb().content.widgets.filter((c) => c.model.type === 'code')[0].model.executionCount !== null
      && window.__nb().sessionContext.session?.kernel?.status === 'idle', 120_000, 'the setup cell ran');
    let shot = 0;
    for (const i of cells) {
      const p = { cell: i + 1, moves: [] };
      rec.panels.push(p);
      const where = `${rel} cell ${i + 1}`;
      const failedBefore = ctx.failures();
      const t = Date.now();
      await run(i);
      try {
        await ctx.waitFor(page, `(${panelState})(${i}).readout.includes('Live: move the controls')`, 60_000, 'the controls');
      } catch (e) {
        const st = await page.evaluate(panelState, i);
        ctx.fail(where, `the controls did not come up: ${e.message}; readout "${st.readout.slice(0, 200)}", errors ${JSON.stringify(st.errors)}`);
        continue;
      }
      p.startSeconds = (Date.now() - t) / 1000;
      const start = await page.evaluate(panelState, i);
      p.controls = start.controls.map((c) => `${c.kind} "${c.label}" (${c.max + 1} values)`);
      const first = verify(start.readout, start.controls);
      if (first.bad.length) ctx.fail(where, `the default readout: ${first.bad.join('; ')}`);
      p.kind = first.kind;
      // The default figure (the committed PNG), as the page shows it.
      const figure = () => page.locator('.jp-Notebook .jp-Cell').nth(i).locator('.jp-OutputArea-output img, .jp-OutputArea-output svg').first();
      await figure().scrollIntoViewIfNeeded();
      const defaultShot = (await figure().screenshot()).toString('base64');

      // The moves: each slider to its far end and back to the middle, each
      // select through all its options; then every control back to its
      // default.
      const moves = [];
      start.controls.forEach((c, k) => {
        if (c.kind === 'slider') {
          const far = c.index < c.max / 2 ? c.max : 0;
          moves.push([k, far], [k, Math.round((far + c.index) / 2) === far ? Math.round(c.max / 2) : Math.round((far + c.index) / 2)]);
        } else {
          for (let o = 1; o <= c.max; o++) moves.push([k, (c.index + o) % (c.max + 1)]);
        }
      });
      start.controls.forEach((c, k) => moves.push([k, c.index]));
      for (const [k, target] of moves) {
        const before = await page.evaluate(panelState, i);
        if (before.controls[k].index === target) continue;
        await page.evaluate(armProbe, i);
        const c = before.controls[k];
        if (c.kind === 'slider') await slideTo(page, i, k, target);
        else await page.locator(".jp-Notebook .jp-Cell").nth(i).locator(`[data-course-control="${k}"]`).selectOption(String(target));
        const ms = await page.evaluate(awaitFigure, [i, before.figure]);
        const moved = (await page.evaluate(panelState, i)).controls[k];
        const what = `${c.label}: ${c.value} → ${moved.value}`;
        if (ms === null) {
          ctx.fail(where, `${what}: the figure did not change within 15 s`);
          continue;
        }
        // The readout follows the figure in the same redraw.
        let st;
        try {
          st = await ctx.waitFor(page, `(() => { const s = (${panelState})(${i}); return s.readout.split('\\n')[0].split(', ').includes(${JSON.stringify(`${moved.label} = ${moved.value}`)}) && s; })()`, 10_000, 'the readout');
        } catch {
          st = await page.evaluate(panelState, i);
        }
        const v = verify(st.readout, st.controls);
        if (v.bad.length) ctx.fail(where, `${what}: ${v.bad.join('; ')}`);
        if (st.errors.length) ctx.fail(where, `${what}: error output ${st.errors[0]}`);
        p.moves.push({ control: c.label, from: c.value, to: moved.value, ms: Math.round(ms) });
        console.log(`      ${where}: ${what}: new figure ${Math.round(ms)} ms after the change${v.bad.length ? '' : `; readout right (${v.kind})`}`);
        if (p.moves.length === 1) {
          shot++;
          await screenshotPanel(page, i, path.join(ctx.out, `${name}-controls-${shot}.png`));
        }
      }

      // Back at the defaults, the redrawn figure (an SVG drawn by the page)
      // must look like the committed PNG: same size, same layout, the same
      // fonts; only antialiasing may differ.
      const back = await page.evaluate(panelState, i);
      if (back.controls.every((c, k) => c.index === start.controls[k].index)) {
        await figure().scrollIntoViewIfNeeded();
        const diff = await page.evaluate(comparePictures, [defaultShot, (await figure().screenshot()).toString('base64')]);
        p.differingPixels = diff;
        // Calibrated: 0.6 to 5.3% of pixels differ in the course's panels
        // (antialiasing, a dense heatmap's column edges); 18 to 27% did
        // when SVG letterboxed the heatmaps' images.
        if (diff.error || diff.fraction > 0.10) {
          ctx.fail(where, `back at the defaults, the redrawn figure differs from the committed one: ${diff.error ?? `${(100 * diff.fraction).toFixed(1)}% of its pixels differ`}`);
          await figure().screenshot({ path: path.join(ctx.out, `${name}-controls-redrawn-default-${i + 1}.png`) });
        }
      }

      // Done closes the controls and ends the cell.
      await page.locator(".jp-Notebook .jp-Cell").nth(i).locator('[data-course-done]').click();
      try {
        await ctx.waitFor(page, `(() => { const s = (${panelState})(${i}); return s.readout.includes('Controls closed (Done pressed)') && !s.running && s.controls.length === 0; })()`, 30_000, 'Done');
      } catch (e) {
        ctx.fail(where, `pressing Done did not close the controls and end the cell: ${e.message}`);
      }
      // Live again, then another cell run (the setup cell, which is cheap):
      // the controls must close by themselves, keeping the figure.
      await run(i);
      try {
        await ctx.waitFor(page, `(${panelState})(${i}).readout.includes('Live: move the controls')`, 60_000, 'the controls, a second time');
        await run(setup);
        await ctx.waitFor(page, `(() => { const s = (${panelState})(${i}); return s.readout.includes('Controls closed (another cell is queued to run)') && !s.running && s.controls.length === 0 && s.figure; })()`, 30_000, 'the controls closing');
        await ctx.waitFor(page, () => window.__nb().sessionContext.session?.kernel?.status === 'idle', 60_000, 'the setup cell after it');
        p.closedByAnotherCell = true;
      } catch (e) {
        ctx.fail(where, `running another cell did not close the live controls and end the cell: ${e.message}`);
      }
      const end = await page.evaluate(panelState, i);
      if (end.errors.length) ctx.fail(where, `error output: ${end.errors[0]}`);
      const failed = ctx.failures() > failedBefore;
      const ms = p.moves.map((m) => m.ms).sort((a, b) => a - b);
      p.medianMs = ms[Math.floor(ms.length / 2)];
      p.maxMs = ms[ms.length - 1];
      console.log(`${failed ? 'FAIL' : 'ok  '}  ${where}: ${p.controls.join(', ')}: ${p.moves.length} changes, redraw median ${p.medianMs} ms, max ${p.maxMs} ms (controls up in ${p.startSeconds}s)`);
    }
  } finally {
    page.off('console', onConsole);
    page.off('pageerror', onPageError);
  }
  // GoNB logs its own websocket's life to the console; only errors count.
  rec.consoleErrors = consoleErrors;
  if (rec.handshakeRetries) console.log(`note  ${rel}: GoNB's connection to the page failed its 500 ms handshake ${rec.handshakeRetries} times; the cell connected again`);
  if (consoleErrors.length) ctx.fail(rel, `console errors while driving the controls: ${consoleErrors.slice(0, 3).join(' | ')}`);
  return rec;
}
