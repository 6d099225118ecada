// `npm run bench:lighthouse`: Lighthouse (mobile preset, Debian Chromium) on /home, a book detail and a reader
// page of a fresh demo server, LH_RUNS times each (5 unless told), the median reported; plus the initial JavaScript
// the browser must load, gzipped. Aims: performance >= 98, LCP <= 1.2 s, CLS <= 0.02, initial JS <= 120 KB gzip.
// Results in bench/results/. LH_BASELINE=<git ref> runs a reference build beside this one (lighthouse-baseline.mjs).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromiumArgs, chromiumPath, headlessShellPath } from '../scripts/chromium.mjs';
import {
  envList,
  envNumber,
  failOnMissedAims,
  fileStamp,
  onCleanup,
  resultsDir,
  root,
  runMain,
  smoke,
  startServer,
  tempDir,
  writeResults,
} from './bench-kit.mjs';
import { descendantPids, pinTo, ticksOf } from './cpu.mjs';
import { baselineServer } from './lighthouse-baseline.mjs';
import { cpuSummary, threadsBeside } from './lighthouse-trace.mjs';

// The JavaScript a page loads before its first screen: the main bundle index.html starts (a script tag, or the
// import() of the start script at the end of the body, apps/web/vite.config.ts, with React's renderer) and the screen's chunk, each with
// the chunks it imports statically. Per measured page, gzipped; the largest is held against the aim.
const SCREEN_CHUNKS = { home: 'home-page', 'book detail': 'book-page', reader: 'reader-page' };

function initialJsGzip() {
  const dist = path.join(root, 'apps/web/dist');
  const assets = path.join(dist, 'assets');
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  // The start script, and the "boot" chunks it loads in steps of their own on every page (React's renderer).
  const boot = /"boot":\[([^\]]*)\]/.exec(html)?.[1] ?? '';
  const entries = [
    ...[...html.matchAll(/(?:src="|import\(")\/assets\/([^"]+\.js)"/g)].map((m) => m[1]),
    ...[...boot.matchAll(/"\/assets\/([^"]+\.js)"/g)].map((m) => m[1]),
  ];
  const graph = (files) => {
    const seen = new Set();
    const visit = (file) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(path.join(assets, file), 'utf8');
      for (const m of code.matchAll(/(?:\bimport|\bfrom)\s*["']\.\/([^"']+\.js)["']/g)) visit(m[1]);
    };
    files.forEach(visit);
    return seen;
  };
  const names = readdirSync(assets);
  const gz = (files) =>
    [...files].reduce((sum, f) => sum + gzipSync(readFileSync(path.join(assets, f)), { level: 9 }).length, 0);
  const kb = (bytes) => Math.round(bytes / 102.4) / 10;
  const mainKb = kb(gz(graph(entries)));
  const pages = Object.entries(SCREEN_CHUNKS).map(([page, prefix]) => {
    const screen = names.find((f) => f.startsWith(`${prefix}-`) && f.endsWith('.js'));
    if (!screen) throw new Error(`no ${prefix} chunk in apps/web/dist/assets`);
    return { page, kb: kb(gz(graph([...entries, screen]))) };
  });
  const largest = pages.reduce((a, b) => (b.kb > a.kb ? b : a));
  return { files: entries, mainKb, pages, kb: largest.kb, screen: largest.page };
}

/** A script's address as the report shows it: its file name (the bundle's hash kept), or what Lighthouse said. */
const shortUrl = (url) => {
  try {
    const { pathname } = new URL(url);
    return pathname.startsWith('/assets/') ? pathname.slice('/assets/'.length) : `${pathname} (document)`;
  } catch {
    return url || '(unattributed)';
  }
};

/**
 * Where a run's main thread went, beside its score: the total (Lighthouse's mainthread-work-breakdown), script
 * evaluation and compilation (bootup-time, per script), and the long tasks (long-tasks: at least 50 ms in the
 * simulation, which counts each task of the unthrottled trace 4 times: the mobile preset's CPU slowdown).
 */
function mainThread(audits) {
  const breakdown = audits['mainthread-work-breakdown'];
  const groups = Object.fromEntries(
    (breakdown.details?.items ?? []).map((i) => [i.group, Math.round(i.duration)]),
  );
  return {
    mainThreadMs: Math.round(breakdown.numericValue ?? 0),
    scriptMs: Math.round(audits['bootup-time'].numericValue ?? 0),
    styleLayoutMs: (groups.styleLayout ?? 0) + (groups.paintCompositeRender ?? 0),
    groups,
    bootup: (audits['bootup-time'].details?.items ?? []).map((i) => ({
      url: shortUrl(i.url),
      total: Math.round(i.total),
      scripting: Math.round(i.scripting),
      parse: Math.round(i.scriptParseCompile),
    })),
    longTasks: (audits['long-tasks'].details?.items ?? []).map((i) => ({
      url: shortUrl(i.url),
      startMs: Math.round(i.startTime),
      ms: Math.round(i.duration),
    })),
  };
}

// The server's CPU ms (every thread: argon2's hashing runs on libuv's pool), read around each run. The server shares
// the machine's two cores with Chromium and Lighthouse here, where a phone's server is far away: what it spends during
// a run is taken from the page's main thread (bench/README.md).
const serverCpuMs = (pid) => ticksOf(pid) * 10;

/**
 * LH_BROWSER=headless-shell: Chromium's headless shell (the browser tests' browser: the same Blink and V8 without the
 * full browser's machinery) instead of the full browser, to see how much of the blocking time is the browser's own
 * work competing for the two cores. The figures held against the aims are the full browser's.
 */
function browser() {
  const choice = process.env.LH_BROWSER ?? 'chromium';
  // LH_EXTRA_FLAGS="--kiosk ...": Chromium flags to try, beside ours (bench/README.md tried a few).
  const extra = process.env.LH_EXTRA_FLAGS?.split(' ').filter(Boolean) ?? [];
  if (choice === 'chromium')
    return { chromePath: chromiumPath, chromeFlags: ['--headless=new', ...chromiumArgs, ...extra] };
  if (choice === 'headless-shell')
    return { chromePath: headlessShellPath, chromeFlags: [...chromiumArgs, ...extra] };
  throw new Error(`LH_BROWSER=${choice}: chromium or headless-shell`);
}

/**
 * LH_CORES=split: the page's renderers on the last CPU, everything else (the browser's other processes, the servers,
 * this process with Lighthouse) on the others: a phone's page gets a core that its browser's window and its server
 * do not share. Renderers are forked by Chromium's zygotes, so pinning the zygotes places every later renderer too.
 * A diagnosis (bench/README.md), not the figure held against the aims: on two cores it leaves the page one core and
 * everything else the other.
 */
function splitCores(browserPid, serverPids) {
  const cpus = os.cpus().length;
  const last = String(cpus - 1);
  const rest = cpus > 2 ? `0-${cpus - 2}` : '0';
  pinTo(browserPid, rest);
  for (const pid of descendantPids(browserPid)) {
    let args = '';
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue; // gone since it was listed
    }
    pinTo(pid, /--type=(zygote|renderer)/.test(args) ? last : rest);
  }
  for (const pid of [process.pid, ...serverPids.flatMap((p) => [p, ...descendantPids(p)])]) pinTo(pid, rest);
  console.log(
    `LH_CORES=split: renderers on CPU ${last}, the browser's other processes and the servers on ${rest}`,
  );
}

/** The three measured pages of a server: home, the first book's page, its first chapter's reader page. */
async function pagesOf(origin) {
  const detail = await (await fetch(`${origin}/api/book/detail/1`)).json();
  const first = detail.data.chapterList[0];
  return {
    home: `${origin}/home`,
    'book detail': `${origin}/book/1`,
    reader: `${origin}/book/read/1/${first.number}`,
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * One Lighthouse run of a page: its figures, where its main thread went, and the server's CPU meanwhile; null when
 * Lighthouse lost the trace's start (NO_NAVSTART), and the run is made again.
 */
async function measure(url, { port, serverPid, keepTrace }) {
  const serverCpuBefore = serverCpuMs(serverPid);
  const { lhr, artifacts } = await lighthouse(url, {
    port,
    onlyCategories: ['performance'],
    output: 'json',
    logLevel: 'error',
    // LH_TRACE=1: the trace also samples the JavaScript, so the Performance panel names the functions (the
    // sampling costs CPU of its own). LH_TRACE_CATS="cc,views,viz": more of Chromium's trace categories (what the
    // browser's own threads do during a load, bench/README.md).
    ...(process.env.LH_TRACE === '1' || process.env.LH_TRACE_CATS
      ? {
          additionalTraceCategories: [
            process.env.LH_TRACE === '1' ? 'disabled-by-default-v8.cpu_profiler' : '',
            process.env.LH_TRACE_CATS ?? '',
          ]
            .filter(Boolean)
            .join(','),
        }
      : {}),
  });
  if (lhr.runtimeError) return null;
  // LH_TRACE (any value; 1 also samples the JavaScript) keeps each run's trace (open it in Chrome's DevTools,
  // Performance panel: it is the unthrottled trace; Lighthouse's simulation multiplies its tasks by 4).
  if (keepTrace) keepTrace(artifacts.Trace);
  const a = lhr.audits;
  return {
    performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
    lcpMs: Math.round(a['largest-contentful-paint'].numericValue),
    cls: Number(a['cumulative-layout-shift'].numericValue.toFixed(3)),
    tbtMs: Math.round(a['total-blocking-time'].numericValue),
    fcpMs: Math.round(a['first-contentful-paint'].numericValue),
    ...mainThread(a),
    // The same main thread by the CPU time it got (the trace's thread time): steadier on a busy machine.
    cpu: cpuSummary(artifacts.Trace, url),
    beside: threadsBeside(artifacts.Trace, url),
    serverCpuMs: serverCpuMs(serverPid) - serverCpuBefore,
  };
}

/** A page's row of the report: the medians of its runs, and the run with the median blocking time's details. */
function summary(name, url, measured) {
  const scores = measured.map((m) => m.performance);
  // The run whose blocking time is the median's: its long tasks and scripts are the ones the report lists.
  const typical = [...measured].sort((x, y) => x.tbtMs - y.tbtMs)[Math.floor(measured.length / 2)];
  return {
    page: name,
    url,
    runs: measured,
    range: `${Math.min(...scores)}–${Math.max(...scores)}`,
    ...Object.fromEntries(
      ['performance', 'lcpMs', 'cls', 'tbtMs', 'fcpMs', 'mainThreadMs', 'scriptMs', 'styleLayoutMs'].map(
        (k) => [k, median(measured.map((m) => m[k]))],
      ),
    ),
    cpuMs: median(measured.map((m) => m.cpu?.cpuMs ?? 0)),
    cpuBlockingMs: median(measured.map((m) => m.cpu?.cpuBlockingMs ?? 0)),
    serverCpuMs: median(measured.map((m) => m.serverCpuMs)),
    typical: {
      tbtMs: typical.tbtMs,
      longTasks: typical.longTasks,
      bootup: typical.bootup,
      cpuLongTasks: typical.cpu?.longTasks ?? [],
      beside: typical.beside,
    },
  };
}

async function main() {
  const { origin, pid: serverPid } = await startServer({
    workDir: tempDir('yueman-lh-'),
    port: envNumber('LH_PORT', 18950, 1),
  });
  const pages = await pagesOf(origin);
  // LH_BASELINE=bc56d83 (any git ref): that build's server too, its runs interleaved with this build's.
  const baselineRef = process.env.LH_BASELINE;
  const baseline = baselineRef ? baselineServer(baselineRef) : null;
  const reference = baseline
    ? await startServer({ workDir: tempDir('yueman-lh-ref-'), main: baseline.main, indent: '  reference: ' })
    : null;
  const referencePages = reference ? await pagesOf(reference.origin) : null;
  const chrome = await chromeLauncher.launch(browser());
  onCleanup(() => chrome.kill());
  if (process.env.LH_CORES === 'split')
    splitCores(chrome.pid, [serverPid, ...(reference ? [reference.pid] : [])]);
  const runs = envNumber('LH_RUNS', 5, 1, 1);
  const stamp = fileStamp(new Date());
  const rows = [];
  const referenceRows = [];
  // LH_PAGES=reader (or "home,book detail"): only those pages, to look at one page's tasks without the others' runs.
  const only = envList('LH_PAGES', Object.keys(pages).join(','));
  for (const [name, url] of Object.entries(pages).filter(([page]) => only.includes(page))) {
    const sides = [{ url, serverPid, measured: [], label: '' }];
    if (reference)
      sides.unshift({
        url: referencePages[name],
        serverPid: reference.pid,
        measured: [],
        label: 'reference-',
      });
    for (const side of sides) await fetch(side.url); // warm the server's caches, as a CDN would be
    // One run unmeasured first (not in a smoke run): it makes the page's image sizes and the server's first answers
    // of each call, which a CDN and a running server have long made. Measured, it was the slowest of five, with
    // 3-4 s of the server's CPU against under 1 s for the others.
    const warmups = smoke ? 0 : 1;
    for (let round = 0; sides.some((side) => side.measured.length < runs); round++) {
      // The reference's run, then this build's: the machine's load at each moment falls on both.
      for (const side of sides.filter((s) => s.measured.length < runs)) {
        const keepTrace =
          process.env.LH_TRACE && round >= warmups
            ? (trace) => {
                const dir = path.join(resultsDir, `lighthouse-traces-${stamp}`);
                mkdirSync(dir, { recursive: true });
                const file = `${side.label}${name.replace(/\W+/g, '-')}-${side.measured.length + 1}.json`;
                writeFileSync(path.join(dir, file), JSON.stringify(trace));
              }
            : null;
        const result = await measure(side.url, { port: chrome.port, serverPid: side.serverPid, keepTrace });
        if (!result) {
          console.error(`  ${side.label}${name}: Lighthouse lost the trace's start, run again`);
          continue;
        }
        if (round >= warmups) side.measured.push(result);
      }
    }
    rows.push(summary(name, url, sides.at(-1).measured));
    if (reference) referenceRows.push(summary(name, referencePages[name], sides[0].measured));
  }
  const js = initialJsGzip();
  const list = (items, show) => (items.length ? items.map(show).join(', ') : 'none');
  const lines = [
    `Medians of ${runs} runs per page (range of the performance score in brackets), ${process.env.LH_BROWSER ?? 'chromium'} (LH_BROWSER).`,
    '',
    '| page | performance | LCP ms | CLS | TBT ms | FCP ms |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.page} | ${r.performance} (${r.range}) | ${r.lcpMs} | ${r.cls} | ${r.tbtMs} | ${r.fcpMs} |`,
    ),
    '',
    'Main thread (medians, ms at 4x CPU as Lighthouse counts it): all its work (mainthread-work-breakdown), scripts',
    '(bootup-time: evaluation and compilation), style, layout and paint; then the same by the CPU time the thread got',
    "(the trace's thread time × 4: steadier than Lighthouse's wall times on a busy machine), and the blocking time",
    'that CPU time makes (each task × 4 less 50 ms, from the first paint to the end of the trace); and the CPU time',
    'the server took on the same cores during a run (not a cost a phone pays: its server is elsewhere).',
    '',
    '| page | main thread | scripts | style, layout, paint | by CPU time | blocking by CPU time | server CPU ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.page} | ${r.mainThreadMs} | ${r.scriptMs} | ${r.styleLayoutMs} | ${r.cpuMs} | ${r.cpuBlockingMs} | ${r.serverCpuMs} |`,
    ),
    '',
    'The run with the median TBT: its long tasks by CPU time (start ms: ms at 4x, what), by Lighthouse (longest five),',
    'and its scripts (bootup-time: total / evaluation / compile ms).',
    '',
    ...rows.flatMap((r) => [
      `- ${r.page}, TBT ${r.typical.tbtMs} ms. By CPU time: ${list(r.typical.cpuLongTasks, (t) => `@${t.startMs}: ${t.ms} (${t.what})`)}.`,
      `  Lighthouse: ${list(r.typical.longTasks.slice(0, 5), (t) => `${t.url} @${t.startMs}: ${t.ms}`)}.`,
      `  Scripts: ${list(r.typical.bootup.slice(0, 5), (b) => `${b.url} ${b.total} / ${b.scripting} / ${b.parse}`)}.`,
      `  CPU ms in the first 2.5 s, by thread: ${list(r.typical.beside.slice(0, 6), (t) => `${t.thread} ${t.ms}`)}.`,
    ]),
    '',
    `Initial JavaScript (main bundle ${js.mainKb} KB and the screen's chunks, gzip): ${js.pages.map((p) => `${p.page} ${p.kb} KB`).join(', ')}; aim <= 120 KB.`,
    'Aims: performance >= 98, LCP <= 1200 ms, CLS <= 0.02 (Lighthouse mobile preset: simulated slow 4G, 4x CPU slowdown).',
    ...(baseline
      ? [
          '',
          `Beside the reference build ${baseline.sha.slice(0, 12)} (LH_BASELINE=${baselineRef}), each of its runs just before one of this`,
          "build's on the same machine (medians, the score's range in brackets): when both move together, the machine moved.",
          '',
          '| page | performance: this build | reference | TBT ms: this / reference | blocking by CPU time: this / reference |',
          '|---|---:|---:|---:|---:|',
          ...rows.map((r, i) => {
            const ref = referenceRows[i];
            return `| ${r.page} | ${r.performance} (${r.range}) | ${ref.performance} (${ref.range}) | ${r.tbtMs} / ${ref.tbtMs} | ${r.cpuBlockingMs} / ${ref.cpuBlockingMs} |`;
          }),
        ]
      : []),
  ];
  console.log(lines.join('\n'));
  writeResults(
    `lighthouse-${fileStamp(new Date())}`,
    { rows, js, reference: baseline ? { ref: baselineRef, sha: baseline.sha, rows: referenceRows } : null },
    `${lines.join('\n')}\n`,
  );
  // A miss of an aim fails the run (not a smoke run), after the report is written.
  failOnMissedAims(rows.some((r) => r.performance < 98 || r.lcpMs > 1200 || r.cls > 0.02) || js.kb > 120);
}

runMain(main, 'Chromium and the server');
