// `npm run bench:soak`: the server's memory under a steady mixed load of what readers do, for BENCH_SOAK_MINUTES
// (30). The built server starts as `npm start` starts it (embedded database, demo library; BENCH_DATABASE_URL: an
// empty PostgreSQL database instead), a small load driver in this process plays readers (home, lists, search, book
// detail, chapter list, free chapters and their page images, covers, new visitors, recharges through the sandbox
// cashier, chapter purchases and their granted pages) at a steady moderate rate, and every BENCH_SOAK_SAMPLE_SECONDS
// (60) the process's memory is recorded: RSS from /proc and from /metrics, V8's heap used and total, external and
// array buffers, and the server's own gauges of its caches and its stated bound (yueman_memory_*). The per-sample
// table and the JSON go to bench/results/soak-<timestamp>.{md,json}. See bench/README.md ("Memory soak").
import { readFileSync, writeFileSync } from 'node:fs';
import {
  envNumber,
  fileStamp,
  fmt,
  machine,
  runMain,
  sleep,
  smoke,
  startServer,
  tempDir,
  writeResults,
} from './bench-kit.mjs';

const settings = {
  minutes: envNumber('BENCH_SOAK_MINUTES', 30, 0.01, 0.1),
  sampleSeconds: envNumber('BENCH_SOAK_SAMPLE_SECONDS', 60, 1, 2),
  /** Readers playing at once; each waits BENCH_SOAK_THINK_MS between its requests. */
  readers: envNumber('BENCH_SOAK_READERS', 8, 1, 2),
  thinkMs: envNumber('BENCH_SOAK_THINK_MS', 100, 0, 20),
  /** One reader session in this many recharges through the sandbox and buys chapters. */
  buyerEvery: envNumber('BENCH_SOAK_BUYER_EVERY', 4, 1, 1),
  startTimeoutMs: envNumber('BENCH_START_TIMEOUT', 180, 10) * 1000,
  databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
};
/** The share of failed requests above which the run fails (a loaded machine times a few out). */
const MAX_ERROR_SHARE = smoke ? 0 : 0.01;
const METRICS_TOKEN = 'soak-metrics-token-of-the-memory-soak-bench';
const MB = 1024 * 1024;

// ------------------------------------------------------------------------------------------ the readers

const tally = { requests: 0, failed: 0, lastFailure: '', byKind: {}, failedByKind: {} };

/** One request of a reader: counted by kind; a failure (network, 5xx, a refused envelope) counted too. */
async function call(base, kind, url, { method = 'GET', cookie, accept = 'json', okCodes = [200] } = {}) {
  tally.requests++;
  tally.byKind[kind] = (tally.byKind[kind] ?? 0) + 1;
  try {
    const res = await fetch(`${base}${url}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie } : {}),
        'accept-encoding': 'gzip, deflate, br',
        'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1 yueman-soak',
      },
      signal: AbortSignal.timeout(60_000),
    });
    if (accept === 'bytes') {
      await res.arrayBuffer();
      if (res.status !== 200 && res.status !== 304) throw new Error(`${res.status}`);
      return { res };
    }
    if (accept === 'any') {
      await res.arrayBuffer();
      if (res.status >= 500) throw new Error(`${res.status}`);
      return { res };
    }
    const body = await res.json();
    if (!okCodes.includes(body.code)) throw new Error(`${res.status} code ${body.code} ${body.msg}`);
    return { res, body };
  } catch (err) {
    tally.failed++;
    tally.failedByKind[kind] = (tally.failedByKind[kind] ?? 0) + 1;
    tally.lastFailure = `${kind} ${method} ${url}: ${err?.message ?? err}`;
    return { failed: true };
  }
}

const pick = (list) => list[Math.floor(Math.random() * list.length)];
const image = (pathName, width) => `/${pathName}_${width}_0.img`;

/** What every reader browses from: the books, their chapters, the search words (read once at the start). */
async function discover(base) {
  const books = [];
  for (let page = 1; page <= 5; page++) {
    const list = await call(base, 'list', `/api/book/query/all/0/${page}`);
    if (list.failed) throw new Error(`the list page ${page} failed: ${tally.lastFailure}`);
    books.push(...list.body.data.bookList.map((b) => b.bookId));
    if (list.body.data.bookList.length === 0 || books.length >= list.body.data.total) break;
  }
  if (books.length === 0) throw new Error('the demo library has no books');
  const hot = await call(base, 'init_search', '/api/book/init_search');
  const words = [...(hot.body?.data.hotWords ?? []), '的', '少年', '王', 'x', '一'];
  return { books, words };
}

/** One reader's visit: browse, open a book, read a free chapter and its pages; some recharge and buy. */
async function visit(base, library, buyer) {
  const think = () => sleep(settings.thinkMs);
  const registered = await call(base, 'register', '/api/user/register', { method: 'POST' });
  if (registered.failed) return;
  const cookie = /sid=[^;]+/.exec(registered.res.headers.get('set-cookie') ?? '')?.[0] ?? '';
  const as = { cookie };
  await think();
  const home = await call(base, 'home', '/api/book/home/index', as);
  await think();
  await call(base, 'list', `/api/book/query/all/0/${1 + Math.floor(Math.random() * 3)}`, as);
  await call(base, 'list', `/api/book/new/${1 + Math.floor(Math.random() * 2)}`, as);
  await think();
  const word = pick(library.words);
  await call(base, 'search', `/api/book/search?content=${encodeURIComponent(word)}&page=1`, {
    ...as,
    method: 'POST',
  });
  await think();
  const bookId = pick(library.books);
  const detail = await call(base, 'detail', `/api/book/detail/${bookId}`, as);
  if (detail.failed) return;
  const { book } = detail.body.data;
  if (book?.cover) await call(base, 'cover', image(book.cover, pick([180, 200, 500])), { accept: 'bytes' });
  for (const b of (home.body?.data?.hotList ?? []).slice(0, 3)) {
    if (b?.cover) await call(base, 'cover', image(b.cover, 200), { accept: 'bytes' });
  }
  await think();
  const chapters = await call(base, 'chapters', `/api/book/chapter/list?bookId=${bookId}`, {
    ...as,
    method: 'POST',
  });
  if (chapters.failed) return;
  const list = chapters.body.data;
  const free = list.filter((c) => c.price === 0);
  const read = async (chapter) => {
    const got = await call(base, 'read', `/api/book/read_chapter?bookId=${bookId}&number=${chapter.number}`, {
      ...as,
      okCodes: [200, 101, 999],
    });
    for (const pic of (got.body?.data?.bookPics ?? []).slice(0, 4)) {
      await call(base, 'page', image(pic, pick([500, 500, 1000])), { accept: 'bytes' });
      await think();
    }
  };
  if (free.length > 0) await read(pick(free));
  if (!buyer) return;

  // A buyer: the recharge centre, an order, the sandbox cashier's confirmation, the coins, a purchase, its pages.
  const priced = list.filter((c) => c.price > 0);
  if (priced.length === 0) return;
  const centre = await call(base, 'recharge', '/api/user/recharge?appType=wap_browser', as);
  if (centre.failed) return;
  const pack = centre.body.data.payConfigs.find((p) => p.type === 'coin');
  const channel = centre.body.data.subTypes[0];
  if (!pack || !channel) return;
  const amount = Math.floor((pack.amountLevel * Math.round(channel.discount * 10) + 50) / 100);
  const order = await call(
    base,
    'pay',
    `/api/pay/pay?payChannel=${channel.subTypeCode}&payPurpose=coin&rechargerAmount=${amount}`,
    { ...as, method: 'POST' },
  );
  if (order.failed) return;
  const cashier = new URL(order.body.data.payUrl);
  await call(base, 'cashier', `${cashier.pathname}/confirm`, { method: 'POST', accept: 'any' });
  for (let i = 0; i < 50; i++) {
    const info = await call(base, 'info', '/api/user/info', as);
    if (info.failed || info.body.data.avaliableAmount > 0) break;
    await sleep(200);
  }
  for (const chapter of priced.slice(0, 2)) {
    await call(base, 'buy', `/api/book/chapter/buy?chapterId=${chapter.chapterId}`, {
      ...as,
      method: 'POST',
    });
    await read(chapter);
  }
  await call(base, 'consumption', '/api/user/consumption?page=1', as);
}

/** Readers play until `until`; each visit is a new visitor, one in `buyerEvery` a buyer. */
async function drive(base, library, until) {
  let visits = 0;
  const reader = async () => {
    while (Date.now() < until) {
      const n = visits++;
      await visit(base, library, n % settings.buyerEvery === settings.buyerEvery - 1);
    }
  };
  await Promise.all(Array.from({ length: settings.readers }, reader));
  return visits;
}

// --------------------------------------------------------------------------------------------- sampling

/** The numbers of a Prometheus text, by series (`name{labels}`). */
function parseMetrics(text) {
  const out = {};
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out[line.slice(0, at)] = Number(line.slice(at + 1));
  }
  return out;
}

/**
 * Starts the process's peak resident memory (VmHWM) again from its current size (Linux ≥ 4.0: `5` into clear_refs),
 * so the peak the soak reports is the load's, not the first start's (creating the demo library peaks higher: see
 * bench/README.md). The peak until now is returned; null where it cannot be done.
 */
function resetPeak(pid) {
  const before = procMemory(pid)?.peak ?? null;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return before;
  } catch {
    return null;
  }
}

/** The process's resident and peak resident memory from /proc (bytes), or null off Linux. */
function procMemory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) =>
      Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return null;
  }
}

async function sample(server, startedAt) {
  const res = await fetch(`${server.origin}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    signal: AbortSignal.timeout(60_000),
  });
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  const m = parseMetrics(await res.text());
  const proc = procMemory(server.pid);
  const caches = {};
  for (const [series, value] of Object.entries(m)) {
    const cache = /^yueman_memory_cache_bytes\{cache="([^"]+)"\}$/.exec(series)?.[1];
    if (cache) caches[cache] = value;
  }
  return {
    minute: +((Date.now() - startedAt) / 60_000).toFixed(2),
    rss: proc?.rss ?? m.process_resident_memory_bytes,
    peakRss: proc?.peak ?? null,
    metricsRss: m.process_resident_memory_bytes,
    heapUsed: m.nodejs_heap_size_used_bytes,
    heapTotal: m.nodejs_heap_size_total_bytes,
    external: m.nodejs_external_memory_bytes,
    arrayBuffers: m.yueman_memory_array_buffers_bytes ?? null,
    wasm: m.yueman_memory_database_wasm_bytes ?? null,
    bound: m.yueman_memory_bound_bytes ?? null,
    caches,
    requests: tally.requests,
    failed: tally.failed,
  };
}

const mb = (bytes) => (bytes === null || bytes === undefined || Number.isNaN(bytes) ? '–' : fmt(bytes / MB));

function table(samples) {
  const cacheNames = [...new Set(samples.flatMap((s) => Object.keys(s.caches)))].sort();
  const head = [
    'minute',
    'RSS MB',
    'heap used',
    'heap total',
    'external',
    'arrayBuffers',
    'db WASM',
    ...cacheNames.map((c) => `${c} cache`),
    'requests',
    'failed',
  ];
  const rows = samples.map((s) => [
    fmt(s.minute, 1),
    mb(s.rss),
    mb(s.heapUsed),
    mb(s.heapTotal),
    mb(s.external),
    mb(s.arrayBuffers),
    mb(s.wasm),
    ...cacheNames.map((c) => mb(s.caches[c])),
    fmt(s.requests),
    fmt(s.failed),
  ]);
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---:').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

// ------------------------------------------------------------------------------------------------- main

async function main() {
  const startedAtDate = new Date();
  const work = tempDir('yueman-soak-');
  const env = {
    METRICS_TOKEN,
    // Many visitors from one loopback address: the per-address limits would refuse them after 30 an hour.
    REGISTER_PER_HOUR: '100000',
    ...(settings.databaseUrl ? { DATABASE_URL: settings.databaseUrl } : {}),
  };
  const server = await startServer({
    workDir: work,
    env,
    timeoutMs: settings.startTimeoutMs,
    // Another build's main.js (a "before" run), as the foundation bench takes it.
    main: process.env.BENCH_SERVER_MAIN || undefined,
  });
  const base = server.origin;
  const library = await discover(base);
  console.log(
    `soak: ${settings.minutes} min, ${settings.readers} readers (${settings.thinkMs} ms between requests, one visit in ${settings.buyerEvery} buys), memory every ${settings.sampleSeconds} s, ${settings.databaseUrl ? 'PostgreSQL' : 'embedded database'}`,
  );

  const startPeakRss = resetPeak(server.pid);
  const startedAt = Date.now();
  const until = startedAt + settings.minutes * 60_000;
  const samples = [await sample(server, startedAt)];
  const print = (s) =>
    console.log(
      `  ${fmt(s.minute, 1).padStart(5)} min  RSS ${mb(s.rss).padStart(6)} MB  heap ${mb(s.heapUsed)}/${mb(s.heapTotal)} MB  external ${mb(s.external)} MB  WASM ${mb(s.wasm)} MB  requests ${fmt(s.requests)} (${fmt(s.failed)} failed)`,
    );
  print(samples[0]);
  let driving = true;
  const load = drive(base, library, until).finally(() => {
    driving = false;
  });
  while (driving) {
    const next = startedAt + samples.length * settings.sampleSeconds * 1000;
    while (driving && Date.now() < next) await sleep(Math.min(500, Math.max(0, next - Date.now())));
    if (!driving) break;
    const s = await sample(server, startedAt);
    samples.push(s);
    print(s);
  }
  const visits = await load;
  // After the load: what stays once readers have gone (a minute's rest, a few seconds in a smoke run).
  await sleep(smoke ? 1000 : settings.sampleSeconds * 1000);
  const rest = { ...(await sample(server, startedAt)), afterLoad: true };
  samples.push(rest);
  print(rest);

  const errorShare = tally.requests === 0 ? 1 : tally.failed / tally.requests;
  const maxRss = Math.max(...samples.map((s) => s.rss));
  const peakRss = Math.max(...samples.map((s) => s.peakRss ?? 0)) || null;
  const bound = rest.bound;
  const report = {
    startedAt: startedAtDate.toISOString(),
    smoke,
    settings: { ...settings, databaseUrl: settings.databaseUrl ? '(set)' : undefined },
    database: settings.databaseUrl ? 'postgres' : 'pglite',
    machine: machine(),
    visits,
    requests: tally.requests,
    failed: tally.failed,
    lastFailure: tally.lastFailure || undefined,
    byKind: tally.byKind,
    failedByKind: tally.failedByKind,
    boundBytes: bound,
    startPeakRss,
    peakReset: startPeakRss !== null,
    maxSampledRss: maxRss,
    peakRss,
    withinBound: bound ? (peakRss ?? maxRss) <= bound : null,
    samples,
  };
  const summary = [
    `# Memory soak ${startedAtDate.toISOString()}`,
    '',
    `${report.database}, ${settings.minutes} min, ${settings.readers} readers, ${fmt(visits)} visits, ${fmt(tally.requests)} requests (${fmt(tally.failed)} failed), ${machine().cpus} cores, load ${machine()
      .loadAvg.map((l) => l.toFixed(1))
      .join(' ')}`,
    '',
    `Stated bound (yueman_memory_bound_bytes): ${mb(bound)} MB; highest sampled RSS ${mb(maxRss)} MB; peak RSS under the load (VmHWM, reset when the load began) ${startPeakRss === null ? '(not reset: includes the start) ' : ''}${mb(peakRss)} MB; peak RSS of the start, before the load, ${mb(startPeakRss)} MB.`,
    '',
    table(samples),
    '',
    'The last row is a minute after the load ended.',
    '',
  ].join('\n');
  console.log(`\n${summary}`);
  writeResults(`soak-${fileStamp(startedAtDate)}`, report, summary);

  if (errorShare > MAX_ERROR_SHARE) {
    throw new Error(
      `${fmt(tally.failed)} of ${fmt(tally.requests)} requests failed (last: ${tally.lastFailure})`,
    );
  }
  if (tally.byKind.page === undefined || tally.byKind.buy === undefined) {
    throw new Error(`the readers did not get as far as pages and purchases: ${JSON.stringify(tally.byKind)}`);
  }
  if (report.withinBound === false) {
    console.log(`soak: peak RSS ${mb(peakRss ?? maxRss)} MB passed the stated bound of ${mb(bound)} MB`);
    if (!smoke) process.exitCode = 1;
  }
}

runMain(main, 'the server');
