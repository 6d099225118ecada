import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';

const root = new URL('../../..', import.meta.url).pathname;

/** A port of its own for a spec's server, beside the suite's (E2E_PORT) and the other specs' (offset 1-19). */
export const ownPort = (offset: number) => Number(process.env.E2E_PORT ?? 18900) + offset;

export interface OwnServer {
  origin: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * A server of a spec's own (the built one, as `npm start` runs it) on a fresh data directory with the demo library,
 * for settings the suite's server does not have (a gateway's keys, …); answers once /healthz does.
 */
export async function startOwnServer(o: {
  port: number;
  name: string;
  env?: Record<string, string>;
  /** Another build of the server (default: apps/server/dist/main.js). */
  main?: string;
  /** Reuse this data directory (a restart); a new one otherwise. */
  dataDir?: string;
  /** The server's clock this far ahead of the machine's (server-clock.ts): a day passes for it at a restart. */
  clockAheadMs?: number;
}): Promise<OwnServer> {
  const origin = `http://127.0.0.1:${o.port}`;
  const dataDir = o.dataDir ?? mkdtempSync(path.join(tmpdir(), `yueman-e2e-${o.name}-`));
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
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  await expect
    .poll(
      () =>
        fetch(`${origin}/healthz`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 90_000 },
    )
    .toBe(200);
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
