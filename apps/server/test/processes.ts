// Watching server processes from a test: a primary's workers, and waiting for something to become true.
import { readFileSync } from 'node:fs';

/** The direct children of a process (Linux /proc): a primary's workers. */
export function childrenOf(pid: number): number[] {
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

/** Resolves with the first value `probe` gives that is not undefined; rejects after `ms`. */
export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms = 30_000,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not in ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
