import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor, type TestVisitor } from '../../../test/visitors.ts';
import { giveCoins, holdings, makeVip, newBook, nth, whileAccountLocked } from './wallet-test-kit.ts';

describeDb('buying a chapter', () => {
  let t: TestApp;
  const buy = (
    reader: TestVisitor | null,
    chapterId: number | string,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method: 'POST',
      url: `/api/book/chapter/buy?chapterId=${chapterId}`,
      headers: reader ? { cookie: reader.cookie, ...headers } : headers,
    });

  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: manyVisitorsEnv });
  });
  afterEach(async () => {
    await expectLedgerInvariants(t.db);
  });
  afterAll(() => t?.close());

  it('charges the price from the database once and answers the balance left', async () => {
    const { chapters } = await newBook(t.db, { prices: [0, 30] });
    const chapter = nth(chapters, 1);
    const reader = await registerVisitor(t);
    await giveCoins(t.db, reader.userId, 100);

    const res = await buy(reader, chapter.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      result: true,
      code: 200,
      msg: '购买成功',
      data: { chapterId: chapter.id, charged: 30, avaliableAmount: 70 },
    });
    expect(await holdings(t.db, reader.userId)).toEqual({ balance: 70, claims: 1, purchases: 1, spent: 30 });

    // Already owned: success, nothing charged.
    const again = (await buy(reader, chapter.id)).json();
    expect(again).toMatchObject({ result: true, code: 200, data: { charged: 0, avaliableAmount: 70 } });
    expect(await holdings(t.db, reader.userId)).toEqual({ balance: 70, claims: 1, purchases: 1, spent: 30 });
  });

  it('keeps nothing when the balance is short: code 999 with the price and the balance', async () => {
    const { chapters } = await newBook(t.db, { prices: [50] });
    const reader = await registerVisitor(t);
    await giveCoins(t.db, reader.userId, 49);

    const res = await buy(reader, nth(chapters).id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      result: false,
      code: 999,
      msg: '阅币不足，请先充值',
      data: { price: 50, avaliableAmount: 49 },
    });
    expect(await holdings(t.db, reader.userId)).toEqual({ balance: 49, claims: 0, purchases: 0, spent: 0 });

    // A reader who never had coins has no ledger account at all: the same answer.
    const penniless = await registerVisitor(t);
    expect((await buy(penniless, nth(chapters).id)).json()).toMatchObject({
      code: 999,
      data: { price: 50, avaliableAmount: 0 },
    });
    expect(await holdings(t.db, penniless.userId)).toEqual({ balance: 0, claims: 0, purchases: 0, spent: 0 });

    // Once there are coins the claim is free to be made: the short attempt left nothing behind.
    await giveCoins(t.db, reader.userId, 1);
    expect((await buy(reader, nth(chapters).id)).json().data).toMatchObject({
      charged: 50,
      avaliableAmount: 0,
    });
  });

  it('writes nothing for a free chapter', async () => {
    const { chapters } = await newBook(t.db, { prices: [0] });
    const reader = await registerVisitor(t);
    await giveCoins(t.db, reader.userId, 10);
    expect((await buy(reader, nth(chapters).id)).json()).toMatchObject({
      result: true,
      code: 200,
      data: { chapterId: nth(chapters).id, charged: 0, avaliableAmount: 10 },
    });
    expect(await holdings(t.db, reader.userId)).toEqual({ balance: 10, claims: 0, purchases: 0, spent: 0 });
  });

  it('charges a VIP nothing on a VIP-free book, and the price on a book that is not VIP-free', async () => {
    const free = await newBook(t.db, { prices: [40], vipFree: true });
    const notFree = await newBook(t.db, { prices: [40], vipFree: false });
    const vip = await registerVisitor(t);
    await makeVip(t.db, vip.userId);
    await giveCoins(t.db, vip.userId, 100);

    expect((await buy(vip, nth(free.chapters).id)).json()).toMatchObject({
      result: true,
      data: { charged: 0, avaliableAmount: 100 },
    });
    expect(await holdings(t.db, vip.userId)).toEqual({ balance: 100, claims: 0, purchases: 0, spent: 0 });

    expect((await buy(vip, nth(notFree.chapters).id)).json()).toMatchObject({
      result: true,
      data: { charged: 40, avaliableAmount: 60 },
    });
    expect(await holdings(t.db, vip.userId)).toEqual({ balance: 60, claims: 1, purchases: 1, spent: 40 });
  });

  it('answers code 101 without a session, and spends nothing', async () => {
    const { chapters } = await newBook(t.db, { prices: [10] });
    const res = await buy(null, nth(chapters).id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ result: false, code: 101, msg: '信息获取失败，请返回稍后重试', data: null });
    const unknownSession = await buy(
      { userId: 0, account: '', password: '', cookie: 'sid=not-a-session' },
      nth(chapters).id,
    );
    expect(unknownSession.json().code).toBe(101);
  });

  it('refuses a forged x-user-id with 403 before anything is read or spent', async () => {
    const { chapters } = await newBook(t.db, { prices: [10] });
    const victim = await registerVisitor(t);
    const reader = await registerVisitor(t);
    await giveCoins(t.db, victim.userId, 100);
    await giveCoins(t.db, reader.userId, 100);

    const forged: Record<string, string>[] = [
      { 'x-user-id': String(victim.userId) },
      { 'x-account': victim.account },
    ];
    for (const headers of forged) {
      const res = await buy(reader, nth(chapters).id, headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ result: false, code: 403, data: null });
    }
    for (const who of [victim, reader]) {
      expect(await holdings(t.db, who.userId)).toEqual({ balance: 100, claims: 0, purchases: 0, spent: 0 });
    }
    // Headers that agree with the session are fine.
    const agreed = await buy(reader, nth(chapters).id, {
      'x-user-id': String(reader.userId),
      'x-account': reader.account,
    });
    expect(agreed.json().data).toMatchObject({ charged: 10, avaliableAmount: 90 });
  });

  it('refuses a malformed chapterId with 400 in Chinese, and an unknown chapter with 404', async () => {
    const reader = await registerVisitor(t);
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) {
      const res = await buy(reader, bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual({ result: false, code: 400, msg: '参数 chapterId 不正确', data: null });
    }
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/book/chapter/buy',
      headers: { cookie: reader.cookie },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().msg).toBe('缺少参数 chapterId');

    const unknown = await buy(reader, 2_000_000_000);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ result: false, code: 404, data: null });
  });
});

describeDb('buying chapters concurrently', () => {
  let t: TestApp;
  const buy = (reader: TestVisitor, chapterId: number) =>
    t.app.inject({
      method: 'POST',
      url: `/api/book/chapter/buy?chapterId=${chapterId}`,
      headers: { cookie: reader.cookie },
    });

  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: manyVisitorsEnv });
  });
  afterEach(async () => {
    await expectLedgerInvariants(t.db);
  });
  afterAll(() => t?.close());

  it('charges once for 50 simultaneous buys of one chapter, and all 50 succeed', async () => {
    const { chapters } = await newBook(t.db, { prices: [25] });
    const reader = await registerVisitor(t);
    await giveCoins(t.db, reader.userId, 1000);

    const answers = (await Promise.all(Array.from({ length: 50 }, () => buy(reader, nth(chapters).id)))).map(
      (r) => r.json(),
    );
    expect(answers.every((a) => a.result === true && a.code === 200)).toBe(true);
    expect(answers.filter((a) => a.data.charged === 25)).toHaveLength(1);
    expect(answers.filter((a) => a.data.charged === 0)).toHaveLength(49);
    expect(answers.every((a) => a.data.avaliableAmount === 975)).toBe(true);
    expect(await holdings(t.db, reader.userId)).toEqual({ balance: 975, claims: 1, purchases: 1, spent: 25 });
  });

  it('answers success to all of 20 simultaneous buys of one chapter when the balance pays for it once', async () => {
    // The buys that read the database before the winner committed wait on its debit, then find the balance
    // it left short: they must answer 'already owned' (success, charged 0), not 999. On PostgreSQL the
    // reader's account is held until 8 buys wait for it, so at least 7 of them lose that way in every run.
    const price = 40;
    const { chapters } = await newBook(t.db, { prices: [price] });
    const reader = await registerVisitor(t);
    await giveCoins(t.db, reader.userId, price);

    const answers = (
      await whileAccountLocked(t.db, reader.userId, 8, () =>
        Promise.all(Array.from({ length: 20 }, () => buy(reader, nth(chapters).id))),
      )
    ).map((r) => r.json());
    expect(answers.filter((a) => a.code !== 200)).toEqual([]);
    expect(answers.filter((a) => a.data.charged === price)).toHaveLength(1);
    expect(answers.filter((a) => a.data.charged === 0)).toHaveLength(19);
    expect(answers.every((a) => a.data.avaliableAmount === 0)).toBe(true);
    expect(await holdings(t.db, reader.userId)).toEqual({
      balance: 0,
      claims: 1,
      purchases: 1,
      spent: price,
    });
  });

  it('charges exactly as many different chapters as the balance pays for; the rest answer 999', async () => {
    const price = 30;
    const chapterCount = 24;
    const balance = 7 * price + price - 1; // pays for 7, never for 8
    const paysFor = Math.floor(balance / price);
    const { bookId, chapters } = await newBook(t.db, { prices: Array(chapterCount).fill(price) });
    const reader = await registerVisitor(t);
    await giveCoins(t.db, reader.userId, balance);

    const answers = (await Promise.all(chapters.map((c) => buy(reader, c.id)))).map((r) => r.json());
    const bought = answers.filter((a) => a.code === 200);
    const short = answers.filter((a) => a.code === 999);
    expect(bought).toHaveLength(paysFor);
    expect(short).toHaveLength(chapterCount - paysFor);
    expect(bought.every((a) => a.data.charged === price && a.data.avaliableAmount >= 0)).toBe(true);
    expect(short.every((a) => a.msg === '阅币不足，请先充值' && a.data.price === price)).toBe(true);
    expect(short.every((a) => a.data.avaliableAmount >= 0 && a.data.avaliableAmount < price)).toBe(true);
    // Balances answered by the successful buys are each a different step down from the start.
    expect(new Set(bought.map((a) => a.data.avaliableAmount)).size).toBe(paysFor);

    const after = await holdings(t.db, reader.userId);
    expect(after).toEqual({
      balance: balance - paysFor * price,
      claims: paysFor,
      purchases: paysFor,
      spent: paysFor * price,
    });
    // Exactly the chapters that answered success are owned.
    const list = (
      await t.app.inject({
        method: 'POST',
        url: `/api/book/chapter/list?bookId=${bookId}`,
        headers: { cookie: reader.cookie },
      })
    ).json().data as { chapterId: number; alreadyBuy: boolean }[];
    const owned = list.filter((c) => c.alreadyBuy).map((c) => c.chapterId);
    expect(owned.sort()).toEqual(bought.map((a) => a.data.chapterId).sort());
  });
});
