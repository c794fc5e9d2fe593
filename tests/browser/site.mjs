// site.mjs — opens every page of the static site (make site, build/site/)
// in headless Debian chromium, served by a small static server of its own,
// as a reader who has installed nothing would, and checks:
//
//   - the page loads with no console error, page error or failed request
//     (so nothing is fetched from outside: MathJax comes with the site);
//   - every image loads;
//   - every relative link answers 200 and every #anchor exists;
//   - MathJax rendered the formulas, without an error (on pages that have
//     some: every lesson does);
//   - a lesson page has its bar of links (course map, previous, next, in
//     the order of the notebooks), the note that controls are live only in
//     JupyterLab, and its code highlighted; its prose runs to about 80
//     characters a line (at most 100), tabs are 4 columns, and neither the
//     setup cell nor a check cell (// Checks:) is shown.
//
// A screenshot of the top of each page goes to build/browser/site/, with
// report.json.
//
// Usage: node tests/browser/site.mjs [--site DIR] [--out DIR]

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const arg = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
};
const SITE = path.resolve(arg('--site', path.join(ROOT, 'build', 'site')));
const OUT = path.resolve(arg('--out', path.join(ROOT, 'build', 'browser', 'site')));
const t0 = Date.now();
const secs = () => ((Date.now() - t0) / 1000).toFixed(1);
const failures = [];
const fail = (where, msg) => {
  failures.push(`${where}: ${msg}`);
  console.log(`FAIL  ${where}: ${msg}`);
};

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript', '.woff': 'font/woff',
  '.woff2': 'font/woff2', '.go': 'text/plain; charset=utf-8', '.png': 'image/png', '.svg': 'image/svg+xml', '.json': 'application/json',
};

// serve answers GET requests with the files under dir, as GitHub Pages does
// (a folder's index.html for the folder); it records every 404.
function serve(dir, missing) {
  const server = http.createServer((req, res) => {
    let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (p.endsWith('/')) p += 'index.html';
    const file = path.join(dir, path.normalize(p));
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      missing.push(p);
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function pages(dir, rel = '') {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = path.posix.join(rel, e.name);
    if (e.isDirectory()) return r === 'static' ? [] : pages(dir, r);
    return e.name.endsWith('.html') ? [r] : [];
  }).sort();
}

async function main() {
  if (!fs.existsSync(path.join(SITE, 'index.html'))) {
    console.log(`FAIL  site: no ${path.relative(ROOT, SITE)}/index.html: run make site`);
    process.exit(1);
  }
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  const missing = [];
  const server = await serve(SITE, missing);
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const report = { pages: [] };
  const fetched = {}; // url → { status, text }
  const lessons = fs.readdirSync(path.join(SITE, 'notebooks')).filter((f) => /^\d\d-.*\.html$/.test(f)).sort();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    let problems = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text().slice(0, 200)}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${String(e).slice(0, 200)}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} for ${r.url()}`); });
    for (const rel of pages(SITE)) {
      const t = Date.now();
      problems = [];
      const rec = { page: rel };
      report.pages.push(rec);
      await page.goto(`${base}/${rel}`, { waitUntil: 'load' });
      // MathJax typesets after load, on its own promise.
      const math = await page.evaluate(async () => {
        if (!window.MathJax) return null;
        await window.MathJax.startup?.promise;
        return {
          rendered: document.querySelectorAll('mjx-container').length,
          errors: [...document.querySelectorAll('mjx-merror, [data-mjx-error]')].map((e) => e.textContent.slice(0, 80)),
          // Formulas MathJax left as text: a $…$ outside code.
          raw: [...document.querySelectorAll('.jp-RenderedMarkdown')].some((e) => /\$[^$\s][^$]*\$/.test(e.textContent)),
        };
      });
      rec.formulas = math?.rendered ?? 0;
      if (math?.errors.length) fail(rel, `MathJax errors: ${math.errors.join(' | ')}`);
      if (math?.raw) fail(rel, 'a formula is left as $…$ text');
      const isLesson = rel.startsWith('notebooks/');
      if (isLesson && !(math?.rendered > 0)) fail(rel, 'no formula rendered (every lesson has some)');

      // Images.
      await page.waitForFunction(() => [...document.images].every((i) => i.complete), null, { timeout: 30_000 }).catch(() => {});
      const imgs = await page.evaluate(() => [...document.images].map((i) => ({ src: i.src.slice(0, 60), ok: i.naturalWidth > 0 })));
      rec.images = imgs.length;
      const broken = imgs.filter((i) => !i.ok);
      if (broken.length) fail(rel, `${broken.length} of ${imgs.length} images do not load: ${broken.map((i) => i.src).join(', ')}`);

      // Links: relative ones answer 200, anchors exist in their page.
      const links = await page.evaluate(() => [...document.querySelectorAll('a[href]')].map((a) => ({ raw: a.getAttribute('href'), abs: a.href })));
      rec.links = links.length;
      const local = links.filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.raw) || l.abs.startsWith(base));
      rec.localLinks = local.length;
      for (const l of local) {
        const [url, frag] = l.abs.split('#');
        // Each file once: many pages link the same ones.
        fetched[url] ??= await page.request.get(url).then(async (r) => ({ status: r.status(), text: r.status() === 200 && url.endsWith('.html') ? await r.text() : '' }));
        const res = fetched[url];
        if (res.status !== 200) { fail(rel, `link ${l.raw} answers ${res.status}`); continue; }
        if (frag) {
          // As a browser resolves a fragment: the id as written, then decoded.
          const id = decodeURIComponent(frag);
          const html = url === page.url().split('#')[0] ? null : res.text;
          const found = await page.evaluate(([ids, html]) => {
            const doc = html === null ? document : new DOMParser().parseFromString(html, 'text/html');
            return ids.some((id) => !!doc.getElementById(id) || doc.getElementsByName(id).length > 0);
          }, [[frag, id], html]);
          if (!found) fail(rel, `link ${l.raw}: no anchor #${id} there`);
        }
      }

      if (isLesson) {
        const i = lessons.indexOf(path.basename(rel));
        const nav = await page.evaluate(() => {
          const bar = document.querySelector('.course-nav-top');
          return {
            map: bar?.querySelector('.course-map')?.getAttribute('href'),
            prev: bar?.querySelector('.course-prev')?.getAttribute('href') ?? null,
            next: bar?.querySelector('.course-next')?.getAttribute('href') ?? null,
            bottom: !!document.querySelector('.course-nav-bottom'),
            note: document.querySelector('.course-note')?.textContent ?? '',
            highlighted: document.querySelectorAll('.jp-CodeCell .highlight span.kd, .jp-CodeCell .highlight span.kn, .jp-CodeCell .highlight span.k').length,
          };
        });
        const want = { prev: i > 0 ? lessons[i - 1] : null, next: i + 1 < lessons.length ? lessons[i + 1] : null };
        if (nav.map !== '../index.html' || nav.prev !== want.prev || nav.next !== want.next || !nav.bottom) {
          fail(rel, `links bar: map ${nav.map}, previous ${nav.prev}, next ${nav.next}, at the bottom too: ${nav.bottom}; want ../index.html, ${want.prev}, ${want.next}`);
        }
        if (!/live[^.]*only in JupyterLab/.test(nav.note)) fail(rel, `the note does not say the controls are live only in JupyterLab: "${nav.note.trim().slice(0, 120)}"`);
        if (nav.highlighted < 3) fail(rel, `code is not highlighted (${nav.highlighted} keyword spans)`);
        // Reading: prose about 80 characters a line (the widest paragraph's
        // width over its font's average character), tabs 4 columns, and no
        // machinery: the setup cell and check cells are left out.
        const look = await page.evaluate(() => {
          const paras = [...document.querySelectorAll('.jp-RenderedMarkdown p')].filter((p) => p.textContent.length > 200);
          let chars = 0;
          for (const p of paras) {
            const c = document.createElement('span');
            c.textContent = 'abcdefghijklmnopqrstuvwxyz etaoinshrdlu ETAOIN';
            p.appendChild(c);
            const perChar = c.getBoundingClientRect().width / c.textContent.length;
            c.remove();
            chars = Math.max(chars, p.getBoundingClientRect().width / perChar);
          }
          const pre = document.querySelector('.jp-CodeCell .highlight pre');
          return {
            chars: Math.round(chars),
            tabSize: pre ? getComputedStyle(pre).tabSize : '',
            machinery: [...document.querySelectorAll('.jp-CodeCell .highlight pre')].map((e) => e.textContent).filter((t) => /^(!\*go mod edit|\/\/ Checks:)/.test(t)).length,
          };
        });
        rec.proseLineChars = look.chars;
        if (look.chars > 100) fail(rel, `prose lines run to about ${look.chars} characters (want about 80)`);
        if (look.tabSize && look.tabSize !== '4') fail(rel, `tabs in code are ${look.tabSize} columns wide, want 4`);
        if (look.machinery) fail(rel, `${look.machinery} setup or check cells are shown`);
      }
      if (problems.length) fail(rel, problems.slice(0, 4).join(' | '));
      await page.screenshot({ path: path.join(OUT, `${rel.replaceAll('/', '_').replace(/\.html$/, '')}.png`) });
      rec.seconds = (Date.now() - t) / 1000;
    }
    // The lesson pages show the static output of the interactive cells:
    // one screenshot of such a figure, with its note, for a person to see.
    await page.goto(`${base}/notebooks/${lessons.find((l) => l.startsWith('05-')) ?? lessons[0]}`);
    const note = page.locator('pre', { hasText: 'Run this cell in JupyterLab to explore it with controls' }).first();
    if (await note.count()) {
      await note.evaluate((e) => e.scrollIntoView({ block: 'end' }));
      await page.screenshot({ path: path.join(OUT, 'interactive-cell-static.png') });
    }
  } catch (e) {
    fail('site', e.stack ?? String(e));
  } finally {
    await browser.close().catch(() => {});
    server.close();
  }
  if (missing.length) fail('site', `requests for missing files: ${[...new Set(missing)].slice(0, 5).join(', ')}`);
  report.seconds = +secs();
  report.failures = failures;
  fs.writeFileSync(path.join(OUT, 'report.json'), JSON.stringify(report, null, 1));
  const links = report.pages.reduce((s, p) => s + (p.localLinks ?? 0), 0);
  const formulas = report.pages.reduce((s, p) => s + (p.formulas ?? 0), 0);
  console.log(`${failures.length ? 'FAIL' : 'ok  '}  site check: ${report.pages.length} pages, ${links} relative links, ${formulas} formulas, ` +
    `${failures.length} failures, ${secs()}s; screenshots in ${path.relative(ROOT, OUT)}/`);
  process.exit(failures.length ? 1 : 0);
}

await main();
