// Where the cores went during a run (Linux /proc; snapshots are null elsewhere): each side a bench names (the
// server, nginx, PostgreSQL, the load generator) and everything else on the machine, which is noise for the
// figures on a shared machine. Also the wait for a quiet machine before a run.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { sleep } from './bench-kit.mjs';

const CLOCK_TICKS = 100;

/** Cores that other processes may use during a run before it counts as disturbed (the machine may be shared). */
export const NOISE_CORES = 0.25;

/** Direct children of a process, to count the CPU of a server's workers or backends. */
export function childPids(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** Every process under `pid`: its children, theirs, and so on (a server's cluster workers, nginx's workers). */
export function descendantPids(pid) {
  const all = [];
  for (let next = childPids(pid); next.length > 0; next = next.flatMap(childPids)) all.push(...next);
  return all;
}

/** utime + stime of a process, plus those of the children it has reaped when `withChildren` (/proc/pid/stat). */
export function ticksOf(pid, withChildren = false) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    return f[11] + f[12] + (withChildren ? f[13] + f[14] : 0);
  } catch {
    return 0;
  }
}

/** cutime + cstime: the ticks of the children a process has reaped (a load generator that has exited). */
export const reapedTicks = (pid) => ticksOf(pid, true) - ticksOf(pid);

/** Ticks the machine's cores have been busy since boot. */
function machineBusy() {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return cpu.slice(0, 8).reduce((a, b) => a + b, 0) - cpu[3] - cpu[4];
}

/**
 * The machine's busy ticks and each side's: `sides` maps a name to a function giving its ticks, or a Map of
 * pid to ticks for a side of several processes that may come and go (nginx's workers).
 */
export function cpuSnapshot(sides) {
  if (!existsSync('/proc/stat')) return null;
  const ticks = Object.fromEntries(Object.entries(sides).map(([name, read]) => [name, read()]));
  return { at: performance.now(), busy: machineBusy(), ticks };
}

/** Cores each side used between two snapshots, and `other`: the rest of the machine. */
export function cpuCores(a, b) {
  if (!a || !b) return null;
  const cores = (ticks) => ticks / CLOCK_TICKS / ((b.at - a.at) / 1000);
  const used = {};
  let ours = 0;
  for (const [name, after] of Object.entries(b.ticks)) {
    const before = a.ticks[name];
    let ticks = 0;
    if (after instanceof Map) for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
    else ticks = after - before;
    used[name] = cores(ticks);
    ours += ticks;
  }
  return { ...used, other: Math.max(0, cores(b.busy - a.busy - ours)) };
}

/** Cores busy on the machine over `ms` (between runs that is other people's work: ours is idle). */
async function busyCores(ms) {
  if (!existsSync('/proc/stat')) return 0;
  const before = machineBusy();
  await sleep(ms);
  return (machineBusy() - before) / CLOCK_TICKS / (ms / 1000);
}

/** On a shared machine, waits (up to `maxWaitMs`, BENCH_QUIET_WAIT) until other processes leave the cores alone. */
export async function waitForQuiet(maxWaitMs) {
  // 0 (a smoke run, BENCH_QUIET_WAIT=0): no wait, no look.
  if (maxWaitMs <= 0) return;
  const deadline = Date.now() + maxWaitMs;
  // Other work comes in bursts (test suites, builds): 3 quiet seconds in a row before a run starts.
  let cores = await busyCores(3000);
  if (cores <= NOISE_CORES) return;
  process.stdout.write(`  waiting for a quiet machine (${cores.toFixed(2)} cores busy elsewhere)`);
  while (cores > NOISE_CORES && Date.now() < deadline) {
    process.stdout.write('.');
    cores = await busyCores(3000);
  }
  console.log(cores > NOISE_CORES ? ` still ${cores.toFixed(2)} cores busy: measuring anyway` : ' quiet');
}

/**
 * Keeps a process and every thread of it on the given CPUs (`taskset -a -p -c`, util-linux); processes it starts
 * later inherit it. False where that cannot be done (no taskset, not Linux).
 */
export function pinTo(pid, cpus) {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
