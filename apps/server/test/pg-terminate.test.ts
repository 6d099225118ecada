// PostgreSQL ends the server's connections (pg_terminate_backend every 2 s, as a restart or a failover does) while
// readers buy chapters and recharge: the process lives, a request whose connection was ended answers an error in
// the envelope, the next ones get new connections, every acknowledged buy and recharge is kept, and the ledger holds.
// PostgreSQL only: the embedded database has no connections to lose.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationBody } from '../src/modules/payments/payments.test-support.ts';
import { rowsOf } from '../src/shared/rows.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { ownedChapterIds, pricedChaptersOverHttp } from './money/money-test-kit.ts';
import { freePort, type ServerProcess, startServer } from './server-process.ts';
import { createTestDatabase, dbAvailable, dbKind, type TestDatabase } from './test-database.ts';

const payKey = randomBytes(32);
const READERS = 5;
const APP_NAME = 'yueman-terminated';

describe.skipIf(dbKind !== 'postgres' || !dbAvailable)('PostgreSQL ending the server’s connections', () => {
  let dataDir: string;
  let pgdb: TestDatabase;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'yueman-pgterm-'));
    pgdb = await createTestDatabase({ demo: true });
  });
  afterAll(async () => {
    server?.kill('SIGKILL');
    await pgdb?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps the process alive and every acknowledged buy and recharge under pg_terminate_backend', {
    timeout: 120_000,
  }, async () => {
    const url = new URL(pgdb.url as string);
    url.searchParams.set('application_name', APP_NAME);
    server = await startServer(await freePort(), {
      DATA_DIR: dataDir,
      DATABASE_URL: url.href,
      SANDBOX_PAY_KEY: payKey.toString('hex'),
      REGISTER_PER_HOUR: '10000',
    });
    const { base } = server;

    const recharge = async (cookie: string) => {
      const apply = await fetch(
        `${base}/h5/pay/apply?appType=shell&payChannel=alipay_app&payPurpose=coin&payPurposeId=2&rechargerAmount=3000`,
        { headers: { cookie } },
      );
      const body = await apply.json();
      if (!body.result) return { answer: body, orderNo: undefined };
      const orderNo = body.data.orderNo as string;
      const notified = await fetch(`${base}/api/pay/notify/alipay_app`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: notificationBody(payKey, { orderNo, amount: '3000', tradeNo: `T${orderNo}` }),
      });
      return { notified: notified.status === 200, orderNo };
    };

    const readers: { cookie: string; userId: number }[] = [];
    for (let i = 0; i < READERS; i++) {
      const res = await fetch(`${base}/api/user/register`, { method: 'POST' });
      const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      readers.push({ cookie, userId: (await res.json()).data.userId });
      expect((await recharge(cookie)).notified).toBe(true);
    }
    const chapters = await pricedChaptersOverHttp(base);

    // Every 2 s, end every connection the server holds, idle or in a transaction.
    const admin = new pg.Client({ connectionString: pgdb.url });
    admin.on('error', () => undefined);
    await admin.connect();
    let terminated = 0;
    let running = true;
    const killer = (async () => {
      while (running) {
        await new Promise((r) => setTimeout(r, 2000));
        if (!running) return;
        const { rows } = await admin.query(
          'select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = $1',
          [APP_NAME],
        );
        terminated += rows.filter((r) => r.ok).length;
      }
    })();

    const bought = new Map<number, Set<number>>();
    const paidOrders: string[] = [];
    let failedInEnvelope = 0;
    const notEnvelope: string[] = [];
    const until = Date.now() + 11_000;
    const streams = readers.map(async (r, n) => {
      const mine = new Set<number>();
      bought.set(r.userId, mine);
      for (let i = 0; Date.now() < until; i++) {
        if (i % 8 === 7) {
          const { notified, orderNo } = await recharge(r.cookie).catch((err) => {
            notEnvelope.push(`recharge: ${String(err)}`);
            return { notified: false, orderNo: undefined };
          });
          if (notified && orderNo) paidOrders.push(orderNo);
          continue;
        }
        const chapter = chapters[(i * READERS + n) % chapters.length] as number;
        try {
          const res = await fetch(`${base}/api/book/chapter/buy?chapterId=${chapter}`, {
            method: 'POST',
            headers: { cookie: r.cookie },
          });
          const body = await res.json();
          if (typeof body.result !== 'boolean') notEnvelope.push(`${res.status} ${JSON.stringify(body)}`);
          else if (res.status === 200 && body.result === true && body.data.charged > 0) mine.add(chapter);
          else if (res.status >= 500) failedInEnvelope++;
        } catch (err) {
          notEnvelope.push(`buy: ${String(err)}`);
        }
      }
    });
    await Promise.all(streams);
    running = false;
    await killer;
    await admin.end();

    expect(terminated, 'connections were ended under load').toBeGreaterThan(0);
    expect(notEnvelope, 'every request answered, in the envelope').toEqual([]);
    // The process lives and the next request gets a new connection (once the pool has seen the last ones end).
    await new Promise((r) => setTimeout(r, 300));
    const after = await fetch(`${base}/api/user/register`, { method: 'POST' });
    expect(after.status, server.output().slice(-3000)).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const output = server.output();
    const lostLines = output
      .split('\n')
      .filter((line) => line.includes('PostgreSQL connection lost'))
      .map((line) => JSON.parse(line) as { level: number });
    expect(lostLines.length, 'a lost connection is logged').toBeGreaterThan(0);
    expect(
      lostLines.every((l) => l.level === 40),
      'at warn, as JSON',
    ).toBe(true);
    server.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    server = undefined;
    console.log(
      `pg-terminate: ${terminated} connections ended, ${failedInEnvelope} buys failed in the envelope, ` +
        `${[...bought.values()].reduce((n, s) => n + s.size, 0)} bought, ${paidOrders.length} recharges`,
    );

    for (const r of readers) {
      const owned = new Set(await ownedChapterIds(pgdb.db, r.userId));
      for (const chapter of bought.get(r.userId) ?? []) expect(owned.has(chapter)).toBe(true);
    }
    if (paidOrders.length > 0) {
      const unpaid = rowsOf<{ order_no: string }>(
        await pgdb.db.execute(
          sql`select order_no from pay_orders where order_no in ${paidOrders} and status <> 'paid'`,
        ),
      );
      expect(unpaid, 'every acknowledged recharge is paid').toEqual([]);
    }
    await expectLedgerInvariants(pgdb.db);
  });
});
