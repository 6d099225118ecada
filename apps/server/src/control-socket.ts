import { chmod, rm } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import path from 'node:path';

/**
 * The control socket: how `npm run operator` (and later `npm run import`) reach a running server that holds the
 * embedded database, so they run through the server's own code instead of opening a database another process owns.
 * A Unix socket in DATA_DIR, mode 0600 inside a directory of mode 0700: only the owner of the data can connect.
 * One JSON line each way per connection: `{ command, args }`, then `{ ok: true, result }` or `{ ok: false, error }`.
 */
export const CONTROL_SOCKET = 'server.sock';
/** Longer paths do not fit a Unix socket address (108 bytes on Linux). */
const MAX_SOCKET_PATH = 100;
const MAX_REQUEST_BYTES = 64 * 1024;
/** A connection that has not sent its whole request line by then is closed (a client that hangs holds nothing). */
export const CONTROL_IDLE_MS = 10_000;

export type ControlCommand = (args: Record<string, unknown>) => Promise<unknown>;

export const controlSocketPath = (dataDir: string) => path.join(dataDir, CONTROL_SOCKET);

/**
 * Listens on DATA_DIR/server.sock; undefined when that path is too long for a socket. `isRefusal` tells which errors
 * are the caller's to read (bad input, a name taken); any other says only that the server failed (its log has it).
 */
export async function openControlSocket(
  dataDir: string,
  commands: Record<string, ControlCommand>,
  isRefusal: (err: unknown) => err is Error,
  opts: { idleMs?: number } = {},
): Promise<Server | undefined> {
  const socketPath = controlSocketPath(dataDir);
  if (socketPath.length > MAX_SOCKET_PATH) return undefined;
  // A socket file left by a server that was killed: ours now, as the data directory's lock is.
  await rm(socketPath, { force: true });
  const server = createServer((conn) => {
    let buffer = '';
    conn.setEncoding('utf8');
    conn.on('error', () => {});
    // A deadline for the whole line, not an idle timer: a byte every few seconds does not keep it open either.
    const deadline = setTimeout(() => conn.destroy(), opts.idleMs ?? CONTROL_IDLE_MS);
    conn.on('close', () => clearTimeout(deadline));
    conn.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_REQUEST_BYTES) return conn.destroy();
      const end = buffer.indexOf('\n');
      if (end === -1) return;
      conn.removeAllListeners('data');
      // The request is whole: the command may take its time (an import).
      clearTimeout(deadline);
      void answer(buffer.slice(0, end)).then((reply) => conn.end(`${JSON.stringify(reply)}\n`));
    });
  });
  const answer = async (line: string) => {
    try {
      const { command, args } = JSON.parse(line) as { command?: unknown; args?: unknown };
      // Only the table's own entries: `constructor`, `toString` and the like are not commands.
      const run =
        typeof command === 'string' && Object.hasOwn(commands, command) ? commands[command] : undefined;
      if (!run || typeof args !== 'object' || args === null) return { ok: false, error: 'unknown command' };
      return { ok: true, result: await run(args as Record<string, unknown>) };
    } catch (err) {
      return { ok: false, error: isRefusal(err) ? err.message : 'the server could not do it: see its log' };
    }
  };
  await new Promise<void>((resolve, reject) =>
    server.once('error', reject).listen(socketPath, () => resolve()),
  );
  await chmod(socketPath, 0o600);
  return server;
}

/** Sends one command to the server on `dataDir`'s control socket; rejects when no server answers there. */
export function sendControlCommand(
  dataDir: string,
  command: string,
  args: Record<string, unknown>,
): Promise<{ ok: true; result: unknown } | { ok: false; error: string }> {
  return new Promise((resolve, reject) => {
    const conn = createConnection(controlSocketPath(dataDir));
    let reply = '';
    conn.setEncoding('utf8');
    conn.on('error', reject);
    conn.on('data', (chunk: string) => {
      reply += chunk;
    });
    conn.on('end', () => {
      try {
        resolve(JSON.parse(reply));
      } catch {
        reject(new Error('the server gave no answer'));
      }
    });
    conn.write(`${JSON.stringify({ command, args })}\n`);
  });
}
