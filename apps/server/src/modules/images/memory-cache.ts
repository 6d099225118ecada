/** Least-recently-used map bounded by a byte budget (Map keeps insertion order; a hit re-inserts). */
export class MemoryCache<V> {
  private readonly items = new Map<string, { value: V; bytes: number }>();
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): V | undefined {
    const item = this.items.get(key);
    if (!item) return undefined;
    this.items.delete(key);
    this.items.set(key, item);
    return item.value;
  }

  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes) return;
    this.items.set(key, { value, bytes });
    this.total += bytes;
    for (const [k, old] of this.items) {
      if (this.total <= this.maxBytes) break;
      this.items.delete(k);
      this.total -= old.bytes;
    }
  }

  delete(key: string): void {
    const item = this.items.get(key);
    if (!item) return;
    this.items.delete(key);
    this.total -= item.bytes;
  }

  get size(): number {
    return this.items.size;
  }
}

/** Caps how many sharp jobs run at once, so a burst of first requests queues instead of thrashing. */
export class Limiter {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(private readonly max: number) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    // A finished job hands its slot straight to the next in line, so no newcomer can slip in between.
    if (this.active >= this.max) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.active++;
    try {
      return await job();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    }
  }
}
