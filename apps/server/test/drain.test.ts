// SIGTERM in the middle of a stream of concurrent chapter buys: the server stops taking connections, says it is not
// ready, answers every request it took in full, then exits 0. Checked against the database afterwards: every buy
// the server committed was answered to its client (none done with its answer lost).
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { newDataDir } from './data-dirs.ts';
import { ownedChapterIds, pricedChaptersOverHttp, readersWithCoins } from './money/money-test-kit.ts';
import { until } from './processes.ts';
import { freePort, type ServerProcess, startServer } from './server-process.ts';
import { createTestDatabase, dbKind, describeDb, type TestDatabase } from './test-database.ts';

const payKey = randomBytes(32);
const READERS = 6;

describeDb('a server draining on SIGTERM', () => {
  let dataDir: string;
  let pg: TestDatabase | undefined;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    dataDir = await newDataDir('drain', 'demo');
    if (dbKind === 'postgres') pg = await createTestDatabase({ demo: true });
  });
  afterAll(async () => {
    server?.kill('SIGKILL');
    await pg?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers every request it took, says not ready, and exits 0', async () => {
    server = await startServer(await freePort(), {
      DATA_DIR: dataDir,
      SANDBOX_PAY_KEY: payKey.toString('hex'),
      REGISTER_PER_HOUR: '10000',
      DRAIN_SECONDS: '10',
      ...(pg?.url ? { DATABASE_URL: pg.url } : {}),
    });
    const { base } = server;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);

    const readers = await readersWithCoins(base, READERS, payKey);
    const chapters = await pricedChaptersOverHttp(base);

    let signalledAt = Number.POSITIVE_INFINITY;
    let answered = 0;
    /** Requests sent before SIGTERM and answered after it: they were in flight when it came. */
    let inFlightAnswered = 0;
    /** A response whose body did not arrive whole: must never happen. */
    const broken: string[] = [];
    const charged = new Map<number, Set<number>>();

    const streams = readers.map(async (r, n) => {
      const mine = new Set<number>();
      charged.set(r.userId, mine);
      for (let i = 0; ; i++) {
        const chapter = chapters[(i * READERS + n) % chapters.length] as number;
        const sentAt = Date.now();
        let res: Response;
        try {
          res = await fetch(`${base}/api/book/chapter/buy?chapterId=${chapter}`, {
            method: 'POST',
            headers: { cookie: r.cookie },
          });
        } catch {
          // Refused (the port is closed) or reset before the server took it: no answer was promised.
          if (Date.now() >= signalledAt) return;
          throw new Error('a request failed before SIGTERM');
        }
        try {
          const body = await res.json();
          if (res.status === 200 && body.result === true && body.data.charged > 0) mine.add(chapter);
        } catch (err) {
          broken.push(`${res.status} ${String(err)}`);
          return;
        }
        answered++;
        if (sentAt < signalledAt && Date.now() >= signalledAt) inFlightAnswered++;
      }
    });

    // /readyz, polled as a load balancer does: 200 until the drain begins, then 503 or refused, never 200 again.
    const probes: ('ready' | 'not ready')[] = [];
    const prober = (async () => {
      for (;;) {
        const status = await fetch(`${base}/readyz`).then(
          (res) => res.status,
          () => 0,
        );
        probes.push(status === 200 ? 'ready' : 'not ready');
        if (status === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();

    // SIGTERM once the stream is well under way (a stream that fails before it ends the wait).
    let streaming = true;
    void Promise.allSettled(streams).then(() => {
      streaming = false;
    });
    while (answered < 150 && streaming) await new Promise((resolve) => setTimeout(resolve, 10));
    signalledAt = Date.now();
    server.kill('SIGTERM');
    await Promise.all(streams);
    await prober;
    expect(await server.exited).toBe(0);
    const output = server.output();
    server = undefined;

    expect(broken).toEqual([]);
    expect(inFlightAnswered).toBeGreaterThan(0);
    expect(output).not.toContain('requests still in flight');
    const firstNotReady = probes.indexOf('not ready');
    expect(firstNotReady).toBeGreaterThan(0);
    expect(probes.slice(firstNotReady)).not.toContain('ready');

    // Every chapter the server sold was answered as sold, and every answered sale was kept.
    const { db, close } = pg?.url
      ? await openDatabase({ kind: 'postgres', url: pg.url })
      : await openDatabase({ kind: 'pglite', dataDir });
    try {
      for (const r of readers) {
        expect(new Set(await ownedChapterIds(db, r.userId))).toEqual(charged.get(r.userId));
      }
    } finally {
      await close();
    }
  }, 180_000);
});

/** One HTTP/1.1 exchange on a raw socket kept open: the answer's head (lower case) and whether a body followed whole. */
function exchange(socket: Socket, url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = buffer.subarray(0, end).toString('latin1').toLowerCase();
      const length = Number(/content-length: (\d+)/.exec(head)?.[1] ?? 0);
      if (buffer.length < end + 4 + length) return;
      done();
      resolve(head);
    };
    const onClose = () => {
      done();
      reject(new Error(`connection closed before the answer to ${url}`));
    };
    const done = () => {
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onClose);
    };
    if (socket.destroyed) {
      reject(new Error(`connection closed before the request to ${url}`));
      return;
    }
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.on('error', onClose);
    socket.write(`GET ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  });
}

// A request sent on an idle keep-alive connection just after SIGTERM used to be reset unread.
// The database plays no part: the embedded one only.
describe.skipIf(dbKind !== 'pglite')('keep-alive connections idle when SIGTERM comes', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    dataDir = await newDataDir('drain-idle', 'demo');
  });
  afterAll(async () => {
    server?.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers a request sent on each just after SIGTERM, with Connection: close', {
    timeout: 300_000,
  }, async () => {
    server = await startServer(
      await freePort(),
      { DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      { readyMs: 240_000 },
    );
    const port = Number(new URL(server.base).port);
    // A kept static answer (the front answers it on its own connection) and /healthz (node:http's, handed over).
    const kept = '/api/book/query/all/0/2';
    await fetch(`${server.base}${kept}`);
    await fetch(`${server.base}${kept}`);
    const urls = [kept, kept, kept, '/healthz', '/healthz', '/healthz'];
    const sockets = await Promise.all(
      urls.map(
        () =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect(port, '127.0.0.1', () => resolve(socket)).once('error', reject);
          }),
      ),
    );
    for (const [i, socket] of sockets.entries()) {
      const head = await exchange(socket, urls[i] as string);
      expect(head).toMatch(/^http\/1\.1 200/);
      expect(head).not.toContain('connection: close');
    }
    // Idle now. SIGTERM, and as soon as the server has taken it, one more request on each connection.
    server.kill('SIGTERM');
    const proc = server;
    await until(
      'stop requested',
      () => (proc.output().includes('stop requested') ? true : undefined),
      60_000,
    );
    const heads = await Promise.all(
      sockets.map((socket, i) => exchange(socket, urls[i] as string).catch((err: Error) => err.message)),
    );
    for (const head of heads) {
      expect(head).toMatch(/^http\/1\.1 200/);
      expect(head).toContain('connection: close');
    }
    for (const socket of sockets) socket.destroy();
    expect(await server.exited).toBe(0);
    server = undefined;
  });
});
