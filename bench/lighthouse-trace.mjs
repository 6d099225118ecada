// The page's main-thread tasks in a Lighthouse trace, by the CPU time the thread got (the trace's `tdur`), not
// the wall time Lighthouse uses. On a machine shared with other work the two differ several times over (a task
// waits for a core); the CPU time moves much less, so runs minutes apart can be compared by it. Lighthouse's mobile
// preset counts each task 4 times (simulated 4x CPU slowdown): a task of 12.5 ms here is a 50 ms long task there.

const SLOWDOWN = 4;
const LONG_MS = 50;

/** What an event's self time was spent on. */
function kindOf(name) {
  if (name === 'ParseHTML') return 'HTML';
  if (name === 'UpdateLayoutTree' || name === 'ParseAuthorStyleSheet' || name === 'RecalculateStyles')
    return 'style';
  if (name === 'Layout') return 'layout';
  if (/^(Paint|PrePaint|Layerize|Commit|PaintImage|Decode|Rasterize|UpdateLayer)/.test(name)) return 'paint';
  if (/GC/.test(name)) return 'GC';
  if (
    /^(v8|V8)\./.test(name) ||
    /^(FunctionCall|EvaluateScript|TimerFire|EventDispatch|RunMicrotasks|FireIdleCallback|FireAnimationFrame)$/.test(
      name,
    )
  )
    return 'script';
  return 'other';
}

const fileOf = (url) => (url ? url.replace(/^.*\/assets\//, '').replace(/^https?:\/\/[^/]+/, '') : '');

/** The script an event runs, when it names one. */
const scriptOf = (e) =>
  fileOf(
    e.args?.data?.url ?? e.args?.data?.stackTrace?.[0]?.url ?? e.args?.fileName ?? e.args?.data?.fileName,
  );

/** The first ParseHTML of the document at `url`: its pid and tid are the page's main thread. */
const documentParse = (events, url) =>
  events.find(
    (e) => e.name === 'ParseHTML' && e.ph === 'X' && (e.args?.beginData?.url ?? '').startsWith(url),
  );

/**
 * The main thread of the document at `url` (its first ParseHTML), from the task that started parsing it to the
 * trace's end: each top-level task with its CPU and wall ms and its CPU ms by kind (script per file, style, layout,
 * paint, HTML, GC, other).
 */
export function mainThreadTasks(trace, url) {
  const events = trace.traceEvents ?? trace;
  const parse = documentParse(events, url);
  if (!parse) return null;
  const onMain = events
    .filter((e) => e.pid === parse.pid && e.tid === parse.tid && e.ph === 'X' && typeof e.dur === 'number')
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const top = onMain.filter((e) => e.name === 'RunTask');
  const start = top.find((t) => t.ts <= parse.ts && t.ts + t.dur >= parse.ts)?.ts ?? parse.ts;
  const tasks = [];
  let i = 0;
  for (const task of top) {
    if (task.ts < start) continue;
    const end = task.ts + task.dur;
    while (i < onMain.length && onMain[i].ts < task.ts) i++;
    // The events inside the task, nested by time; each one's self time goes to its kind (script: its file).
    const kinds = {};
    const stack = [];
    const close = (e) => {
      const self = Math.max(0, (e.tdur ?? e.dur) - e.childCpu);
      const kind = kindOf(e.name);
      const key =
        kind !== 'script'
          ? kind
          : e.script
            ? `script ${e.script}`
            : e.name === 'v8.evaluateModule'
              ? 'module evaluation'
              : 'script';
      kinds[key] = (kinds[key] ?? 0) + self / 1000;
    };
    for (let j = i; j < onMain.length && onMain[j].ts < end; j++) {
      const e = onMain[j];
      if (e === task || e.name === 'RunTask') continue;
      while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) close(stack.pop());
      const parent = stack.at(-1);
      const node = {
        ...e,
        childCpu: 0,
        script: scriptOf(e) || parent?.script || '',
      };
      if (parent) parent.childCpu += e.tdur ?? e.dur;
      stack.push(node);
    }
    while (stack.length) close(stack.pop());
    // Lighthouse's own scripts, run in the page after the load, are not the page's work.
    if (Object.keys(kinds).some((k) => k.includes('_lighthouse-eval'))) continue;
    tasks.push({
      startMs: (task.ts - start) / 1000,
      // A task cut by the trace's end can carry a CPU time longer than its wall time: the smaller of the two.
      cpuMs: Math.min(task.tdur ?? task.dur, task.dur) / 1000,
      wallMs: task.dur / 1000,
      kinds,
    });
  }
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === parse.pid);
  return { tasks, fcpMs: fcp ? (fcp.ts - start) / 1000 : 0 };
}

/**
 * A run's main-thread summary by CPU time: the total, what Lighthouse would count as blocking if every task took
 * its CPU time (each task × 4, less 50 ms, from the trace's first contentful paint on; Lighthouse stops at its
 * estimate of time to interactive, this at the trace's end), and the long tasks (× 4 ≥ 50 ms) with what they did.
 */
export function cpuSummary(trace, url) {
  const thread = mainThreadTasks(trace, url);
  if (!thread) return null;
  const { tasks, fcpMs } = thread;
  const long = tasks.filter((t) => t.cpuMs * SLOWDOWN >= LONG_MS);
  const round = (ms) => Math.round(ms * 10) / 10;
  return {
    cpuMs: Math.round(tasks.reduce((s, t) => s + t.cpuMs, 0) * SLOWDOWN),
    cpuBlockingMs: Math.round(
      long.filter((t) => t.startMs >= fcpMs).reduce((s, t) => s + t.cpuMs * SLOWDOWN - LONG_MS, 0),
    ),
    longTasks: long.map((t) => ({
      startMs: Math.round(t.startMs),
      ms: Math.round(t.cpuMs * SLOWDOWN),
      what: Object.entries(t.kinds)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .filter(([, ms]) => ms * SLOWDOWN >= 4)
        .map(([kind, ms]) => `${kind} ${round(ms * SLOWDOWN)}`)
        .join(', '),
    })),
  };
}

/**
 * The CPU ms each traced thread of the browser took in the first `windowMs` after the document at `url` began (its
 * first ParseHTML), busiest first: the page's main thread beside the browser's own (its main thread, the
 * display compositor that draws every frame of the window in software here, the page's raster and compile workers).
 * On two cores they all compete with the page's main thread, whose waiting Lighthouse counts 4 times
 * (bench/README.md, "Where the two cores go during a load").
 */
export function threadsBeside(trace, url, windowMs = 2500) {
  const events = trace.traceEvents ?? trace;
  const parse = documentParse(events, url);
  if (!parse) return [];
  const names = (metaName) =>
    new Map(
      events
        .filter((e) => e.name === metaName)
        .map((e) => [metaName === 'process_name' ? e.pid : `${e.pid}:${e.tid}`, e.args.name]),
    );
  const processes = names('process_name');
  const threads = names('thread_name');
  const from = parse.ts;
  const to = from + windowMs * 1000;
  // Top-level events only: per thread, an event inside the one before it is that one's child.
  const byThread = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || typeof e.dur !== 'number' || typeof e.tdur !== 'number') continue;
    const key = `${e.pid}:${e.tid}`;
    if (!byThread.has(key)) byThread.set(key, []);
    byThread.get(key).push(e);
  }
  const rows = [];
  for (const [key, list] of byThread) {
    list.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    let end = 0;
    let cpu = 0;
    for (const e of list) {
      if (e.ts < end) continue;
      end = e.ts + e.dur;
      if (e.ts >= from && e.ts < to) cpu += e.tdur;
    }
    const pid = Number(key.split(':')[0]);
    const thread = key === `${parse.pid}:${parse.tid}` ? 'the page' : (threads.get(key) ?? key);
    if (cpu >= 1000)
      rows.push({ thread: `${processes.get(pid) ?? pid} ${thread}`, ms: Math.round(cpu / 1000) });
  }
  // Several workers share a name (ThreadPoolForegroundWorker): one row for them.
  const merged = new Map();
  for (const r of rows) merged.set(r.thread, (merged.get(r.thread) ?? 0) + r.ms);
  return [...merged].map(([thread, ms]) => ({ thread, ms })).sort((a, b) => b.ms - a.ms);
}
