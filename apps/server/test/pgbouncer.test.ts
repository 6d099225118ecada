// Many servers on one PostgreSQL go through pgbouncer in transaction pooling mode (Debian's pgbouncer, 1.18 on
// Debian 12): a transaction, or a statement outside one, may land on any server connection, and named prepared
// statements do not follow. With DATABASE_POOLER=pgbouncer the purchase path (a named statement on PostgreSQL
// otherwise), the notification path, the limits and the background jobs' locks work through it.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenedDatabase, openDatabase } from '../src/db/client.ts';
import {
  applyWeb,
  balanceOf,
  demo,
  injectSend,
  orderByNo,
} from '../src/modules/payments/payments.test-support.ts';
import { giveCoins, holdings, newBook } from '../src/modules/wallet/wallet-test-kit.ts';
import { JOB_LOCK } from '../src/shared/background-loop.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { hasPgbouncer, type Pgbouncer, startPgbouncer } from './stack/pgbouncer.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { createTestDatabase, dbAvailable, dbKind, type TestDatabase } from './test-database.ts';
import { manyVisitorsEnv, registerVisitor, type TestVisitor } from './visitors.ts';

// CI installs pgbouncer (.ci/run); elsewhere without it this file is skipped.
if (dbKind === 'postgres' && !hasPgbouncer()) {
  if (process.env.CI) throw new Error('pgbouncer not found (Debian package pgbouncer): CI needs it');
  console.warn('pgbouncer not found: the tests through pgbouncer are skipped');
}

/** Dropping the database WITH (FORCE) ends connections pgbouncer still holds; the pool may see it (57P01, 08P01). */
const quietOnDrop = (err: Error) => {
  if (!['57P01', '08P01'].includes((err as { code?: string }).code ?? '')) console.error(err);
};

/** Few server connections for many clients, so that consecutive statements of one client move between them. */
const SERVER_CONNECTIONS = 2;

describe.skipIf(dbKind !== 'postgres' || !dbAvailable || !hasPgbouncer())(
  'through pgbouncer in transaction pooling mode',
  () => {
    let database: TestDatabase;
    let bouncer: Pgbouncer;
    let viaBouncer: OpenedDatabase;
    let t: TestApp;
    beforeAll(async () => {
      database = await createTestDatabase();
      bouncer = await startPgbouncer(database.url ?? '', SERVER_CONNECTIONS);
      // The migrations are checked through pgbouncer too (all applied already: a read and a transaction).
      viaBouncer = await openDatabase({ kind: 'postgres', url: bouncer.url, onPoolError: quietOnDrop });
      t = await createTestApp({
        db: viaBouncer.db,
        env: { ...manyVisitorsEnv, DATABASE_POOLER: 'pgbouncer' },
      });
    });
    afterAll(async () => {
      await t?.close();
      await viaBouncer?.close();
      await bouncer?.stop();
      await database?.close();
    });

    const buy = (reader: TestVisitor, chapterId: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/book/chapter/buy?chapterId=${chapterId}`,
        headers: { cookie: reader.cookie },
      });

    it('buys chapters, many at once, each charged once', async () => {
      const prices = [10, 20, 30, 40, 50, 60, 70, 80];
      const { chapters } = await newBook(t.db, { prices });
      const readers = await Promise.all([registerVisitor(t), registerVisitor(t), registerVisitor(t)]);
      for (const reader of readers) await giveCoins(t.db, reader.userId, 1000);

      for (let round = 0; round < 2; round++) {
        const answers = await Promise.all(
          readers.flatMap((reader) => chapters.map((chapter) => buy(reader, chapter.id))),
        );
        for (const res of answers) {
          expect(res.statusCode, res.body).toBe(200);
          expect(res.json(), res.body).toMatchObject({
            result: true,
            data: { charged: round === 0 ? expect.any(Number) : 0 },
          });
        }
      }
      const spent = prices.reduce((a, b) => a + b, 0);
      for (const reader of readers) {
        expect(await holdings(t.db, reader.userId)).toEqual({
          balance: 1000 - spent,
          claims: prices.length,
          purchases: prices.length,
          spent,
        });
      }
      await expectLedgerInvariants(t.db);
    });

    it('pays through the sandbox: apply, confirm, notification, credit', async () => {
      const readers = await Promise.all(Array.from({ length: 4 }, () => registerVisitor(t)));
      const orders = await Promise.all(
        readers.map((reader) => applyWeb(t, reader.cookie, demo.coin3000, 2850)),
      );
      for (const { cashierPath } of orders) {
        const confirm = await t.app.inject({ method: 'POST', url: `${cashierPath}/confirm` });
        expect(confirm.statusCode).toBe(302);
      }
      expect(await t.app.ports.sandbox.deliverDueNotifications(injectSend(t))).toMatchObject({
        delivered: orders.length,
        failed: 0,
      });
      for (const [i, { order }] of orders.entries()) {
        expect((await orderByNo(t.db, order.orderNo)).status).toBe('paid');
        expect(await balanceOf(t.db, readers[i]?.userId ?? 0)).toBe(3300);
      }
      await expectLedgerInvariants(t.db);
    });

    it('runs the background jobs under their transaction-level locks', async () => {
      for (const name of ['session-sweeper', 'pay-order-sweeper', 'limits-sweeper']) {
        expect(await t.app.jobs.runOnce(name), name).toEqual({ ran: true, more: false });
      }
      // Held elsewhere (another server, straight on PostgreSQL): the pass through pgbouncer skips.
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${JOB_LOCK}::int, hashtext('pay-order-sweeper'))`);
        expect(await t.app.jobs.runOnce('pay-order-sweeper')).toEqual({ ran: false, more: false });
      });
      expect(await t.app.jobs.runOnce('pay-order-sweeper')).toEqual({ ran: true, more: false });
    });

    it('needs the setting: without it the named statements of the purchase path fail there', async () => {
      // A handle of its own: the setting marks the handle it is given (db/client.ts, behindTransactionPooler).
      const handle = await openDatabase({ kind: 'postgres', url: bouncer.url, onPoolError: quietOnDrop });
      const plain = await createTestApp({ db: handle.db, env: manyVisitorsEnv, seed: false });
      try {
        const { chapters } = await newBook(plain.db, {
          prices: [5, 5, 5, 5, 5, 5, 5, 5],
          title: randomUUID(),
        });
        const reader = await registerVisitor(plain);
        await giveCoins(plain.db, reader.userId, 1000);
        const statuses: number[] = [];
        for (let round = 0; round < 5 && !statuses.includes(500); round++) {
          const answers = await Promise.all(
            chapters.map((chapter) =>
              plain.app.inject({
                method: 'POST',
                url: `/api/book/chapter/buy?chapterId=${chapter.id}`,
                headers: { cookie: reader.cookie },
              }),
            ),
          );
          statuses.push(...answers.map((res) => res.statusCode));
        }
        expect(statuses).toContain(500);
        await expectLedgerInvariants(plain.db);
      } finally {
        await plain.close();
        await handle.close();
      }
    });
  },
);
