import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor, type TestVisitor } from '../../../test/visitors.ts';
import { giveCoins, makeVip, newBook, nth } from './wallet-test-kit.ts';

// What a purchase changes elsewhere: the reader, the catalogue's alreadyBuy and the balance in user info.
describeDb('coins and bought chapters across the app', () => {
  let t: TestApp;
  const as = (reader: TestVisitor) => ({ cookie: reader.cookie });
  const buy = (reader: TestVisitor, chapterId: number) =>
    t.app.inject({
      method: 'POST',
      url: `/api/book/chapter/buy?chapterId=${chapterId}`,
      headers: as(reader),
    });
  const read = (reader: TestVisitor, bookId: number, number: number) =>
    t.app.inject({ url: `/api/book/read_chapter?bookId=${bookId}&number=${number}`, headers: as(reader) });
  const list = async (reader: TestVisitor, bookId: number) =>
    (
      await t.app.inject({
        method: 'POST',
        url: `/api/book/chapter/list?bookId=${bookId}`,
        headers: as(reader),
      })
    ).json().data as { chapterId: number; alreadyBuy: boolean }[];
  const info = async (reader: TestVisitor) =>
    (await t.app.inject({ url: '/api/user/info', headers: as(reader) })).json().data;

  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: manyVisitorsEnv });
  });
  afterEach(async () => {
    await expectLedgerInvariants(t.db);
  });
  afterAll(() => t?.close());

  it('shows the balance in user info, before and after a purchase', async () => {
    const { chapters } = await newBook(t.db, { prices: [15] });
    const reader = await registerVisitor(t);
    expect((await info(reader)).avaliableAmount).toBe(0);
    await giveCoins(t.db, reader.userId, 80);
    await giveCoins(t.db, reader.userId, 20, 'bonus');
    expect((await info(reader)).avaliableAmount).toBe(100);
    await buy(reader, nth(chapters).id);
    expect((await info(reader)).avaliableAmount).toBe(85);
  });

  it('reads a chapter once it is bought, and only for the reader who bought it', async () => {
    const { bookId, chapters } = await newBook(t.db, { prices: [0, 20], vipFree: false });
    const reader = await registerVisitor(t);
    const other = await registerVisitor(t);
    await giveCoins(t.db, reader.userId, 20);

    const before = (await read(reader, bookId, 2)).json();
    expect(before).toMatchObject({ result: false, code: 999, data: { price: 20, bookPics: [] } });

    expect((await buy(reader, nth(chapters, 1).id)).json().data).toMatchObject({
      charged: 20,
      avaliableAmount: 0,
    });
    const after = (await read(reader, bookId, 2)).json();
    expect(after).toMatchObject({ result: true, code: 200, data: { number: 2, price: 20 } });
    // A priced chapter's pages come with a grant in front (images/page-grant.ts).
    expect(after.data.bookPics).toEqual([
      expect.stringMatching(new RegExp(`^g/\\d+/[A-Za-z0-9_-]{22}/pages/test-${bookId}-2\\.png$`)),
    ]);

    expect((await read(other, bookId, 2)).json().code).toBe(999);
  });

  it('marks alreadyBuy on the bought chapters only, for their reader only', async () => {
    const { bookId, chapters } = await newBook(t.db, { prices: [0, 10, 10, 10] });
    const reader = await registerVisitor(t);
    const other = await registerVisitor(t);
    await giveCoins(t.db, reader.userId, 100);
    await buy(reader, nth(chapters, 1).id);
    await buy(reader, nth(chapters, 3).id);
    // A free chapter "bought" writes nothing and is not marked.
    await buy(reader, nth(chapters, 0).id);

    const mine = await list(reader, bookId);
    expect(mine.map((c) => c.alreadyBuy)).toEqual([false, true, false, true]);
    expect((await list(other, bookId)).every((c) => !c.alreadyBuy)).toBe(true);
    const anonymous = (
      await t.app.inject({ method: 'POST', url: `/api/book/chapter/list?bookId=${bookId}` })
    ).json().data as { alreadyBuy: boolean }[];
    expect(anonymous.every((c) => !c.alreadyBuy)).toBe(true);
  });

  it('lets a VIP read a VIP-free book without buying, and writes nothing', async () => {
    const { bookId, chapters } = await newBook(t.db, { prices: [0, 35], vipFree: true });
    const vip = await registerVisitor(t);
    await makeVip(t.db, vip.userId);
    expect((await read(vip, bookId, 2)).json().result).toBe(true);
    expect((await buy(vip, nth(chapters, 1).id)).json().data).toMatchObject({
      charged: 0,
      avaliableAmount: 0,
    });
    expect((await list(vip, bookId)).every((c) => !c.alreadyBuy)).toBe(true);
  });
});
