// Kept static answers and kept page images, through a listening server: the second answer (from what is kept in
// memory) must equal the first (made then) in status, headers and bytes, protective headers included; each is an
// ordinary Fastify answer, so each is in the access log; and a kept page is never handed out where the paywall refuses.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { books, chapters } from '../src/db/schema/index.ts';
import { loggerOptions } from '../src/shared/logging.ts';
import { createTestApp, sessionCookie, type TestApp } from './test-app.ts';
import { describeDb } from './test-database.ts';

/** Headers that differ per answer whoever sends it. */
const PER_ANSWER = new Set(['date', 'connection', 'keep-alive']);
const headersOf = (res: Response) =>
  Object.fromEntries([...res.headers.entries()].filter(([name]) => !PER_ANSWER.has(name)));

/** The access log's lines: each request's url (its "incoming request" line) and status (its "request completed"). */
function accessLog() {
  const lines: { reqId?: string; msg?: string; req?: { url?: string }; res?: { statusCode?: number } }[] = [];
  const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
  /** The statuses answered to `url`, in order. */
  const answered = (url: string) => {
    const ids = lines.filter((l) => l.msg === 'incoming request' && l.req?.url === url).map((l) => l.reqId);
    return lines
      .filter((l) => l.msg === 'request completed' && ids.includes(l.reqId))
      .map((l) => l.res?.statusCode);
  };
  return { logger: { ...loggerOptions('info'), stream }, answered };
}

describeDb('kept answers', () => {
  let t: TestApp;
  let base: string;
  const log = accessLog();
  const get = (url: string, headers: Record<string, string> = {}) => fetch(`${base}${url}`, { headers });

  beforeAll(async () => {
    t = await createTestApp({
      staticCacheMs: 60_000,
      env: { REGISTER_PER_HOUR: '1000' },
      logger: log.logger,
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(() => t?.close());

  /** Two answers to the same request: the first through Fastify (which keeps it), the second from the kept copy. */
  async function twice(url: string, headers: Record<string, string> = {}) {
    const first = await get(url, headers);
    const firstBody = Buffer.from(await first.arrayBuffer());
    const second = await get(url, headers);
    const secondBody = Buffer.from(await second.arrayBuffer());
    return { first, firstBody, second, secondBody };
  }

  it('sends a kept static answer with the same status, headers and bytes as Fastify did', async () => {
    const { first, firstBody, second, secondBody } = await twice('/api/book/detail/6', {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(headersOf(second)).toEqual(headersOf(first));
    expect(second.headers.get('content-encoding')).toBe('br');
    expect(second.headers.get('x-content-type-options')).toBe('nosniff');
    expect(secondBody.equals(firstBody)).toBe(true);
    const revalidated = await get('/api/book/detail/6', {
      'if-none-match': second.headers.get('etag') ?? '',
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('x-content-type-options')).toBe('nosniff');
    // Every one of them in the access log, the kept ones as the first.
    expect(log.answered('/api/book/detail/6')).toEqual([200, 200, 304]);
  });

  it('sends a kept free page with the same status, headers and bytes, and 304 to its ETag', async () => {
    const read = (await (await get('/api/book/read_chapter?bookId=3&number=1')).json()).data;
    const url = `/${read.bookPics[1]}_200_0.img`;
    const { first, firstBody, second, secondBody } = await twice(url);
    expect(first.status).toBe(200);
    expect(headersOf(second)).toEqual(headersOf(first));
    expect(secondBody.equals(firstBody)).toBe(true);
    const etag = second.headers.get('etag') as string;
    const revalidated = await get(url, { 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('cache-control')).toBe(first.headers.get('cache-control'));
    expect(log.answered(url)).toEqual([200, 200, 304]);
  });

  it('never sends a kept priced page without a valid grant for that very page', async () => {
    const [chapter] = await t.db
      .select({ bookId: chapters.bookId, number: chapters.number, pics: chapters.pics })
      .from(chapters)
      .innerJoin(books, eq(books.id, chapters.bookId))
      .where(sql`${chapters.price} > 0 and ${books.vipFree}`)
      .limit(1);
    if (!chapter) throw new Error('the demo library has no priced chapter in a VIP-free book');
    const registered = await t.app.inject({ method: 'POST', url: '/api/user/register' });
    const userId = registered.json().data.userId;
    await t.db.execute(sql`update users set vip_end = now() + interval '30 days' where id = ${userId}`);
    const cookie = sessionCookie(registered);
    const read = (
      await (
        await get(`/api/book/read_chapter?bookId=${chapter.bookId}&number=${chapter.number}`, { cookie })
      ).json()
    ).data;
    const granted = `/${read.bookPics[0]}_500_0.img`;
    // Kept in memory now, and sent from there the second time.
    const { first, second, firstBody, secondBody } = await twice(granted);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    // A granted page may be kept no longer than its grant: max-age counts down, and may tick between the two.
    const { 'cache-control': firstCache, ...firstRest } = headersOf(first);
    const { 'cache-control': secondCache, ...secondRest } = headersOf(second);
    expect(secondRest).toEqual(firstRest);
    for (const cache of [firstCache, secondCache]) expect(cache).toMatch(/^public, max-age=\d+, immutable$/);
    expect(secondBody.equals(firstBody)).toBe(true);

    const plain = `/${chapter.pics[0]}_500_0.img`;
    const [, expiry, mac] = (read.bookPics[0] as string).split('/');
    const refused = [
      plain,
      // Another page of the chapter under this page's grant.
      granted.replace(chapter.pics[0] as string, chapter.pics[1] as string),
      // The grant altered: a later expiry, another signature.
      granted.replace(`/${expiry}/`, `/${Number(expiry) + 3600}/`),
      granted.replace(`/${mac}/`, `/${'A'.repeat(22)}/`),
      // Expired an hour ago (signed for that time it would still be refused: the signature is for the real one).
      granted.replace(`/${expiry}/`, `/${Number(expiry) - 7200}/`),
    ];
    for (const url of refused) {
      const res = await get(url, { cookie });
      expect(res.status, url).toBe(403);
      expect(res.headers.get('cache-control'), url).toBe('no-store');
    }
  });
});
