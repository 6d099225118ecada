// Summarises the server's V8 CPU profile (`BENCH_CPU_PROF=1 npm run bench`, or by hand:
// `node bench/profile-summary.mjs DIR_OR_FILE`): where the time went while autocannon was loading it, by
// function (self time and inclusive time) and by area (a package, a server source file, node internals, GC).
// Samples can be restricted to time windows (µs of the monotonic clock, which V8 and process.hrtime share on
// Linux), so the server's start-up, migrations and demo seeding do not dilute the figures.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const META = new Set(['(root)', '(program)', '(idle)', '(garbage collector)']);

function area(url, name) {
  if (META.has(name)) return name;
  if (!url) return '(native / V8)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) {
    const parts = url.slice(5).split('/');
    return `node:${parts.length > 2 ? parts.slice(0, 2).join('/') : parts.join('/')}`;
  }
  const src = url.indexOf('/apps/server/src/');
  if (src >= 0) return url.slice(src + 1);
  const pkg = url.indexOf('/packages/');
  if (pkg >= 0) return url.slice(pkg + 1);
  return url.replace(/^file:\/\//, '');
}

function shortUrl(url) {
  if (!url) return '';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) return url.slice(nm + '/node_modules/'.length);
  const apps = url.indexOf('/apps/');
  if (apps >= 0) return url.slice(apps + 1);
  return url.replace(/^file:\/\//, '');
}

// Layers of a request, tried from the sampled frame towards the root: the first frame that matches names the
// layer, so time in node:events called by fastify counts as events, and a plugin's own code as that plugin.
const LAYERS = [
  ['socket write syscall (kernel send on loopback)', (name, url) => name === 'writev' && !url],
  ['static-cache plugin', (_, url) => url.includes('/shared/static-cache.ts')],
  ['image handler', (_, url) => /\/modules\/(images|web)\//.test(url)],
  ['other server code', (_, url) => url.includes('/apps/server/src/') || url.includes('/packages/contract/')],
  ['per-request logger (pino child)', (_, url) => url.includes('/pino/') || url.includes('logger-factory')],
  [
    'request id (randomUUID)',
    (_, url) => url.includes('req-id-gen') || url.includes('internal/crypto/random'),
  ],
  ['@fastify/cookie', (_, url) => url.includes('@fastify/cookie')],
  ['@fastify/compress', (_, url) => url.includes('@fastify/compress')],
  ['other plugins', (_, url) => url.includes('/node_modules/@fastify/')],
  ['routing (find-my-way)', (_, url) => url.includes('/find-my-way/')],
  ['database', (_, url) => /\/(drizzle-orm|@electric-sql|pg|pg-protocol)\//.test(url)],
  ['fastify core (hooks, reply)', (_, url) => url.includes('/node_modules/fastify/')],
  ['node http (parser, headers)', (_, url) => url.startsWith('node:_http_')],
  [
    'node streams, net, timers',
    (_, url) => /^node:(net|timers|internal\/(streams|stream_base_commons|timers))/.test(url),
  ],
  ['node events', (_, url) => url === 'node:events'],
  [
    'promises, nextTick, microtasks',
    (name, url) => name === 'runMicrotasks' || url.includes('task_queues') || url.includes('async_hooks'),
  ],
  ['garbage collector', (name) => name === '(garbage collector)'],
];
const OTHER_LAYER = 'V8 and native, other';

function layerOf(node, byId, parent) {
  for (let id = node.id; id !== undefined; id = parent.get(id)) {
    const { functionName, url } = byId.get(id).callFrame;
    if (functionName === '(root)') break;
    for (const [layer, test] of LAYERS) if (test(functionName, url)) return layer;
  }
  return OTHER_LAYER;
}

/** Self and inclusive µs per function and self µs per area, over the samples inside `windows` (all if none). */
export function analyse(profile, windows = []) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n) =>
    `${n.callFrame.functionName || '(anonymous)'} ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

  const self = new Map();
  const inclusive = new Map();
  const areas = new Map();
  const layers = new Map();
  let total = 0;
  let t = profile.startTime;
  const inWindow = (ts) => windows.length === 0 || windows.some((w) => ts >= w.start && ts <= w.end);
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    if (!inWindow(t)) continue;
    // Like DevTools: a sample stands for the time until the next sample.
    const weight = profile.timeDeltas[i + 1] ?? dt;
    const node = byId.get(profile.samples[i]);
    if (!node) continue;
    total += weight;
    const k = key(node);
    self.set(k, (self.get(k) ?? 0) + weight);
    const a = area(node.callFrame.url, node.callFrame.functionName);
    areas.set(a, (areas.get(a) ?? 0) + weight);
    if (a !== '(idle)') {
      const l = layerOf(node, byId, parent);
      layers.set(l, (layers.get(l) ?? 0) + weight);
    }
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id);
      const nk = key(n);
      if (META.has(n.callFrame.functionName) || seen.has(nk)) continue;
      seen.add(nk);
      inclusive.set(nk, (inclusive.get(nk) ?? 0) + weight);
    }
  }
  return { total, self, inclusive, areas, layers };
}

function top(map, total, n) {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `| ${((100 * v) / total).toFixed(1)}% | \`${k.replaceAll('|', '\\|')}\` |`);
}

/** `requests`: how many requests the window served, for µs per request (optional). */
function render(title, { total, self, inclusive, areas, layers }, n, requests) {
  if (total === 0) return `### ${title}\n\nno samples in this window\n`;
  const idle = areas.get('(idle)') ?? 0;
  const busy = total - idle;
  const perRequest = requests ? busy / requests : null;
  const layerRows = [...layers.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(
      ([k, v]) =>
        `| ${((100 * v) / busy).toFixed(1)}% | ${perRequest ? ((perRequest * v) / busy).toFixed(1) : '–'} | ${k} |`,
    );
  return [
    `### ${title}`,
    '',
    `${(total / 1e6).toFixed(1)} s sampled, ${((100 * idle) / total).toFixed(1)}% idle` +
      (perRequest ? `; the JavaScript thread spent ${perRequest.toFixed(1)} µs per request.` : '.'),
    '',
    '| share of busy time | µs per request | layer |',
    '|---:|---:|---|',
    ...layerRows,
    '',
    '| self | function |',
    '|---:|---|',
    ...top(self, total, n),
    '',
    '| inclusive | function |',
    '|---:|---|',
    ...top(inclusive, total, n),
    '',
  ].join('\n');
}

function profileFiles(target) {
  if (statSync(target).isFile()) return [target];
  return readdirSync(target)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(target, f));
}

/**
 * Markdown for the profiles under `target`: all windows together, then each named window.
 * `windows`: [{ name, start, end, requests? }] in µs of the monotonic clock; empty means the whole profile.
 */
export function summariseProfiles(target, windows = [], n = 15) {
  const files = profileFiles(target);
  if (files.length === 0) return null;
  // The biggest file is the server; a short-lived helper process would write a small one.
  const file = files.map((f) => [f, statSync(f).size]).sort((a, b) => b[1] - a[1])[0][0];
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  let all = analyse(profile, windows);
  const parts = [`Profile: \`${path.basename(file)}\`.`, ''];
  if (windows.length > 0 && all.total === 0) {
    parts.push('(no sample fell in the measured windows: the clocks differ; the whole profile follows)', '');
    windows = [];
    all = analyse(profile, []);
  }
  const requests = windows.reduce((sum, w) => sum + (w.requests ?? 0), 0) || undefined;
  parts.push(render(windows.length > 0 ? 'All measured server runs' : 'Whole profile', all, n, requests));
  if (windows.length > 1) {
    for (const w of windows) parts.push(render(w.name, analyse(profile, [w]), 8, w.requests));
  }
  return parts.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const target = process.argv[2];
  if (!target) {
    console.error('usage: node bench/profile-summary.mjs PROFILE_DIR_OR_FILE');
    process.exit(2);
  }
  console.log(summariseProfiles(target) ?? 'no .cpuprofile found');
}
