// WeChat notices end to end against the WeChat fake on loopback (the official account's OAuth, token, JS-SDK ticket,
// notices and event pushes): binding a reader's WeChat, the signed wx.config, consents counted from WeChat's pushes
// only, the outbox sent once by two runners at once, a crash between WeChat's acceptance and our mark, 43101, other
// refusals retried, an unsubscribe, the daily limit at China midnight, the events found (wait for free, tickets),
// and the notice's link back into the chapter through the hand-off. Without the settings the feature hides itself.
import { and, desc, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type GatewayApp, gatewayAppPerFile } from '../../../test/real-gateways.ts';
import { createTestApp, sessionCookie, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { registerVisitor, type TestVisitor } from '../../../test/visitors.ts';
import {
  books,
  chapters,
  follows,
  noticeConsents,
  noticeOutbox,
  readingTickets,
  unlockWaitClocks,
} from '../../db/schema/index.ts';
import { createNoticesRepository } from './notices.repository.ts';
import { enqueueNotice, findEvents, type NoticesDeps, sendDue } from './notices.service.ts';
import { createWechatMp } from './wechat-mp.ts';

const TPL = {
  new_chapter: 'TplNewChapter0001',
  wait_free: 'TplWaitFree00001',
  ticket: 'TplTicketEnds001',
  saved_up: 'TplSavedUp000001',
};
const NOTICE_ENV = {
  WECHAT_NOTICE_TEMPLATES: `new_chapter=${TPL.new_chapter}, wait_free=${TPL.wait_free},ticket_expiring=${TPL.ticket},saved_up=${TPL.saved_up}`,
  WECHAT_PUSH_TOKEN: 'yuemanpush',
};
const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN';

describeDb('WeChat notices (the WeChat fake on loopback)', () => {
  const g = gatewayAppPerFile({ env: NOTICE_ENV });
  let t: TestApp;
  let fake: GatewayApp['gateways']['wechatPay'];
  let oa: GatewayApp['gateways']['wechatPay']['officialAccount'];
  let seq = 0;
  beforeAll(() => {
    t = g.t;
    fake = g.gateways.wechatPay;
    oa = fake.officialAccount;
    oa.registerTemplate(TPL.new_chapter);
    oa.registerTemplate(TPL.wait_free);
    oa.registerTemplate(TPL.ticket);
    oa.registerTemplate(TPL.saved_up);
    oa.setSiteOrigin(t.config.publicOrigin);
  });

  /** Direct calls of the service, on the app's database, at a clock the test sets. */
  function depsAt(now: Date, over: Partial<NoticesDeps> = {}): NoticesDeps {
    const settings = t.config.notices;
    if (!settings) throw new Error('notices not configured');
    return {
      settings,
      repo: createNoticesRepository(t.db),
      mp: createWechatMp({ ...settings, now: () => now }),
      publicOrigin: t.config.publicOrigin,
      log: t.app.log,
      now: () => now,
      ...over,
    };
  }

  const cookieOf = (res: { cookies: { name: string; value: string }[] }, name: string) =>
    res.cookies.find((c) => c.name === name)?.value ?? '';

  /** The browser goes to WeChat's OAuth and back (the fake answers as the WeChat signed in): our path and query. */
  async function throughOauth(location: string) {
    const res = await fetch(location, { redirect: 'manual' });
    const back = new URL(String(res.headers.get('location')));
    return `${back.pathname}${back.search}`;
  }

  /** A reader whose WeChat is bound to the account, through the OAuth round trip. */
  async function boundReader(): Promise<TestVisitor & { openid: string }> {
    const reader = await registerVisitor(t);
    const openid = `oNotice${reader.userId}x${seq++}`;
    fake.signInWechat(openid);
    const go = await t.app.inject({
      url: '/h5/wechat/bind?to=%2Fbook%2F1',
      headers: { cookie: reader.cookie, 'user-agent': WECHAT_UA },
    });
    expect(go.statusCode).toBe(302);
    const state = cookieOf(go, 'ymwx');
    const back = await t.app.inject({
      url: await throughOauth(String(go.headers.location)),
      headers: { cookie: `${reader.cookie}; ymwx=${state}`, 'user-agent': WECHAT_UA },
    });
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe(`${t.config.publicOrigin}/book/1`);
    return { ...reader, openid };
  }

  const push = (p: { query: string; body: string }) =>
    t.app.inject({
      method: 'POST',
      url: `/h5/wechat/push?${p.query}`,
      headers: { 'content-type': 'text/xml' },
      payload: p.body,
    });

  async function remaining(reader: TestVisitor) {
    const res = await t.app.inject({ url: '/api/notices/wechat', headers: { cookie: reader.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return Object.fromEntries(
      (res.json().data.templates as { kind: string; remaining: number }[]).map((x) => [x.kind, x.remaining]),
    );
  }

  /** The reader accepts `times` notices of the template in WeChat's popup: WeChat pushes each to us. */
  async function accept(reader: { openid: string }, templateId: string, times = 1) {
    for (let i = 0; i < times; i++)
      expect((await push(oa.popup(reader.openid, [{ templateId, status: 'accept' }]))).body).toBe('success');
  }

  const outboxOf = (userId: number) =>
    t.db.select().from(noticeOutbox).where(eq(noticeOutbox.userId, userId));
  const sentTo = (openid: string) => oa.sent().filter((s) => s.openid === openid);
  const newChapter = (userId: number, n: number, bookId = 1) => ({
    userId,
    kind: 'new_chapter' as const,
    eventKey: `new_chapter:${bookId}:${n}:${userId}`,
    bookId,
    chapterNumber: n,
    title: '测试漫画',
    text: `第${n}话已更新`,
  });

  it('binds the reader’s WeChat through the OAuth, and refuses a code from another browser’s trip', async () => {
    const reader = await boundReader();
    expect(await createNoticesRepository(t.db).openidOf(reader.userId)).toBe(reader.openid);
    expect(
      (await t.app.inject({ url: '/api/notices/wechat', headers: { cookie: reader.cookie } })).json().data,
    ).toMatchObject({ bound: true, bindUrl: '/h5/wechat/bind' });

    // Someone else's code (their trip, their state) in this reader's browser binds nothing.
    const victim = await registerVisitor(t);
    fake.signInWechat('oAttacker0001');
    const theirs = await t.app.inject({
      url: '/h5/wechat/bind?to=%2Fhome',
      headers: { cookie: victim.cookie },
    });
    const back = await throughOauth(String(theirs.headers.location));
    const res = await t.app.inject({ url: back, headers: { cookie: `${victim.cookie}; ymwx=another` } });
    expect(res.statusCode).toBe(302);
    expect(await createNoticesRepository(t.db).openidOf(victim.userId)).toBeUndefined();
  });

  it('signs wx.config for our own pages as WeChat checks it, keeping the token and ticket', async () => {
    const reader = await registerVisitor(t);
    const before = oa.calls();
    const sign = (url: string, cookie = reader.cookie) =>
      t.app.inject({
        method: 'POST',
        url: '/api/notices/wechat/config',
        headers: { cookie },
        payload: { url },
      });
    const page = `${t.config.publicOrigin}/book/1?from=share`;
    const res = await sign(`${page}#top`);
    expect(res.statusCode, res.body).toBe(200);
    const config = res.json().data;
    expect(config).toMatchObject({
      appId: g.gateways.env.WECHATPAY_APPID,
      openTagList: ['wx-open-subscribe'],
    });
    expect(oa.checkConfig(page, config)).toBe(true);
    expect(oa.checkConfig(`${t.config.publicOrigin}/book/2`, config)).toBe(false);
    expect((await sign(`${t.config.publicOrigin}/book/2`)).statusCode).toBe(200);
    expect(oa.calls().token - before.token).toBeLessThanOrEqual(1);
    expect(oa.calls().ticket - before.ticket).toBeLessThanOrEqual(1);

    for (const other of [
      'https://evil.example.com/book/1',
      `${t.config.publicOrigin}.evil.com/x`,
      'not a url',
    ]) {
      const refused = await sign(other);
      expect(refused.statusCode, other).toBe(400);
      expect(refused.json().msg).toBe('只能为本站页面签名');
    }
    expect((await sign(page, '')).statusCode).toBe(401);
  });

  it('counts consents from WeChat’s signed pushes only; the page’s report only shows them', async () => {
    const reader = await boundReader();
    expect(await remaining(reader)).toMatchObject({ new_chapter: 0, wait_free: 0, ticket_expiring: 0 });
    const told = await t.app.inject({
      method: 'POST',
      url: '/api/notices/wechat/subscribed',
      headers: { cookie: reader.cookie },
      payload: { accepted: TPL.new_chapter },
    });
    expect(told.json().data.templates[0]).toMatchObject({ kind: 'new_chapter', remaining: 0 });

    const first = oa.popup(reader.openid, [
      { templateId: TPL.new_chapter, status: 'accept' },
      { templateId: TPL.wait_free, status: 'reject' },
    ]);
    expect((await push(first)).body).toBe('success');
    // WeChat pushes again when we are slow: counted once.
    expect((await push(first)).body).toBe('success');
    await accept(reader, TPL.new_chapter);
    expect(await remaining(reader)).toMatchObject({ new_chapter: 2, wait_free: 0 });

    // A push not signed with our Token, or an old one replayed later, changes nothing.
    const forged = oa.popup(reader.openid, [{ templateId: TPL.new_chapter, status: 'accept' }]);
    const bad = await push({
      ...forged,
      query: forged.query.replace(/signature=[0-9a-f]{4}/, 'signature=0000'),
    });
    expect(bad.statusCode).toBe(403);
    const stale = new URLSearchParams(forged.query);
    stale.set('timestamp', String(Number(stale.get('timestamp')) - 3600));
    expect((await push({ ...forged, query: stale.toString() })).statusCode).toBe(403);
    expect(await remaining(reader)).toMatchObject({ new_chapter: 2 });

    // WeChat's own check of the address: echostr back only with our Token's signature.
    const check = new URLSearchParams(forged.query);
    check.set('echostr', 'hello123');
    expect((await t.app.inject({ url: `/h5/wechat/push?${check}` })).body).toBe('hello123');
    check.set('nonce', 'other');
    expect((await t.app.inject({ url: `/h5/wechat/push?${check}` })).statusCode).toBe(403);
  });

  it('sends a notice once whatever two runners do, its link back into the chapter with the hand-off', async () => {
    const reader = await boundReader();
    await accept(reader, TPL.new_chapter, 2);
    const deps = depsAt(new Date());
    const notice = newChapter(reader.userId, 7);
    expect(await enqueueNotice(deps, notice)).toBe(true);
    expect(await enqueueNotice(deps, notice)).toBe(false);

    await Promise.all([sendDue(depsAt(new Date())), sendDue(depsAt(new Date())), sendDue(deps)]);
    const sent = sentTo(reader.openid);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.templateId).toBe(TPL.new_chapter);
    expect(sent[0]?.data.thing2?.value).toBe('第7话已更新');
    expect(await outboxOf(reader.userId)).toMatchObject([{ status: 'sent', attempts: 1 }]);
    expect(await remaining(reader)).toMatchObject({ new_chapter: 1 });

    // The link, opened in WeChat's browser without the session: WeChat's OAuth says whose WeChat it is, the
    // hand-off signs this browser in to that account, landing in the chapter.
    const link = new URL(sent[0]?.page ?? '');
    expect(link.origin).toBe(t.config.publicOrigin);
    const open = await t.app.inject({
      url: `${link.pathname}${link.search}`,
      headers: { 'user-agent': WECHAT_UA },
    });
    expect(open.statusCode).toBe(302);
    fake.signInWechat(reader.openid);
    const back = await t.app.inject({
      url: await throughOauth(String(open.headers.location)),
      headers: { cookie: `ymwx=${cookieOf(open, 'ymwx')}`, 'user-agent': WECHAT_UA },
    });
    const handoff = new URL(String(back.headers.location));
    expect(handoff.pathname).toBe('/handoff');
    expect(handoff.searchParams.get('to')).toBe('/book/read/1/7');
    const redeemed = await t.app.inject({
      method: 'POST',
      url: '/api/user/handoff/redeem',
      payload: { token: handoff.searchParams.get('token') },
    });
    expect(redeemed.json().data.userId).toBe(reader.userId);
    expect(sessionCookie(redeemed)).toMatch(/^sid=/);
  });

  it('never sends again after a crash between WeChat’s acceptance and our mark (at most once)', async () => {
    const reader = await boundReader();
    await accept(reader, TPL.new_chapter, 2);
    const now = new Date();
    await enqueueNotice(depsAt(now), newChapter(reader.userId, 8));
    const repo = createNoticesRepository(t.db);
    const crashing = depsAt(now, {
      repo: {
        ...repo,
        markSent: () => Promise.reject(new Error('the server died')),
      },
    });
    await expect(sendDue(crashing)).rejects.toThrow('the server died');
    expect(sentTo(reader.openid)).toHaveLength(1);
    expect(await outboxOf(reader.userId)).toMatchObject([{ status: 'sending' }]);

    // Another server later: the claim is old and never marked; WeChat may have sent it, so it is not sent again.
    await sendDue(depsAt(new Date(now.getTime() + 5 * 60_000)));
    expect(await outboxOf(reader.userId)).toMatchObject([{ status: 'sending' }]);
    await sendDue(depsAt(new Date(now.getTime() + 11 * 60_000)));
    expect(await outboxOf(reader.userId)).toMatchObject([{ status: 'failed' }]);
    expect(sentTo(reader.openid)).toHaveLength(1);
  });

  it('ends the consent on 43101 without retrying, and retries other refusals with backoff', async () => {
    const reader = await boundReader();
    await accept(reader, TPL.new_chapter, 2);
    const now = new Date();
    await enqueueNotice(depsAt(now), newChapter(reader.userId, 9));
    oa.scriptSends(45009);
    await sendDue(depsAt(now));
    const [waiting] = await outboxOf(reader.userId);
    expect(waiting).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: expect.stringContaining('45009'),
    });
    expect(waiting?.dueAt.getTime()).toBe(now.getTime() + 60_000);
    expect(await remaining(reader)).toMatchObject({ new_chapter: 2 });
    // Not before its time; then sent.
    await sendDue(depsAt(new Date(now.getTime() + 30_000)));
    expect(sentTo(reader.openid)).toHaveLength(0);
    await sendDue(depsAt(new Date(now.getTime() + 61_000)));
    expect(sentTo(reader.openid)).toHaveLength(1);
    expect(await outboxOf(reader.userId)).toMatchObject([{ status: 'sent', attempts: 2 }]);

    // WeChat says the reader has no consent left (43101): our count goes to 0, nothing retried.
    await enqueueNotice(depsAt(now), newChapter(reader.userId, 10));
    oa.scriptSends(43101);
    await sendDue(depsAt(new Date(now.getTime() + 62_000)));
    expect(await remaining(reader)).toMatchObject({ new_chapter: 0 });
    const rows = await outboxOf(reader.userId);
    expect(rows.find((r) => r.chapterNumber === 10)).toMatchObject({ status: 'failed' });
    await sendDue(depsAt(new Date(now.getTime() + 3600_000)));
    expect(sentTo(reader.openid)).toHaveLength(1);
  });

  it('stops sending once the reader refuses the template in WeChat', async () => {
    const reader = await boundReader();
    await accept(reader, TPL.new_chapter, 3);
    expect((await push(oa.refuse(reader.openid, TPL.new_chapter))).body).toBe('success');
    expect(await remaining(reader)).toMatchObject({ new_chapter: 0 });
    await enqueueNotice(depsAt(new Date()), newChapter(reader.userId, 11));
    await sendDue(depsAt(new Date()));
    expect(sentTo(reader.openid)).toHaveLength(0);
    expect(await outboxOf(reader.userId)).toMatchObject([
      { status: 'dropped', lastError: 'no consent left' },
    ]);
  });

  it('sends at most NOTICES_PER_DAY a China day: the rest wait for China midnight', async () => {
    const reader = await boundReader();
    await accept(reader, TPL.new_chapter, 5);
    // 23:59 China time on 1 March is 15:59 UTC.
    const evening = new Date('2026-03-01T15:59:00Z');
    for (const n of [21, 22, 23, 24])
      await enqueueNotice(depsAt(evening), { ...newChapter(reader.userId, n) });
    await t.db.update(noticeOutbox).set({ dueAt: evening }).where(eq(noticeOutbox.userId, reader.userId));
    await sendDue(depsAt(evening));
    expect(sentTo(reader.openid)).toHaveLength(3);
    const [late] = (await outboxOf(reader.userId)).filter((r) => r.status === 'pending');
    expect(late?.dueAt.toISOString()).toBe('2026-03-01T16:00:00.000Z');
    await sendDue(depsAt(new Date('2026-03-01T15:59:59Z')));
    expect(sentTo(reader.openid)).toHaveLength(3);
    // 00:00 China time on 2 March: a new day, whatever UTC's date says.
    await sendDue(depsAt(new Date('2026-03-01T16:00:00Z')));
    expect(sentTo(reader.openid)).toHaveLength(4);
    expect(await remaining(reader)).toMatchObject({ new_chapter: 1 });
  });

  it('finds waits for free that ended and tickets about to end, for readers who allow them, once', async () => {
    const reader = await boundReader();
    const stranger = await registerVisitor(t);
    await accept(reader, TPL.wait_free);
    await accept(reader, TPL.ticket);
    const [book] = await t.db.select().from(books).limit(1);
    if (!book) throw new Error('no book');
    const now = new Date();
    await t.db.insert(unlockWaitClocks).values([
      { userId: reader.userId, bookId: book.id, readyAt: new Date(now.getTime() - 60_000) },
      { userId: stranger.userId, bookId: book.id, readyAt: new Date(now.getTime() - 60_000) },
    ]);
    await t.db.insert(readingTickets).values(
      [1, 2].map((n) => ({
        grantId: `notice-test:${reader.userId}:${n}`,
        userId: reader.userId,
        kind: 'read',
        source: 'grant',
        expiresAt: new Date(now.getTime() + n * 3600_000),
      })),
    );
    const deps = depsAt(now);
    await findEvents(deps);
    expect(await findEvents(deps)).toBe(0);
    expect((await outboxOf(stranger.userId)).length).toBe(0);
    await sendDue(deps);
    const sent = sentTo(reader.openid);
    expect(sent.map((s) => s.templateId).sort()).toEqual([TPL.ticket, TPL.wait_free].sort());
    const wait = sent.find((s) => s.templateId === TPL.wait_free);
    expect(decodeURIComponent(wait?.page ?? '')).toContain(`to=/book/read/${book.id}/1`);
    expect(wait?.data.thing1?.value).toBe([...book.title].slice(0, 20).join(''));
    const ticket = sent.find((s) => s.templateId === TPL.ticket);
    expect(ticket?.data.thing1?.value).toBe('2张阅读券即将过期');
    expect(decodeURIComponent(ticket?.page ?? '')).toContain('to=/user/tickets');
    const consents = await t.db.select().from(noticeConsents).where(eq(noticeConsents.userId, reader.userId));
    expect(consents.every((c) => c.remaining === 0)).toBe(true);
  });
  it('finds new chapters of followed books and 攒更 piles reached, for readers who allow them, once each', async () => {
    const reader = await boundReader();
    const stranger = await registerVisitor(t);
    await accept(reader, TPL.new_chapter);
    await accept(reader, TPL.saved_up);
    // Two demo books with their newest released chapter.
    const newest = await t.db
      .select({ bookId: chapters.bookId, number: chapters.number })
      .from(chapters)
      .where(isNull(chapters.publishAt))
      .orderBy(chapters.bookId, desc(chapters.number));
    const latest = new Map<number, number>();
    for (const c of newest) if (!latest.has(c.bookId)) latest.set(c.bookId, c.number);
    const long = [...latest].filter(([, n]) => n >= 4);
    const [released, releasedLatest] = long[0] ?? [];
    const [piled, piledLatest] = long[1] ?? [];
    if (!released || !piled || !releasedLatest || !piledLatest) throw new Error('demo books too short');
    await t.db.insert(follows).values([
      // Seen up to the chapter before the newest: the newest came out since.
      { userId: reader.userId, bookId: released, seenChapter: releasedLatest - 1 },
      // 攒更 3, told up to three chapters ago, nothing read: the pile is reached.
      {
        userId: reader.userId,
        bookId: piled,
        seenChapter: piledLatest - 3,
        pileUp: 3,
        pileToldChapter: piledLatest - 3,
      },
      { userId: stranger.userId, bookId: released, seenChapter: 0 },
    ]);
    const deps = depsAt(new Date(), {
      pileTold: async (userId, bookId, chapter) => {
        await t.db
          .update(follows)
          .set({ pileToldChapter: chapter })
          .where(and(eq(follows.userId, userId), eq(follows.bookId, bookId)));
      },
    });
    expect(await findEvents(deps)).toBe(2);
    expect(await findEvents(deps)).toBe(0);
    expect((await outboxOf(stranger.userId)).length).toBe(0);
    await sendDue(deps);
    const sent = sentTo(reader.openid);
    const fresh = sent.find((s) => s.templateId === TPL.new_chapter);
    expect(fresh?.data.thing2?.value).toBe(`第${releasedLatest}话已更新`);
    expect(decodeURIComponent(fresh?.page ?? '')).toContain(`to=/book/read/${released}/${releasedLatest}`);
    const pile = sent.find((s) => s.templateId === TPL.saved_up);
    expect(pile?.data.thing2?.value).toBe(`已攒3话，更新至第${piledLatest}话`);
    // The link opens the first chapter of the pile.
    expect(decodeURIComponent(pile?.page ?? '')).toContain(`to=/book/read/${piled}/${piledLatest - 2}`);
    const [told] = await t.db
      .select()
      .from(follows)
      .where(and(eq(follows.userId, reader.userId), eq(follows.bookId, piled)));
    expect(told?.pileToldChapter).toBe(piledLatest);
  });
});

describe('WeChat notices without their settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    return () => t.close();
  });

  it('hides itself: its calls say 更新提醒未开通, and no notices job runs', async () => {
    const reader = await registerVisitor(t);
    const res = await t.app.inject({ url: '/api/notices/wechat', headers: { cookie: reader.cookie } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ result: false, msg: '更新提醒未开通' });
    const config = await t.app.inject({
      method: 'POST',
      url: '/api/notices/wechat/config',
      headers: { cookie: reader.cookie },
      payload: { url: `${t.config.publicOrigin}/home` },
    });
    expect(config.statusCode).toBe(404);
    expect(t.app.jobs.names).not.toContain('wechat-notices');
    const bind = await t.app.inject({
      url: '/h5/wechat/bind?to=%2Fbook%2F1',
      headers: { cookie: reader.cookie },
    });
    expect(bind.headers.location).toBe(`${t.config.publicOrigin}/book/1`);
  });
});
