// The scale-out, proved on loopback (docs/scaling.md): three servers running the build `npm start` runs, behind
// nginx with the shipped site (deploy/nginx/yueman.conf.template: TLS, HTTP/2, its cache), on one PostgreSQL through
// pgbouncer and one S3 store. Nothing a reader does may depend on which server
// answers. `npm run test:cluster`; part of `npm test`.
import { connect } from 'node:http2';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { behindTransactionPooler } from '../../src/db/client.ts';
import { giveCoins, newBook } from '../../src/modules/wallet/wallet-test-kit.ts';
import { DEMO_FIRST_PAY } from '../../src/seed/demo-shop.ts';
import { rowsOf } from '../../src/shared/rows.ts';
import { expectLedgerInvariants } from '../ledger-invariants.ts';
import { type ClusterServer, counter, type Stack, startStack } from './stack.ts';

let stack: Stack;
let A: ClusterServer;
let B: ClusterServer;
let C: ClusterServer;

beforeAll(async () => {
  stack = await startStack(3, { PAY_SWEEP_SECONDS: '1', LOGIN_FAILURES_PER_ACCOUNT: '5' });
  [A, B, C] = stack.servers as [ClusterServer, ClusterServer, ClusterServer];
  behindTransactionPooler(stack.db);
}, 240_000);
afterAll(() => stack?.stop(), 60_000);

const rows = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await stack.db.execute(query));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

interface Reader {
  userId: number;
  account: string;
  password: string;
  cookie: string;
}

async function register(base: string): Promise<Reader> {
  const res = await fetch(`${base}/api/user/register`, { method: 'POST' });
  expect(res.status).toBe(200);
  const { userId, account, password } = (await res.json()).data;
  const sid = /sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  return { userId, account, password, cookie: `sid=${sid}` };
}

const call = (base: string, path: string, reader?: Reader, init: RequestInit = {}) =>
  fetch(`${base}${path}`, {
    ...init,
    redirect: 'manual',
    headers: { ...(reader ? { cookie: reader.cookie } : {}), ...(init.headers as Record<string, string>) },
  });

const coinsOf = async (base: string, reader: Reader) =>
  (await (await call(base, '/api/user/info', reader)).json()).data.avaliableAmount as number;

/** The demo pack of 600 coins through wechat_h5 (9.5折: 570 cents), applied for on `base`; the cashier's address. */
async function applyForCoins(base: string, reader: Reader, packId = 1, amount = 570) {
  const query = new URLSearchParams({
    rechargerAmount: String(amount),
    payPurposeId: String(packId),
    payChannel: 'wechat_h5',
    payPurpose: 'coin',
    appType: 'wap_browser',
  });
  // A navigation from our own pages, as the recharge centre makes it.
  const res = await call(base, `/h5/pay/apply?${query}`, reader, {
    headers: { 'sec-fetch-site': 'same-origin' },
  });
  expect(res.status, await res.clone().text()).toBe(302);
  return String(res.headers.get('location'));
}

describe('three servers behind nginx, one database through pgbouncer, one object store', () => {
  it('a reader registers on one server, pays and buys on a second, and reads the pages on the third', async () => {
    const reader = await register(A.base);
    const cashier = await applyForCoins(B.base, reader);
    // The cashier is on the public origin: the balancer, whichever server answers it.
    expect(cashier.startsWith(stack.balancer.base)).toBe(true);
    const confirmed = await fetch(`${cashier}/confirm`, { method: 'POST', redirect: 'manual' });
    expect(confirmed.status).toBe(302);
    // The sandbox's signed notification is delivered by whichever server runs the notifier: 600 coins, and the demo
    // library's first-recharge offer of 100 on a reader's first paid order.
    const credited = 600 + DEMO_FIRST_PAY.firstPayBonus;
    await until('the payment credited, seen on C', async () =>
      (await coinsOf(C.base, reader)) === credited ? true : undefined,
    );

    const [chapter] = await rows<{ id: number; bookId: number; number: number; price: number }>(sql`
      select c.id, c.book_id as "bookId", c.number, c.price from chapters c join books b on b.id = c.book_id
      where c.price between 1 and 600 and not b.vip_free order by c.id limit 1`);
    if (!chapter) throw new Error('the demo library has no priced chapter');
    const bought = await (
      await call(B.base, `/api/book/chapter/buy?chapterId=${chapter.id}`, reader, { method: 'POST' })
    ).json();
    expect(bought).toMatchObject({ result: true, code: 200, data: { charged: chapter.price } });

    const read = await (
      await call(C.base, `/api/book/read_chapter?bookId=${chapter.bookId}&number=${chapter.number}`, reader)
    ).json();
    expect(read.result).toBe(true);
    expect(read.data.bookPics.length).toBeGreaterThan(0);
    for (const pic of read.data.bookPics as string[]) {
      expect(pic.startsWith('g/')).toBe(true);
      const page = await fetch(`${C.base}/${pic}_500_0.img`);
      expect(page.status, pic).toBe(200);
      expect(page.headers.get('content-type')).toBe('image/webp');
    }
    expect(await coinsOf(A.base, reader)).toBe(credited - chapter.price);
  });

  it('nginx answers a list and a page image the second time from its cache, never a personal call or a refusal', async () => {
    const balancer = stack.balancer.base;
    const cacheStatus = async (path: string, reader?: Reader) => {
      const res = await call(balancer, path, reader);
      await res.arrayBuffer();
      return { status: res.status, cache: res.headers.get('x-cache-status') };
    };
    const list = '/api/book/query/all/0/2';
    expect(await cacheStatus(list)).toEqual({ status: 200, cache: 'MISS' });
    expect(await cacheStatus(list)).toEqual({ status: 200, cache: 'HIT' });

    const reader = await register(A.base);
    const [free] = await rows<{ pics: string[] }>(sql`
      select pics from chapters where price = 0 and array_length(pics, 1) > 0 order by id limit 1`);
    const page = `/${free?.pics[0]}_500_0.img`;
    expect(await cacheStatus(page)).toEqual({ status: 200, cache: 'MISS' });
    expect(await cacheStatus(page, reader)).toEqual({ status: 200, cache: 'HIT' });

    // Personal: the reader's account, twice; never kept, never answered by the cache.
    for (let i = 0; i < 2; i++) {
      const info = await cacheStatus('/api/user/info', reader);
      expect(info.status).toBe(200);
      expect(info.cache).toBeNull();
    }
    // A priced page without a grant is refused (403, no-store): never kept.
    const [priced] = await rows<{ pics: string[] }>(sql`
      select c.pics from chapters c join books b on b.id = c.book_id
      where c.price > 0 and not b.vip_free and array_length(c.pics, 1) > 0 order by c.id limit 1`);
    const refused = `/${priced?.pics[0]}_500_0.img`;
    for (let i = 0; i < 2; i++) expect(await cacheStatus(refused)).toEqual({ status: 403, cache: 'MISS' });
    // The console's calls are not cached either.
    expect((await cacheStatus('/api/admin/me')).cache).toBeNull();

    // nginx's own log says the same: the list and the page once from a server, once from the cache.
    const log = await stack.balancer.accessLog();
    const lines = (uri: string) =>
      log.filter((l) => l.endsWith(` GET ${uri}`)).map((l) => l.split(' ', 2).join(' '));
    expect(lines(list)).toEqual(['200 MISS', '200 HIT']);
    expect(lines(page)).toEqual(['200 MISS', '200 HIT']);
    expect(lines('/api/user/info')).toEqual(['200 -', '200 -']);
  });

  it('nginx speaks HTTP/2 over TLS, and its plain port only redirects there', async () => {
    const session = connect(stack.balancer.base);
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = session.request({ ':path': '/api/book/category' });
        req.on('response', (headers) => resolve(Number(headers[':status'])));
        req.on('error', reject);
        req.resume();
        req.end();
      });
      expect(status).toBe(200);
      expect(session.alpnProtocol).toBe('h2');
    } finally {
      session.close();
    }
    const plain = await fetch(`${stack.balancer.httpBase}/home`, { redirect: 'manual' });
    expect(plain.status).toBe(301);
    expect(plain.headers.get('location')).toBe(`https://127.0.0.1/home`);
  });

  it('a page resized on one server is served from the store by the others', async () => {
    const [chapter] = await rows<{ pics: string[] }>(sql`
      select pics from chapters where price = 0 and array_length(pics, 1) > 0 order by id desc limit 1`);
    const pic = chapter?.pics[0];
    if (!pic) throw new Error('no free page');
    const url = `/${pic}_1000_0.img`;
    const resizes = async (s: ClusterServer) => counter(s.base, 'yueman_image_resize_seconds_count');
    const before = await Promise.all(stack.servers.map(resizes));
    const first = await fetch(`${A.base}${url}`);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(await stack.s3.keys('variants/1000/')).toContain(`variants/1000/${pic}.webp`);
    for (const other of [B, C]) {
      const again = await fetch(`${other.base}${url}`);
      expect(again.status).toBe(200);
      expect(again.headers.get('etag')).toBe(etag);
      expect(
        Buffer.from(await again.arrayBuffer()).equals(
          Buffer.from(await (await fetch(`${A.base}${url}`)).arrayBuffer()),
        ),
      ).toBe(true);
    }
    const after = await Promise.all(stack.servers.map(resizes));
    expect(after.map((n, i) => n - (before[i] ?? 0))).toEqual([1, 0, 0]);
  });

  it('a login limit reached on one server holds on the others, and after a restart', async () => {
    const reader = await register(A.base);
    const wrong = (base: string) =>
      call(base, '/api/user/login', undefined, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ account: reader.account, password: 'not-the-password' }),
      });
    for (let i = 0; i < 5; i++) expect((await wrong(A.base)).status).toBe(200);
    expect((await wrong(B.base)).status).toBe(429);
    C.process.kill('SIGTERM');
    expect(await C.process.exited).toBe(0);
    await stack.start(C);
    expect((await wrong(C.base)).status).toBe(429);
  }, 60_000);

  it('a change made in the database reaches all three servers within the 60 s window', async () => {
    const [book] = await rows<{ id: number; title: string }>(
      sql`select id, title from books order by id limit 1`,
    );
    if (!book) throw new Error('no book');
    const titleOn = async (s: ClusterServer) =>
      (await (await fetch(`${s.base}/api/book/detail/${book.id}`)).json()).data.book.title as string;
    for (const s of stack.servers) expect(await titleOn(s)).toBe(book.title);
    const changed = `${book.title}（新版）`;
    await stack.db.execute(sql`update books set title = ${changed} where id = ${book.id}`);
    const started = Date.now();
    const seenAfter = await Promise.all(
      stack.servers.map(async (s) => {
        await until(
          `the new title on ${s.name}`,
          async () => ((await titleOn(s)) === changed ? true : undefined),
          60_000,
        );
        return Date.now() - started;
      }),
    );
    expect(Math.max(...seenAfter)).toBeLessThan(60_000);
  }, 90_000);

  it('a server killed during 1,000 buys through nginx loses no acknowledged buy and charges none twice', async () => {
    const readers = await Promise.all(Array.from({ length: 4 }, () => register(stack.balancer.base)));
    const { chapters } = await newBook(stack.db, {
      prices: Array.from({ length: 250 }, () => 1),
      vipFree: false,
    });
    for (const r of readers) await giveCoins(stack.db, r.userId, 250);
    const buys = readers.flatMap((reader) => chapters.map((chapter) => ({ reader, chapter })));
    const acknowledged: typeof buys = [];
    let done = 0;
    let killed = false;
    const worker = async () => {
      for (let next = buys.shift(); next; next = buys.shift()) {
        const res = await call(
          stack.balancer.base,
          `/api/book/chapter/buy?chapterId=${next.chapter.id}`,
          next.reader,
          {
            method: 'POST',
          },
        ).catch(() => undefined);
        const body = res?.status === 200 ? await res.json() : undefined;
        if (body?.result === true) acknowledged.push(next);
        if (++done === 300 && !killed) {
          killed = true;
          B.process.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(killed).toBe(true);
    expect(done).toBe(1000);
    // Most buys were answered: a POST that reached the killed server is not sent again by the balancer.
    expect(acknowledged.length).toBeGreaterThan(900);

    for (const reader of readers) {
      const owned = await rows<{ chapterId: number }>(
        sql`select chapter_id as "chapterId" from chapter_purchases where user_id = ${reader.userId}`,
      );
      const ownedIds = new Set(owned.map((o) => o.chapterId));
      for (const a of acknowledged.filter((x) => x.reader === reader))
        expect(ownedIds.has(a.chapter.id)).toBe(true);
      const [transfers] = await rows<{ n: number; distinct: number }>(sql`
        select count(*)::int as n, count(distinct chapter_id)::int as distinct from ledger_transfers
        where user_id = ${reader.userId} and kind = 'purchase'`);
      expect(transfers).toEqual({ n: ownedIds.size, distinct: ownedIds.size });
      expect(await coinsOf(A.base, reader)).toBe(250 - ownedIds.size);
    }
    await expectLedgerInvariants(stack.db);
    await B.process.exited;
    await stack.start(B);
  }, 180_000);

  it('the order sweeper expires each order exactly once, whichever server runs it', async () => {
    const orders: string[] = [];
    for (const s of stack.servers) {
      for (let i = 0; i < 3; i++) {
        const reader = await register(s.base);
        const cashier = await applyForCoins(s.base, reader);
        const [row] = await rows<{ orderNo: string }>(sql`
          select order_no as "orderNo" from sandbox_payments where trade_no = ${cashier.split('/').pop()}`);
        if (row) orders.push(row.orderNo);
      }
    }
    expect(orders).toHaveLength(9);
    const expiredBefore = (
      await Promise.all(stack.servers.map((s) => counter(s.base, 'yueman_pay_orders_expired_total')))
    ).reduce((a, b) => a + b, 0);
    await stack.db.execute(sql`
      update pay_orders set expires_at = now() - interval '1 second' where order_no in ${orders}`);
    await until('every order expired', async () => {
      const [open] = await rows<{ n: number }>(sql`
        select count(*)::int as n from pay_orders where order_no in ${orders} and status <> 'expired'`);
      return open?.n === 0 ? true : undefined;
    });
    const events = await rows<{ orderNo: string; n: number }>(sql`
      select o.order_no as "orderNo", count(e.id)::int as n from pay_orders o
      join pay_order_events e on e.order_id = o.id and e.to_status = 'expired'
      where o.order_no in ${orders} group by o.order_no`);
    expect(events).toHaveLength(9);
    for (const e of events) expect(e.n, e.orderNo).toBe(1);
    const expiredAfter = (
      await Promise.all(stack.servers.map((s) => counter(s.base, 'yueman_pay_orders_expired_total')))
    ).reduce((a, b) => a + b, 0);
    expect(expiredAfter - expiredBefore).toBe(9);
  }, 60_000);
});
