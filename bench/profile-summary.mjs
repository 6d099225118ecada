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
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id);
      const nk = key(n);
      if (META.has(n.callFrame.functionName) || seen.has(nk)) continue;
      seen.add(nk);
      inclusive.set(nk, (inclusive.get(nk) ?? 0) + weight);
    }
  }
  return { total, self, inclusive, areas };
}

function top(map, total, n) {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `| ${((100 * v) / total).toFixed(1)}% | \`${k.replaceAll('|', '\\|')}\` |`);
}

function render(title, { total, self, inclusive, areas }, n) {
  if (total === 0) return `### ${title}\n\nno samples in this window\n`;
  const idle = (areas.get('(idle)') ?? 0) / total;
  return [
    `### ${title}`,
    '',
    `${(total / 1e6).toFixed(1)} s sampled, ${(100 * idle).toFixed(1)}% idle.`,
    '',
    '| self | area |',
    '|---:|---|',
    ...top(areas, total, n),
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
 * `windows`: [{ name, start, end }] in µs of the monotonic clock; empty means the whole profile.
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
  parts.push(render(windows.length > 0 ? 'All measured server runs' : 'Whole profile', all, n));
  if (windows.length > 1) {
    for (const w of windows) parts.push(render(w.name, analyse(profile, [w]), 8));
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
