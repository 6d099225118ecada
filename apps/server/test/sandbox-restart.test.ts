// Sandbox payments across restarts of the built server, as `npm start` runs it with the embedded database on a machine
// of several cores: one process, whatever WEB_CONCURRENCY says (the embedded database is one process's). A payment's
// notify address was fixed when its order was made: after a restart the notifications must still reach the server
// that runs now, and the ledger must hold. Three readers: one orders, the server restarts, then pays at the cashier it was given; one pays and
// the server stops before the sandbox sent the notification (the state a confirm leaves, written while the server is
// down); one pays and the server is killed at once (whether its notification left first is the race's).
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { createSandboxRepository } from '../src/modules/sandbox/sandbox.repository.ts';
import { newDataDir } from './data-dirs.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { childrenOf, until } from './processes.ts';
import { freePort, type ServerProcess, startServer } from './server-process.ts';
import { dbKind } from './test-database.ts';

interface Reader {
  cookie: string;
  userId: number;
  orderNo: string;
  /** The sandbox cashier the order's answer gave (its trade number is the last part). */
  payUrl: string;
}

describe.skipIf(dbKind === 'postgres')(
  'sandbox payments across restarts (embedded database, one process)',
  () => {
    let dataDir: string;
    let port: number;
    let server: ServerProcess | undefined;

    // WEB_CONCURRENCY as a machine of two cores defaults it: still one process, which forks no worker.
    const start = async () => {
      server = await startServer(
        port,
        { DATA_DIR: dataDir, REGISTER_PER_HOUR: '10000', WEB_CONCURRENCY: '2' },
        // A first start draws the demo library: slow on a busy machine.
        { readyMs: 240_000 },
      );
      expect(childrenOf(server.pid)).toHaveLength(0);
      return server.base;
    };
    const stop = async (signal: 'SIGTERM' | 'SIGKILL') => {
      const running = server;
      if (!running) return;
      running.kill(signal);
      await running.exited;
      server = undefined;
    };

    beforeAll(async () => {
      dataDir = await newDataDir('sandbox-restart', 'demo');
      port = await freePort();
    });
    afterAll(async () => {
      server?.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    });

    /** A new visitor who orders 600 coins through the app channel alipay_app (as the failure was first seen). */
    async function readerWithOrder(base: string): Promise<Reader> {
      const res = await fetch(`${base}/api/user/register`, { method: 'POST' });
      const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const { userId } = (await res.json()).data as { userId: number };
      const order = await fetch(
        `${base}/api/pay/pay?payChannel=alipay_app&payPurpose=coin&rechargerAmount=600&appType=shell`,
        { method: 'POST', headers: { cookie } },
      );
      const answer = await order.json();
      expect(answer, JSON.stringify(answer)).toMatchObject({ result: true });
      return { cookie, userId, orderNo: answer.data.orderNo, payUrl: answer.data.payUrl };
    }
    const tradeNoOf = (reader: Reader) => new URL(reader.payUrl).pathname.split('/').pop() ?? '';

    /** The payer's tap on 确认支付 at the cashier (PUBLIC_ORIGIN is localhost: the same port on 127.0.0.1). */
    async function confirm(reader: Reader) {
      const cashier = new URL(reader.payUrl).pathname;
      const res = await fetch(`${server?.base}${cashier}/confirm`, { method: 'POST', redirect: 'manual' });
      expect(res.status).toBe(302);
    }

    const balanceOf = async (base: string, reader: Reader) => {
      const res = await fetch(`${base}/api/user/recharge?appType=shell`, {
        headers: { cookie: reader.cookie },
      });
      return (await res.json()).data.availableAmount as number;
    };

    it('credits every payment once whichever server made the order and whenever it stopped', async () => {
      let base = await start();
      const afterRestart = await readerWithOrder(base);
      const stoppedBeforeNotifying = await readerWithOrder(base);
      const killed = await readerWithOrder(base);

      await stop('SIGTERM');
      // The payer confirmed, and the server stopped before the sandbox's notifier sent the notification: the
      // state the cashier's confirm leaves (sandbox.routes.ts), written while the server is down.
      const down = await openDatabase({ kind: 'pglite', dataDir });
      try {
        const confirmed = await createSandboxRepository(down.db).confirm(
          tradeNoOf(stoppedBeforeNotifying),
          new Date(),
        );
        expect(confirmed?.status).toBe('paid');
      } finally {
        await down.close();
      }

      base = await start();
      // Ordered before the restart, paid after it, at the cashier the order's answer gave.
      await confirm(afterRestart);
      for (const reader of [afterRestart, stoppedBeforeNotifying])
        await until(`reader ${reader.userId} credited`, async () =>
          (await balanceOf(base, reader)) === 600 ? true : undefined,
        );

      // Ordered two servers ago; paid, and the server killed the moment the cashier answered.
      await confirm(killed);
      await stop('SIGKILL');
      base = await start();
      await until(`reader ${killed.userId} credited`, async () =>
        (await balanceOf(base, killed)) === 600 ? true : undefined,
      );
      for (const reader of [afterRestart, stoppedBeforeNotifying])
        expect(await balanceOf(base, reader)).toBe(600);
      await stop('SIGTERM');

      const { db, close } = await openDatabase({ kind: 'pglite', dataDir });
      try {
        await expectLedgerInvariants(db);
        const orders = await db.query.payOrders.findMany();
        expect(orders.map((o) => o.status)).toEqual(['paid', 'paid', 'paid']);
        const transfers = await db.query.ledgerTransfers.findMany();
        // 600 coins, no bonus: one transfer per order.
        expect(transfers.filter((t) => t.orderId !== null)).toHaveLength(3);
        const owed = await db.query.sandboxPayments.findMany();
        expect(owed.every((p) => p.acknowledgedAt !== null)).toBe(true);
      } finally {
        await close();
      }
    }, 600_000);
  },
);
