// The control socket as a client meets it: only the server's own commands run, and a connection that never sends
// its request line is closed instead of being held forever.
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlSocketPath, openControlSocket, sendControlCommand } from './control-socket.ts';

describe('the control socket', () => {
  let dir: string;
  let server: Server | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ym-sock-'));
    server = await openControlSocket(
      dir,
      { ping: async (args) => ({ pong: args.n }) },
      (err): err is Error => err instanceof Error,
      { idleMs: 300 },
    );
  });
  afterAll(async () => {
    server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs its own commands and refuses names every object inherits', async () => {
    expect(await sendControlCommand(dir, 'ping', { n: 1 })).toEqual({ ok: true, result: { pong: 1 } });
    for (const command of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expect(await sendControlCommand(dir, command, {}), command).toEqual({
        ok: false,
        error: 'unknown command',
      });
    }
  });

  it('closes a connection that sends no newline', async () => {
    const conn = createConnection(controlSocketPath(dir));
    conn.on('error', () => {});
    conn.write('{"command":');
    const started = Date.now();
    // A byte now and then is no request line: it is still closed at its deadline.
    const trickle = setInterval(() => conn.writable && conn.write(' '), 100);
    await new Promise<void>((resolve) => conn.on('close', () => resolve()));
    clearInterval(trickle);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
