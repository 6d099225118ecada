import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor } from '../../../test/visitors.ts';
import { createLedgerRepository, type LedgerRepository } from './ledger.repository.ts';
import { giveCoins, holdings, newBook, nth, whileAccountLocked } from './wallet-test-kit.ts';

// The ledger's purchase called directly, without HTTP in between: the races hit the database closer together.
describeDb('the ledger purchase statement', () => {
  let t: TestApp;
  let ledger: LedgerRepository;

  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: manyVisitorsEnv });
    ledger = createLedgerRepository(t.db);
  });
  afterEach(async () => {
    await expectLedgerInvariants(t.db);
  });
  afterAll(() => t?.close());

  it('claims a chapter at price 0 without a transfer, once, even without a ledger account', async () => {
    const { chapters } = await newBook(t.db, { prices: [0] });
    const reader = await registerVisitor(t);
    const p = { userId: reader.userId, chapterId: nth(chapters).id, price: 0 };
    expect(await ledger.buyChapter(p)).toEqual({ outcome: 'bought', balance: 0 });
    expect(await ledger.buyChapter(p)).toEqual({ outcome: 'owned', balance: 0 });
    expect(await holdings(t.db, reader.userId)).toEqual({ balance: 0, claims: 1, purchases: 0, spent: 0 });
  });

  it('answers bought, owned and short with the balance, and writes nothing when short', async () => {
    const { chapters } = await newBook(t.db, { prices: [30, 30] });
    const reader = await registerVisitor(t);
    await giveCoins(t.db, reader.userId, 50);
    const buy = (i: number) =>
      ledger.buyChapter({ userId: reader.userId, chapterId: nth(chapters, i).id, price: 30 });
    expect(await buy(0)).toEqual({ outcome: 'bought', balance: 20 });
    expect(await buy(0)).toEqual({ outcome: 'owned', balance: 20 });
    expect(await buy(1)).toEqual({ outcome: 'short', balance: 20 });
    expect(await holdings(t.db, reader.userId)).toEqual({ balance: 20, claims: 1, purchases: 1, spent: 30 });
  });

  // On PostgreSQL the account is held until 8 buys wait for it, so they all read the database before the
  // winner's purchase. Balance for one purchase: at least 7 fail the balance re-check on the winner's row
  // and must still answer owned (the fresh ownership look). Balance for two: they pass it and collide on the
  // claim's key (the unique-violation answer).
  for (const times of [1, 2]) {
    it(`charges once for 30 simultaneous buys of one chapter when the balance pays for it ${times}×`, async () => {
      const price = 25;
      const { chapters } = await newBook(t.db, { prices: [price] });
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, price * times);
      const p = { userId: reader.userId, chapterId: nth(chapters).id, price };
      const answers = await whileAccountLocked(t.db, reader.userId, 8, () =>
        Promise.all(Array.from({ length: 30 }, () => ledger.buyChapter(p))),
      );
      const left = price * (times - 1);
      expect(answers.filter((a) => a.outcome === 'bought')).toEqual([{ outcome: 'bought', balance: left }]);
      expect(answers.filter((a) => a.outcome === 'owned')).toHaveLength(29);
      expect(answers.every((a) => a.balance === left)).toBe(true);
      expect(await holdings(t.db, reader.userId)).toEqual({
        balance: left,
        claims: 1,
        purchases: 1,
        spent: price,
      });
    });
  }
});
