// The console's pictures: the ad carousel (upload, jump, window, order, delete) and a book's cover, each checked
// whole before it is stored, audited, seen by readers at once; refused roles and bad input change nothing.
import { asc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { png } from '../../../test/comic-files.ts';
import { auditedWrites, consoleOperators, uploadForm } from '../../../test/console-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { ads, auditLog, books } from '../../db/schema/index.ts';
import { decryptCover } from '../images/cover-crypto.ts';

describeDb('the console’s ads and covers', () => {
  let t: TestApp;
  let kit: Awaited<ReturnType<typeof consoleOperators>>;
  let picture: Buffer;

  beforeAll(async () => {
    t = await createTestApp({ staticCacheMs: 60_000 });
    kit = await consoleOperators(t, ['owner', 'editor', 'finance', 'support']);
    picture = await png(750, 300, '#c33');
  });
  afterAll(() => t?.close());

  const home = async () =>
    (await t.app.inject({ url: '/api/book/home/index' })).json().data.adList as {
      imgPath: string;
      jumpType: number;
      bizId: number;
      url: string;
    }[];
  const listed = async () =>
    (await kit.admin('support', 'GET', '/api/admin/ads')).json().data.ads as {
      id: number;
      imgPath: string;
    }[];
  const snapshot = async () => ({
    ads: await t.db.select().from(ads).orderBy(asc(ads.id)),
    books: await t.db.select().from(books).orderBy(asc(books.id)),
    audit: await auditedWrites(t.db),
  });

  it('adds an uploaded ad that readers see at once and the image host serves', async () => {
    const res = await kit.upload(
      'editor',
      '/api/admin/ads',
      uploadForm('image', 'banner.png', picture, { jumpType: '2', bizId: '3' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const ad = res.json().data.ad;
    expect(ad).toMatchObject({ jumpType: 2, bizId: 3, url: '', active: true, startsAt: null, endsAt: null });
    expect(ad.imgPath).toMatch(/^ads\/uploads\/[0-9a-f]{16}\.png$/);
    expect((await home()).at(-1)).toEqual({ jumpType: 2, bizId: 3, url: '', imgPath: ad.imgPath });
    const served = await t.app.inject({ url: `/${ad.imgPath}_500_0.img` });
    expect(served.statusCode).toBe(200);
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 500 });
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'ad.add'));
    expect(audit).toMatchObject({ actor: 'editor1', target: `ad:${ad.id}` });
  });

  it('edits an ad: its window hides it until its time, inactive hides it; bad targets are named', async () => {
    const ad = (await listed()).at(-1) as { id: number; imgPath: string };
    const later = new Date(Date.now() + 3600_000).toISOString();
    const edited = await kit.admin('owner', 'POST', `/api/admin/ads/${ad.id}`, { startsAt: later });
    expect(edited.json().data.ad.startsAt).toBe(later);
    expect((await home()).map((a) => a.imgPath)).not.toContain(ad.imgPath);
    await kit.admin('owner', 'POST', `/api/admin/ads/${ad.id}`, { startsAt: null, active: false });
    expect((await home()).map((a) => a.imgPath)).not.toContain(ad.imgPath);
    await kit.admin('owner', 'POST', `/api/admin/ads/${ad.id}`, {
      active: true,
      jumpType: -2,
      url: 'https://example.com/a',
    });
    expect((await home()).at(-1)).toMatchObject({ jumpType: -2, bizId: 0, url: 'https://example.com/a' });

    const before = await snapshot();
    const refusals = [
      [{ jumpType: 2, bizId: 999_999 }, 'bizId', '这本书不存在'],
      [{ jumpType: -1, url: 'javascript:alert(1)' }, 'url', '请填写以 http(s):// 或 / 开头的链接'],
      [{ startsAt: later, endsAt: new Date().toISOString() }, 'endsAt', '结束时间须晚于开始时间'],
      [{ jumpType: 7 }, 'jumpType', '表单字段 jumpType 不正确'],
    ] as const;
    for (const [body, field, msg] of refusals) {
      const res = await kit.admin('owner', 'POST', `/api/admin/ads/${ad.id}`, body);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ code: 400, msg, data: { field } });
    }
    const notImage = await kit.upload(
      'owner',
      '/api/admin/ads',
      uploadForm('image', 'x.png', Buffer.from('not a picture'), { jumpType: '3' }),
    );
    expect(notImage.json()).toMatchObject({ code: 400, data: { field: 'image' } });
    const truncated = await kit.upload(
      'owner',
      '/api/admin/ads',
      uploadForm('image', 'x.png', picture.subarray(0, 200), { jumpType: '3' }),
    );
    expect(truncated.json()).toMatchObject({ code: 400, data: { field: 'image' } });
    expect(await snapshot()).toEqual(before);
  });

  it('orders the carousel as given (every ad once) and deletes an ad', async () => {
    const ids = (await listed()).map((a) => a.id);
    const reversed = [...ids].reverse();
    const saved = await kit.admin('editor', 'POST', '/api/admin/ads/order', { ids: reversed });
    expect(saved.json().data.ads.map((a: { id: number }) => a.id)).toEqual(reversed);
    expect((await listed()).map((a) => a.id)).toEqual(reversed);
    const partial = await kit.admin('editor', 'POST', '/api/admin/ads/order', { ids: reversed.slice(1) });
    expect(partial.json()).toMatchObject({ code: 400, data: { field: 'ids' } });
    const gone = reversed[0] as number;
    expect((await kit.admin('editor', 'POST', `/api/admin/ads/${gone}/delete`)).statusCode).toBe(200);
    expect((await listed()).map((a) => a.id)).toEqual(reversed.slice(1));
    expect((await kit.admin('editor', 'POST', `/api/admin/ads/${gone}/delete`)).statusCode).toBe(404);
  });

  it('uploads a cover: readers get it encrypted at once, the console previews it plain', async () => {
    const opened = (await kit.admin('editor', 'GET', '/api/admin/books/3')).json().data;
    const res = await kit.upload(
      'editor',
      '/api/admin/books/3/cover',
      uploadForm('image', 'cover.png', await png(300, 400, '#3c3')),
    );
    expect(res.statusCode, res.body).toBe(200);
    const book = res.json().data.book;
    expect(book.cover).toMatch(/^covers\/uploads\/3\/[0-9a-f]{16}\.png$/);
    expect(book.version).not.toBe(opened.version);
    const detail = (await t.app.inject({ url: '/api/book/detail/3' })).json().data.book;
    expect(detail.cover).toBe(book.cover);
    const text = await t.app.inject({ url: `/${book.cover}_200_0.img` });
    const webp = decryptCover(text.body, t.config.coverKey);
    expect(await sharp(webp).metadata()).toMatchObject({ format: 'webp', width: 200 });
    const preview = await kit.admin(
      'support',
      'GET',
      `/api/admin/image?path=${encodeURIComponent(book.cover)}&w=200`,
    );
    expect(preview.headers['content-type']).toBe('image/webp');
    expect(preview.headers['cache-control']).toBe('private, max-age=300');
    expect(await sharp(preview.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 200 });
    // The uploaded picture itself (green), not some other stored one.
    const { dominant } = await sharp(preview.rawPayload).stats();
    expect(dominant.g).toBeGreaterThan(dominant.r + 100);
    const missing = await kit.admin('support', 'GET', '/api/admin/image?path=..%2Fetc%2Fpasswd&w=200');
    expect(missing.statusCode).toBe(404);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'book.cover'));
    expect(audit).toMatchObject({ actor: 'editor1', target: 'book:3', after: { cover: book.cover } });
  });

  it('refuses every picture write to finance and support, and to no session, changing nothing', async () => {
    const before = await snapshot();
    const id = (await listed())[0]?.id as number;
    for (const role of ['finance', 'support'] as const) {
      const writes = [
        kit.upload(role, '/api/admin/ads', uploadForm('image', 'a.png', picture, { jumpType: '3' })),
        kit.upload(role, '/api/admin/books/3/cover', uploadForm('image', 'c.png', picture)),
        kit.admin(role, 'POST', `/api/admin/ads/${id}`, { active: false }),
        kit.admin(role, 'POST', '/api/admin/ads/order', { ids: [id] }),
        kit.admin(role, 'POST', `/api/admin/ads/${id}/delete`),
      ];
      for (const res of await Promise.all(writes)) expect(res.statusCode, res.body).toBe(403);
    }
    const anonymous = await t.app.inject({ url: '/api/admin/ads' });
    expect(anonymous.statusCode).toBe(401);
    const preview = await t.app.inject({ url: '/api/admin/image?path=ads/demo/1.png&w=200' });
    expect(preview.statusCode).toBe(401);
    expect(await snapshot()).toEqual(before);
  });
});
