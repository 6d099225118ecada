import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const root = new URL('../../..', import.meta.url).pathname;

/** A port of its own for a spec's server, beside the suite's (E2E_PORT) and the other specs' (offsets 1-39; 40 is the global setup's, demo-data.ts). */
export const ownPort = (offset: number) => Number(process.env.E2E_PORT ?? 18900) + offset;

export interface OwnServer {
  origin: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * A server of a spec's own (the built one, as `npm start` runs it) on a fresh data directory with the demo library,
 * for settings the suite's server does not have (a gateway's keys, …); answers once /healthz does.
 *
 * The fresh data directory is a copy of the one the suite's global setup made (demo-data.ts, `E2E_DEMO_DATA_DIR`),
 * as a second start of the same build would find it: initdb and drawing the demo library once per run instead of once
 * per spec (15 s or more each on 2 cores, and past a minute on a loaded machine). Another build (`main`) or another
 * database starts fresh.
 */
export async function startOwnServer(o: {
  port: number;
  name: string;
  env?: Record<string, string>;
  /** Another build of the server (default: apps/server/dist/main.js). */
  main?: string;
  /** Reuse this data directory (a restart); a new one otherwise. */
  dataDir?: string;
  /** How long to wait for /healthz. */
  timeoutMs?: number;
  /** The server's clock this far ahead of the machine's (server-clock.ts): a day passes for it at a restart. */
  clockAheadMs?: number;
}): Promise<OwnServer> {
  const origin = `http://127.0.0.1:${o.port}`;
  const dataDir = o.dataDir ?? mkdtempSync(path.join(tmpdir(), `yueman-e2e-${o.name}-`));
  const env = { ...process.env, ...o.env };
  const demo = process.env.E2E_DEMO_DATA_DIR;
  const fresh = !existsSync(dataDir) || readdirSync(dataDir).length === 0;
  if (demo && fresh && !o.main && !env.DATABASE_URL && (env.DEMO_LIBRARY ?? 'true') === 'true') {
    cpSync(demo, dataDir, { recursive: true });
  }
  const clock = o.clockAheadMs ? ['--import', path.join(root, 'apps/web/e2e/server-clock.ts')] : [];
  const server: ChildProcess = spawn(
    process.execPath,
    [...clock, o.main ?? path.join(root, 'apps/server/dist/main.js')],
    {
      cwd: root,
      stdio: 'ignore',
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(o.port),
        HOST: '127.0.0.1',
        PUBLIC_ORIGIN: origin,
        LOG_LEVEL: 'warn',
        WEB_CONCURRENCY: '1',
        REGISTER_PER_HOUR: '100000',
        ...(o.clockAheadMs ? { E2E_CLOCK_AHEAD_MS: String(o.clockAheadMs) } : {}),
        ...o.env,
      },
    },
  );
  let running = true;
  const exited = new Promise<void>((resolve) =>
    server.once('exit', () => {
      running = false;
      resolve();
    }),
  );
  await healthy(origin, () => running, o.timeoutMs ?? 90_000);
  return {
    origin,
    dataDir,
    async stop() {
      server.kill('SIGTERM');
      await exited;
      if (!o.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until the server at `origin` answers /healthz with 200; fails at once when it has exited. */
async function healthy(origin: string, running: () => boolean, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (!running()) throw new Error(`the server for ${origin} exited before answering /healthz`);
    const status = await fetch(`${origin}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await sleep(250);
  }
  throw new Error(`the server for ${origin} did not answer /healthz within ${timeoutMs / 1000} s`);
}
