// SIGKILL in the middle of a stream of chapter buys and payment notifications, then a restart on the same data:
// every buy answered with success is kept, nothing is credited twice, and the ledger still balances.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { notificationBody } from '../../src/modules/payments/payments.test-support.ts';
import { newDataDir } from '../data-dirs.ts';
import { expectLedgerInvariants } from '../ledger-invariants.ts';
import { type ServerProcess, startServer } from '../server-process.ts';
import { createTestDatabase, dbKind, describeDb, type TestDatabase } from '../test-database.ts';
import { ownedChapterIds, pricedChaptersOverHttp } from './money-test-kit.ts';

const payKey = randomBytes(32);
const READERS = 6;

describeDb('a server killed in the middle of buying and paying', () => {
  let dataDir: string;
  let pg: TestDatabase | undefined;
  let server: ServerProcess | undefined;
  const port = 20000 + Math.floor(Math.random() * 5000);

  beforeAll(async () => {
    dataDir = await newDataDir('crash', 'demo');
    if (dbKind === 'postgres') pg = await createTestDatabase({ demo: true });
  });
  afterAll(async () => {
    server?.kill('SIGKILL');
    await pg?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const env = () => ({
    DATA_DIR: dataDir,
    SANDBOX_PAY_KEY: payKey.toString('hex'),
    REGISTER_PER_HOUR: '10000',
    ...(pg?.url ? { DATABASE_URL: pg.url } : {}),
  });

  it('keeps every answered purchase, credits every order once, and balances', async () => {
    server = await startServer(port, env());
    const base = server.base;
    const readers: { cookie: string; userId: number; orders: { orderNo: string; amount: number }[] }[] = [];
    for (let i = 0; i < READERS; i++) {
      const res = await fetch(`${base}/api/user/register`, { method: 'POST' });
      const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const { data } = await res.json();
      const orders = [];
      // App-channel orders answer JSON with the order number (alipay_app: no discount, 600 coins for 6 yuan).
      for (let o = 0; o < 4; o++) {
        const apply = await fetch(
          `${base}/h5/pay/apply?appType=shell&payChannel=alipay_app&payPurpose=coin&payPurposeId=1&rechargerAmount=600`,
          { headers: { cookie } },
        );
        orders.push({ orderNo: (await apply.json()).data.orderNo as string, amount: 600 });
      }
      readers.push({ cookie, userId: data.userId, orders });
    }
    const notify = (order: { orderNo: string; amount: number }) =>
      fetch(`${base}/api/pay/notify/alipay_app`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: notificationBody(payKey, {
          orderNo: order.orderNo,
          amount: String(order.amount),
          tradeNo: `T${order.orderNo}`,
        }),
      });
    // Each reader starts with one paid order, so buys have coins to spend.
    for (const r of readers)
      expect((await notify(r.orders[0] as { orderNo: string; amount: number })).status).toBe(200);

    const chapters = await pricedChaptersOverHttp(base);
    const bought = new Map<number, Set<number>>();
    const acknowledged = new Set<string>();
    let answered = 0;
    // One stream per reader: its buys, interleaved with (duplicated) notifications of its other orders.
    const streams = readers.map(async (r) => {
      const mine = new Set<number>();
      bought.set(r.userId, mine);
      for (let i = 0; ; i++) {
        try {
          if (i % 5 === 4) {
            const order = r.orders[1 + (Math.floor(i / 5) % 3)] as { orderNo: string; amount: number };
            const [a, b] = await Promise.all([notify(order), notify(order)]);
            if (a.status === 200 || b.status === 200) acknowledged.add(order.orderNo);
          } else {
            const chapter = chapters[(i + r.userId) % chapters.length] as number;
            const res = await fetch(`${base}/api/book/chapter/buy?chapterId=${chapter}`, {
              method: 'POST',
              headers: { cookie: r.cookie },
            });
            const body = await res.json();
            if (body.result === true) mine.add(chapter);
          }
          answered++;
        } catch {
          return; // the server is gone: what was in flight has no answer, and no promise was made for it
        }
      }
    });
    // Kill it once the stream is well under way.
    let running = true;
    void Promise.all(streams).then(() => {
      running = false;
    });
    while (answered < 120 && running) await new Promise((r) => setTimeout(r, 20));
    server.kill('SIGKILL');
    await server.exited;
    await Promise.all(streams);
    expect(answered).toBeGreaterThanOrEqual(120);

    server = await startServer(port, env());
    // A gateway retries what it never saw acknowledged; again, nothing is credited twice.
    for (const r of readers) for (const order of r.orders.slice(0, 4)) await notify(order);
    for (const r of readers) {
      const list = await fetch(`${server.base}/api/user/info`, { headers: { cookie: r.cookie } });
      expect(list.status).toBe(200);
    }
    server.kill('SIGTERM');
    await server.exited;
    server = undefined;

    const { db, close } = pg?.url
      ? await openDatabase({ kind: 'postgres', url: pg.url })
      : await openDatabase({ kind: 'pglite', dataDir });
    try {
      for (const r of readers) {
        const owned = new Set(await ownedChapterIds(db, r.userId));
        for (const chapter of bought.get(r.userId) ?? []) expect(owned.has(chapter)).toBe(true);
      }
      await expectLedgerInvariants(db);
      // All four orders of every reader were notified after the restart: each is paid and credited once.
      const paid = await db.query.payOrders.findMany();
      expect(paid.every((o) => o.status === 'paid')).toBe(true);
      expect(acknowledged.size).toBeGreaterThan(0);
    } finally {
      await close();
    }
  }, 180_000);
});
