// Every core with the embedded database (src/fronts): the built server on PGlite with WEB_CONCURRENCY=2 is one
// process that owns the database and two front processes on the public port. The fronts answer kept static calls
// and kept images from their copies and hand every other connection, from the first byte they did not answer, to
// the owner. Checked here through the port, as a phone would reach it: what the fronts answer is what the owner
// would; a connection handed over mid-way (pipelined requests, a body, a half-close) loses no byte; the paywall holds;
// the fronts' answers reach /metrics; a dead front is replaced; SIGTERM drains everything and exits 0.
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendControlCommand } from '../src/control-socket.ts';
import { childrenOf, until } from './processes.ts';
import { freePort, type ServerProcess, startServer } from './server-process.ts';
import { dbKind } from './test-database.ts';

const METRICS_TOKEN = 'fronts-test-metrics-token-0123456789abcdef';

/** Writes `bytes` on one connection (then half-closes it when asked) and reads until the server closes it. */
function exchange(port: number, bytes: string | Buffer, { halfClose = false } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no close in 10 s')));
    socket.write(bytes, () => {
      if (halfClose) socket.end();
    });
  });
}

/** The status lines of the answers in a raw exchange, in order (each follows the last body without a break). */
const statuses = (raw: string) => [...raw.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

describe.skipIf(dbKind === 'postgres')(
  'front processes beside the embedded database (WEB_CONCURRENCY=2)',
  () => {
    let dataDir: string;
    let server: ServerProcess | undefined;
    let port: number;
    let base: string;

    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'yueman-fronts-'));
      port = await freePort();
      server = await startServer(
        port,
        { DATA_DIR: dataDir, WEB_CONCURRENCY: '2', REGISTER_PER_HOUR: '10000', METRICS_TOKEN },
        { built: true },
      );
      base = server.base;
    }, 120_000);
    afterAll(async () => {
      if (server) for (const pid of childrenOf(server.pid)) process.kill(pid, 'SIGKILL');
      server?.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    });

    it('answers kept static calls from the fronts with the owner’s bytes, 304 to their ETag', async () => {
      expect(childrenOf(server?.pid as number)).toHaveLength(2);
      const url = `${base}/api/book/detail/3`;
      const headers = { 'accept-encoding': 'gzip, deflate, br' };
      const answers = [];
      for (let i = 0; i < 6; i++) {
        const res = await fetch(url, { headers: { ...headers, connection: i % 2 ? 'keep-alive' : 'close' } });
        answers.push({
          status: res.status,
          etag: res.headers.get('etag'),
          body: Buffer.from(await res.arrayBuffer()),
        });
      }
      for (const a of answers) {
        expect(a.status).toBe(200);
        expect(a.etag).toBe(answers[0]?.etag);
        expect(a.body.equals(answers[0]?.body as Buffer)).toBe(true);
      }
      const revalidated = await fetch(url, {
        headers: { ...headers, 'if-none-match': answers[0]?.etag as string },
      });
      expect(revalidated.status).toBe(304);
    });

    it('hands a connection over mid-way without losing a byte: pipelined kept calls, then a POST with a body', async () => {
      const kept = 'GET /api/book/home/index HTTP/1.1\r\nHost: x\r\n\r\n';
      const body = 'feedback=x';
      const post = `POST /api/user/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
      const last = 'GET /api/book/home/index HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
      // Warm the fronts' copies first, so the first two are answered by a front and the POST is handed over.
      await fetch(`${base}/api/book/home/index`);
      const raw = await exchange(port, kept + kept + post + last);
      expect(statuses(raw)).toEqual([200, 200, 200, 200]);
      // The POST reached the owner whole: a new visitor account, as the spec's register answers it.
      expect(raw).toMatch(/"userId":\d+/);
    });

    it('answers a reader who half-closes after asking, through the owner', async () => {
      const raw = await exchange(port, 'GET /api/user/info HTTP/1.1\r\nHost: x\r\n\r\n', { halfClose: true });
      // Not signed in: the envelope's 401, answered in full although the reader closed its side.
      expect(statuses(raw)).toEqual([401]);
      expect(raw).toContain('"code":401');
    });

    it('keeps a visitor’s session across new connections, whichever front takes them', async () => {
      const register = await fetch(`${base}/api/user/register`, { method: 'POST' });
      const cookie = (register.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      for (let i = 0; i < 8; i++) {
        const info = await fetch(`${base}/api/user/info`, { headers: { cookie, connection: 'close' } });
        expect((await info.json()).result).toBe(true);
      }
    });

    it('sends a free page from the fronts and never a priced page without a grant', async () => {
      const read = (await (await fetch(`${base}/api/book/read_chapter?bookId=3&number=1`)).json()).data;
      const free = `${base}/${read.bookPics[0]}_500_0.img`;
      const first = await fetch(free);
      const firstBody = Buffer.from(await first.arrayBuffer());
      expect(first.status).toBe(200);
      for (let i = 0; i < 4; i++) {
        const again = await fetch(free, { headers: { connection: 'close' } });
        expect(again.status).toBe(200);
        expect(again.headers.get('content-type')).toBe('image/webp');
        expect(Buffer.from(await again.arrayBuffer()).equals(firstBody)).toBe(true);
      }
      // Chapter 5 of book 3 is priced in the demo library (its catalogue says so).
      const detail = (await (await fetch(`${base}/api/book/detail/3`)).json()).data;
      const priced = detail.chapterList.find((c: { number: number; price: number }) => c.number === 5);
      expect(priced.price).toBeGreaterThan(0);
      const pricedPage = `${base}/${read.bookPics[0].replace('/3/1/', '/3/5/')}_500_0.img`;
      for (let i = 0; i < 3; i++) expect((await fetch(pricedPage)).status).toBe(403);
    });

    it('counts what the fronts answered in /metrics', async () => {
      await until('front answers reported', async () => {
        const text = await (
          await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
        ).text();
        const row =
          /yueman_http_requests_total\{method="GET",route="\(kept image\)",status_code="200"\} (\d+)/.exec(
            text,
          );
        return row && Number(row[1]) >= 3 ? true : undefined;
      });
    });

    it('drops the fronts’ copies at once when an operator changes the catalogue', async () => {
      const detail = async () =>
        (await (await fetch(`${base}/api/book/detail/3`, { headers: { connection: 'close' } })).json()).data
          .book;
      for (let i = 0; i < 4; i++) await detail(); // copies in both fronts now
      const added = await sendControlCommand(dataDir, 'operator.add', { name: 'editor1', role: 'editor' });
      if (!added.ok) throw new Error(added.error);
      const { password } = added.result as { password: string };
      const origin = `http://localhost:${port}`;
      const login = await fetch(`${base}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ name: 'editor1', password }),
      });
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
      const book = (await (await fetch(`${base}/api/admin/books/3`, { headers: { cookie } })).json()).data;
      const saved = await fetch(`${base}/api/admin/books/3`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin, cookie },
        body: JSON.stringify({ version: book.version, title: '改过的书名' }),
      });
      expect(saved.status, await saved.clone().text()).toBe(200);
      // New connections land on either front: each answers the new title straight away.
      for (let i = 0; i < 6; i++) expect((await detail()).title).toBe('改过的书名');
    });

    it('replaces a front that dies, and drains everything on SIGTERM', async () => {
      const pid = server?.pid as number;
      const fronts = childrenOf(pid);
      process.kill(fronts[0] as number, 'SIGKILL');
      await until('a new front', () => {
        const found = childrenOf(pid);
        return found.length === 2 && !found.includes(fronts[0] as number) ? true : undefined;
      });
      for (let i = 0; i < 6; i++) {
        expect(
          (await fetch(`${base}/api/book/home/index`, { headers: { connection: 'close' } })).status,
        ).toBe(200);
      }
      server?.kill('SIGTERM');
      expect(await server?.exited, server?.output()).toBe(0);
      expect(childrenOf(pid)).toEqual([]);
    });
  },
);
