// `npm run bench:lighthouse`: Lighthouse (mobile preset, Debian Chromium) on /home, a book detail and a reader
// page of a fresh demo server, plus the initial JavaScript the browser must load, gzipped.
// Issue 3's aims: performance >= 90, CLS <= 0.05, initial JS <= 150 KB gzip. Results in bench/results/.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.LH_PORT ?? 18950);
const origin = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'yueman-lh-'));

// The scripts index.html loads, plus the largest set of chunks its inline script preloads for a landing
// screen (home or book detail: the list the build writes into index.html, see apps/web/vite.config.ts).
function initialJsGzip() {
  const dist = path.join(root, 'apps/web/dist');
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const gz = (files) =>
    files.reduce((sum, f) => sum + gzipSync(readFileSync(path.join(dist, f)), { level: 9 }).length, 0);
  const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const landing = JSON.parse(/const chunks = (\{.*?\});/s.exec(html)?.[1] ?? '{}');
  const [screen, chunks] = Object.entries(landing)
    .map(([name, list]) => [name, list.filter((f) => f.endsWith('.js'))])
    .sort((a, b) => gz(b[1]) - gz(a[1]))[0] ?? ['none', []];
  const kb = (bytes) => Math.round(bytes / 102.4) / 10;
  return { files, screen, kb: kb(gz(files) + gz(chunks)), mainKb: kb(gz(files)) };
}

async function waitHealthy(child) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${origin}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become healthy');
}

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: root,
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
  stdio: 'ignore',
});
let chrome;
try {
  await waitHealthy(server);
  const detail = await (await fetch(`${origin}/api/book/detail/1`)).json();
  const first = detail.data.chapterList[0];
  const pages = {
    home: `${origin}/home`,
    'book detail': `${origin}/book/1`,
    reader: `${origin}/book/read/1/${first.number}`,
  };
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const rows = [];
  for (const [name, url] of Object.entries(pages)) {
    await fetch(url); // warm the server's caches, as a CDN would be
    const { lhr } = await lighthouse(url, {
      port: chrome.port,
      onlyCategories: ['performance'],
      output: 'json',
      logLevel: 'error',
    });
    const a = lhr.audits;
    rows.push({
      page: name,
      url,
      performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
      lcpMs: Math.round(a['largest-contentful-paint'].numericValue),
      cls: Number(a['cumulative-layout-shift'].numericValue.toFixed(3)),
      tbtMs: Math.round(a['total-blocking-time'].numericValue),
      fcpMs: Math.round(a['first-contentful-paint'].numericValue),
    });
  }
  const js = initialJsGzip();
  const lines = [
    '| page | performance | LCP ms | CLS | TBT ms | FCP ms |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.page} | ${r.performance} | ${r.lcpMs} | ${r.cls} | ${r.tbtMs} | ${r.fcpMs} |`),
    '',
    `Initial JavaScript: ${js.kb} KB gzip (${js.files.join(', ')}: ${js.mainKb} KB, and the ${js.screen} screen's preloaded chunks); aim <= 150 KB.`,
    'Aims: performance >= 90, CLS <= 0.05 (Lighthouse mobile preset: simulated slow 4G, 4x CPU slowdown).',
  ];
  console.log(lines.join('\n'));
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const stamp = new Date().toISOString().replaceAll(':', '-');
  writeFileSync(
    path.join(root, `bench/results/lighthouse-${stamp}.json`),
    JSON.stringify({ rows, js }, null, 2),
  );
  writeFileSync(path.join(root, `bench/results/lighthouse-${stamp}.md`), `${lines.join('\n')}\n`);
  const failed = rows.some((r) => r.performance < 90 || r.cls > 0.05) || js.kb > 150;
  process.exitCode = failed ? 1 : 0;
} finally {
  await chrome?.kill();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
