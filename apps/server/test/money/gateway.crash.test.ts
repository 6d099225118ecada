// SIGKILL while Alipay's notifications land: the server dies between the gateway's word and our commit for some of
// them. After a restart the gateway sends again what it never saw acknowledged: every order is paid and credited
// exactly once, and the ledger balances. Alipay is its fake on loopback, signing as Alipay does.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { newDataDir } from '../data-dirs.ts';
import { expectLedgerInvariants } from '../ledger-invariants.ts';
import { startRealGateways } from '../real-gateways.ts';
import { type ServerProcess, startServer } from '../server-process.ts';
import { createTestDatabase, dbKind, describeDb, type TestDatabase } from '../test-database.ts';

// One order each: a second apply for the same pack within seconds is the same order (a double tap).
const READERS = 16;

describeDb('a server killed while Alipay notifies payments', () => {
  let dataDir: string;
  let pg: TestDatabase | undefined;
  let server: ServerProcess | undefined;
  let gateways: Awaited<ReturnType<typeof startRealGateways>>;
  const port = 25000 + Math.floor(Math.random() * 5000);

  beforeAll(async () => {
    dataDir = await newDataDir('gateway-crash', 'demo');
    if (dbKind === 'postgres') pg = await createTestDatabase({ demo: true });
    gateways = await startRealGateways();
  });
  afterAll(async () => {
    server?.kill('SIGKILL');
    await gateways?.close();
    await pg?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const env = () => ({
    DATA_DIR: dataDir,
    REGISTER_PER_HOUR: '10000',
    ...gateways.env,
    ...(pg?.url ? { DATABASE_URL: pg.url } : {}),
  });

  it('credits every order once after the restart, and balances', async () => {
    server = await startServer(port, env());
    const base = server.base;
    const orders: { orderNo: string; userId: number }[] = [];
    for (let i = 0; i < READERS; i++) {
      const res = await fetch(`${base}/api/user/register`, { method: 'POST' });
      const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const { data } = await res.json();
      // The app channel answers JSON with the order number and Alipay's pay URL (600 coins for 6 yuan).
      const apply = await fetch(
        `${base}/h5/pay/apply?appType=shell&payChannel=alipay_app&payPurpose=coin&payPurposeId=1&rechargerAmount=600`,
        { headers: { cookie } },
      );
      const answer = (await apply.json()).data;
      // The payer's app opens the pay URL: the trade exists at Alipay.
      expect((await fetch(answer.payUrl)).status).toBe(200);
      orders.push({ orderNo: answer.orderNo as string, userId: data.userId as number });
    }
    const { alipay } = gateways;
    // Every payer pays at once; the server is killed while the notifications are landing.
    for (const order of orders) alipay.pay(order.orderNo);
    const acknowledged = () => alipay.notifications().filter((n) => n.acknowledged).length;
    while (acknowledged() < orders.length / 3) await new Promise((r) => setTimeout(r, 2));
    server.kill('SIGKILL');
    await server.exited;
    await alipay.settled();
    const before = acknowledged();
    expect(before).toBeLessThan(orders.length);

    // Alipay keeps sending what it never saw acknowledged (here, at once, and everything twice for good measure).
    server = await startServer(port, env());
    const send = (orderNo: string) =>
      fetch(`${server?.base}/api/pay/notify/alipay`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: alipay.signNotification(alipay.notificationFields(orderNo)).body,
      }).then((r) => r.text());
    const answers = await Promise.all(orders.flatMap((o) => [send(o.orderNo), send(o.orderNo)]));
    expect(answers.every((a) => a === 'success')).toBe(true);
    server.kill('SIGTERM');
    await server.exited;
    server = undefined;

    const { db, close } = pg?.url
      ? await openDatabase({ kind: 'postgres', url: pg.url })
      : await openDatabase({ kind: 'pglite', dataDir });
    try {
      await expectLedgerInvariants(db);
      const paid = await db.query.payOrders.findMany();
      expect(paid).toHaveLength(orders.length);
      expect(paid.every((o) => o.status === 'paid' && o.gateway === 'alipay')).toBe(true);
      const transfers = await db.query.ledgerTransfers.findMany();
      // 600 coins, no bonus: one transfer per order, each order once.
      const byOrder = new Map<number, number>();
      for (const t of transfers) if (t.orderId) byOrder.set(t.orderId, (byOrder.get(t.orderId) ?? 0) + 1);
      expect([...byOrder.values()]).toEqual(Array(orders.length).fill(1));
    } finally {
      await close();
    }
  }, 180_000);
});
