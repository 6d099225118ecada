import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, sessionCookie, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { branchSettings, contacts, reports } from '../../db/schema/index.ts';
import { rowsOf } from '../../shared/rows.ts';

describeDb('support calls', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('answers common info of a branch, falling back to the default branch', async () => {
    const fallback = (await t.app.inject({ url: '/api/common/info/v2/12345' })).json();
    const standard = (await t.app.inject({ url: '/api/common/info/v2/-2' })).json();
    expect(fallback.data).toEqual(standard.data);
    expect(standard.data.customerServiceQQ).not.toBe('');
    await t.db.insert(branchSettings).values({ branchId: 7, customerServiceQq: '10007' });
    expect((await t.app.inject({ url: '/api/common/info/v2/7' })).json().data.customerServiceQQ).toBe(
      '10007',
    );
  });

  it('stores a contact for the signed-in reader and refuses another user id', async () => {
    const reg = await t.app.inject({ method: 'POST', url: '/api/user/register' });
    const cookie = sessionCookie(reg);
    const userId = reg.json().data.userId;
    const ok = await t.app.inject({
      method: 'POST',
      url: `/api/user/submit_contact?userId=${userId}&visitorId=v-1234567&contactType=qq&contactPosition=123456`,
      headers: { cookie },
    });
    expect(ok.json().result).toBe(true);
    const [row] = await t.db.select().from(contacts).where(eq(contacts.id, ok.json().data.id));
    expect(row).toMatchObject({ userId, contactType: 'qq', contactPosition: '123456' });

    const forged = await t.app.inject({
      method: 'POST',
      url: `/api/user/submit_contact?userId=${userId + 1000}&contactType=qq&contactPosition=1`,
      headers: { cookie },
    });
    expect(forged.statusCode).toBe(403);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/user/submit_contact?contactType=phone&contactPosition=1',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('contactType');
    expect(await t.db.select().from(contacts)).toHaveLength(1);
  });

  it('stores a complaint from the report page', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/support/report',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-trace-id': 'visitor-report-1' },
      payload: 'reason=%E8%89%B2%E6%83%85%E4%BD%8E%E4%BF%97&content=%E7%AC%AC3%E8%AF%9D&pageUrl=%2Fbook%2F1',
    });
    expect(res.json().result).toBe(true);
    const [row] = await t.db.select().from(reports).where(eq(reports.id, res.json().data.id));
    expect(row).toMatchObject({
      reason: '色情低俗',
      content: '第3话',
      pageUrl: '/book/1',
      visitorId: 'visitor-report-1',
    });
    const empty = await t.app.inject({ method: 'POST', url: '/api/support/report', payload: {} });
    expect(empty.statusCode).toBe(400);
  });

  it('keeps the page a complaint from the reader names (举报此页), only when readers can see that page', async () => {
    const [chapter] = await t.db
      .execute(sql`select book_id, number, cardinality(pics) as pages from chapters
      where publish_at is null and cardinality(pics) >= 2 order by book_id, number limit 1`)
      .then((r) => rowsOf<{ book_id: number; number: number; pages: number }>(r));
    if (!chapter) throw new Error('the demo library has chapters with pages');
    const report = (fields: Record<string, string | number>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/support/report',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(
          Object.entries({ reason: '其他', ...fields }).map(([k, v]) => [k, String(v)]),
        ).toString(),
      });
    const page = { bookId: chapter.book_id, chapterNumber: chapter.number, pageNumber: chapter.pages };
    const res = await report(page);
    expect(res.json().result, res.body).toBe(true);
    const [row] = await t.db.select().from(reports).where(eq(reports.id, res.json().data.id));
    expect(row).toMatchObject(page);

    const before = (await t.db.select().from(reports)).length;
    for (const bad of [
      { ...page, pageNumber: chapter.pages + 1 },
      { ...page, chapterNumber: 99999 },
      { ...page, bookId: 2147483647 },
      { bookId: page.bookId, chapterNumber: page.chapterNumber },
    ]) {
      const refused = await report(bad);
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
      expect(refused.json()).toMatchObject({ result: false, data: { field: 'pageNumber' } });
    }
    expect(await t.db.select().from(reports)).toHaveLength(before);
  });

  it('serves the OpenAPI document of every call', async () => {
    const doc = (await t.app.inject({ url: '/api/docs' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const p of [
      '/api/book/home/index',
      '/api/book/read_chapter',
      '/api/user/register',
      '/api/common/info/v2/{branchId}',
    ]) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
  });

  it('answers /healthz', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
  });
});
