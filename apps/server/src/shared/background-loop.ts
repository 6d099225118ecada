import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `run` every `intervalMs` in the server process, never two at once. `run` answers true when there is
 * more to do at once (a full batch). wake() runs it now; stop() waits for a run in progress, so the database
 * is still open while it finishes. Timers are unref'd: a loop never keeps the process alive.
 */
export function backgroundLoop(opts: {
  name: string;
  intervalMs: number;
  run: () => Promise<boolean>;
  log: FastifyBaseLogger;
}) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;
  let wakeRequested = false;

  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  };

  function tick() {
    if (running || stopped) return;
    wakeRequested = false;
    let more = false;
    running = opts
      .run()
      .then(
        (again) => {
          more = again;
        },
        (err: unknown) => opts.log.error({ err, loop: opts.name }, 'background run failed'),
      )
      .finally(() => {
        running = undefined;
        schedule(more || wakeRequested ? 0 : opts.intervalMs);
      });
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    wake() {
      if (running) wakeRequested = true;
      else schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

export type BackgroundLoop = ReturnType<typeof backgroundLoop>;

/**
 * The server's background loops (the session sweeper, the pay order sweeper, the sandbox notifier): modules add
 * theirs while they register; main.ts starts them all once the server listens, and app.close() stops them.
 */
export class BackgroundJobs {
  readonly #loops: BackgroundLoop[] = [];

  add(loop: BackgroundLoop) {
    this.#loops.push(loop);
  }

  start() {
    for (const loop of this.#loops) loop.start();
  }

  /** Waits for runs in progress, so the database is still open while they finish. */
  async stop() {
    await Promise.all(this.#loops.map((loop) => loop.stop()));
  }
}
