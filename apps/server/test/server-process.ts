// The real server as its own process (apps/server/src/main.ts), for tests of the process itself: start-up, the
// data-dir lock, signals, SIGKILL in the middle of money, its whole log.
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');
/** The build `npm start` runs (made by `npm run build`, or by built-server.ts before the tests when stale). */
export const builtMain = path.join(root, 'apps/server/dist/main.js');

export interface ServerProcess {
  base: string;
  pid: number;
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
  output(): string;
}

/** Whether something accepts connections on 127.0.0.1:port now (a service a test started). */
export const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.end() && true));
    socket.once('error', () => resolve(false));
  });

/** A TCP port nothing listens on now, on 127.0.0.1. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
  });

/**
 * Starts the server on 127.0.0.1:port and resolves once /healthz answers; rejects with its output when it exits
 * first (a refused start says why there).
 */
export async function startServer(
  port: number,
  env: Record<string, string>,
  opts: { readyMs?: number } = {},
): Promise<ServerProcess> {
  // node itself, as `npm start` runs it after its build: SIGKILL must hit the process that holds the database.
  const child = spawn(process.execPath, ['--enable-source-maps', builtMain], {
    cwd: root,
    // One process unless a test asks for workers (WEB_CONCURRENCY defaults to every core with PostgreSQL).
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WEB_CONCURRENCY: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const readyMs = opts.readyMs ?? 90_000;
  const deadline = Date.now() + readyMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${output}`);
    const up = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`server not ready in ${readyMs / 1000} s: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    pid: child.pid as number,
    exited,
    kill: (signal) => {
      if (child.exitCode === null) child.kill(signal);
    },
    output: () => output,
  };
}
