// Random sequences of top-ups, notifications (duplicated, reordered, late), chapter buys and VIP purchases,
// run through the real app on the real database and checked against a model of what each reader should have.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  applyWeb,
  notificationBody,
  postNotification,
} from '../../src/modules/payments/payments.test-support.ts';
import { expectLedgerInvariants } from '../ledger-invariants.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { describeDb } from '../test-database.ts';
import { manyVisitorsEnv, registerVisitor } from '../visitors.ts';
import { balanceOf, ownedChapterIds, type PricedChapter, pricedChapters } from './money-test-kit.ts';

// Demo packs (seed/demo-shop.ts) through wechat_h5, 9.5折: what the payer pays and what arrives.
const PACKS = [
  { payPurposeId: 1, payPurpose: 'coin', pay: 570, coins: 600, days: 0 },
  { payPurposeId: 2, payPurpose: 'coin', pay: 2850, coins: 3300, days: 0 },
  { payPurposeId: 5, payPurpose: 'vip', pay: 2850, coins: 0, days: 30 },
] as const;

type Action =
  | { kind: 'apply'; reader: number; pack: number }
  | { kind: 'notify'; order: number; times: number }
  | { kind: 'expire' }
  | { kind: 'buy'; reader: number; chapter: number; twice: boolean };

const action = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('apply' as const), reader: fc.nat(2), pack: fc.nat(2) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('notify' as const),
      order: fc.nat(20),
      times: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('expire' as const) }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('buy' as const),
      reader: fc.nat(2),
      chapter: fc.nat(11),
      twice: fc.boolean(),
    }),
  },
);

interface ModelReader {
  userId: number;
  cookie: string;
  coins: number;
  vip: boolean;
  owned: Set<number>;
}
interface ModelOrder {
  reader: ModelReader;
  orderNo: string;
  pack: (typeof PACKS)[number];
  tradeNo: string;
  paid: boolean;
}

describeDb('money against a model', () => {
  let t: TestApp;
  let chapters: PricedChapter[];

  beforeAll(async () => {
    t = await createTestApp({ env: manyVisitorsEnv });
    // Six priced chapters of VIP-free books and six of books that are not: VIP changes only the first kind.
    chapters = await pricedChapters(t.db, 6);
  });
  afterAll(() => t?.close());

  async function run(actions: Action[]) {
    const readers: ModelReader[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await registerVisitor(t);
      readers.push({ ...r, coins: 0, vip: false, owned: new Set() });
    }
    const orders: ModelOrder[] = [];
    for (const a of actions) {
      if (a.kind === 'apply') {
        const pack = PACKS[a.pack] as (typeof PACKS)[number];
        const reader = readers[a.reader] as ModelReader;
        const { order } = await applyWeb(t, reader.cookie, pack, pack.pay);
        // A second tap on the same pack while its order is open gets that order (one tap, one order): the model
        // keeps one order for both, so notifying either is the same payment.
        const same = orders.find((o) => o.orderNo === order.orderNo);
        orders.push(
          same ?? {
            reader,
            orderNo: order.orderNo,
            pack,
            tradeNo: `SB${order.id}T${orders.length}`,
            paid: false,
          },
        );
      } else if (a.kind === 'notify') {
        const order = orders[a.order % Math.max(orders.length, 1)];
        if (!order) continue;
        // The same payment notified `times` times at once: a gateway retrying while the first is in flight.
        const body = () =>
          notificationBody(t.config.sandboxPayKey, {
            orderNo: order.orderNo,
            amount: String(order.pack.pay),
            tradeNo: order.tradeNo,
          });
        const answers = await Promise.all(
          Array.from({ length: a.times }, () => postNotification(t, 'wechat_h5', body())),
        );
        for (const res of answers) expect(res.statusCode, res.body).toBe(200);
        if (!order.paid) {
          order.paid = true;
          order.reader.coins += order.pack.coins;
          if (order.pack.days > 0) order.reader.vip = true;
        }
      } else if (a.kind === 'expire') {
        // Every open order is now late: the sweeper expires it, and a payment after that still counts.
        await t.db.execute(
          sql`update pay_orders set expires_at = now() - interval '1 second' where status = 'created'`,
        );
        await t.app.ports.payments.expireStaleOrders(new Date());
      } else {
        const reader = readers[a.reader] as ModelReader;
        const chapter = chapters[a.chapter % chapters.length] as PricedChapter;
        const buy = () =>
          t.app.inject({
            method: 'POST',
            url: `/api/book/chapter/buy?chapterId=${chapter.chapterId}`,
            headers: { cookie: reader.cookie },
          });
        const answers = a.twice ? await Promise.all([buy(), buy()]) : [await buy()];
        const free = reader.vip && chapter.vipFree;
        const owned = reader.owned.has(chapter.chapterId);
        const affordable = reader.coins >= chapter.price;
        for (const res of answers) {
          const body = res.json();
          if (free || owned || affordable) expect(body, res.body).toMatchObject({ result: true, code: 200 });
          else expect(body, res.body).toMatchObject({ result: false, code: 999 });
        }
        if (!free && !owned && affordable) {
          reader.coins -= chapter.price;
          reader.owned.add(chapter.chapterId);
        }
      }
      for (const reader of readers) {
        expect(await balanceOf(t.db, reader.userId)).toBe(reader.coins);
        expect(await ownedChapterIds(t.db, reader.userId)).toEqual([...reader.owned].sort((x, y) => x - y));
      }
    }
    for (const reader of readers) {
      const info = (await t.app.inject({ url: '/api/user/info', headers: { cookie: reader.cookie } })).json();
      expect(info.data).toMatchObject({
        avaliableAmount: reader.coins,
        vipType: reader.vip ? 'vip' : 'none',
      });
    }
    await expectLedgerInvariants(t.db);
  }

  it('keeps every reader exactly where the model says, and the ledger balanced', async () => {
    await fc.assert(fc.asyncProperty(fc.array(action, { minLength: 5, maxLength: 30 }), run), {
      numRuns: 12,
      endOnFailure: true,
    });
  }, 240_000);
});
