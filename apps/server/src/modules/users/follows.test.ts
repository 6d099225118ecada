// Following a series (追更) on the account: follows sync across devices of the account, count only released
// chapters (a scheduled one from its time on), say what is unread and what is new since the shelf was looked at,
// and answer which 攒更 piles are reached; the release calendar shows the week's scheduled and weekly books.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { consoleOperators } from '../../../test/console-kit.ts';
import { createTestApp, sessionCookie, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { login, manyVisitorsEnv, registerVisitor } from '../../../test/visitors.ts';
import { books, chapters, follows } from '../../db/schema/index.ts';
import { releaseCalendar } from '../catalog/calendar.service.ts';
import { createCatalogRepository } from '../catalog/catalog.repository.ts';
import { createFollowsRepository } from './follows.repository.ts';
import { pilesReached } from './follows.service.ts';

describeDb('following a series', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof consoleOperators>>['admin'];
  beforeAll(async () => {
    t = await createTestApp({ env: manyVisitorsEnv });
    ({ admin } = await consoleOperators(t, ['editor']));
  });
  afterAll(() => t?.close());

  type Who = { cookie: string };
  /** The changes one call each, in order (as the web app sends them); answers the last call's response. */
  const save = async (who: Who, changes: object[]) => {
    let res: Awaited<ReturnType<typeof t.app.inject>> | undefined;
    for (const change of changes)
      res = await t.app.inject({
        method: 'POST',
        url: '/api/user/follows',
        headers: { cookie: who.cookie },
        payload: change,
      });
    if (!res) throw new Error('no change');
    return res;
  };
  const followsOf = async (who: Who) =>
    (await t.app.inject({ url: '/api/user/follows', headers: { cookie: who.cookie } })).json().data;
  const readTo = (who: Who, bookId: number, chapterNumber: number) =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/reading_progress',
      headers: { cookie: who.cookie },
      payload: { bookId, chapterNumber, pageNumber: 1, pageOffset: 0, readAt: Date.now() },
    });
  const chaptersOf = async (bookId: number) =>
    (await admin('editor', 'GET', `/api/admin/books/${bookId}`)).json().data.chapters as {
      number: number;
    }[];
  /** Schedules a chapter (a time to come, or null: out now) through the console, as an editor does. */
  const schedule = async (bookId: number, number: number, publishAt: string | null) => {
    const res = await admin('editor', 'POST', `/api/admin/books/${bookId}/chapters/${number}`, { publishAt });
    expect(res.statusCode, res.body).toBe(200);
  };
  const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

  it('follows on the account, seen up to the newest released chapter; a release lights it, unread counts it', async () => {
    const reader = await registerVisitor(t);
    const bookId = 4;
    const numbers = (await chaptersOf(bookId)).map((c) => c.number);
    const last = Math.max(...numbers);
    // The newest chapter is scheduled: hidden, so not counted.
    await schedule(bookId, last, inAnHour());
    const saved = await save(reader, [{ bookId, followed: true }]);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject([
      { bookId, seenChapter: last - 1, latestChapter: last - 1, pileUp: 0, unread: null, book: { bookId } },
    ]);
    await readTo(reader, bookId, last - 2);
    expect(await followsOf(reader)).toMatchObject([{ latestChapter: last - 1, unread: 1 }]);
    // It comes out (the console lets it out now): newer than what was seen, and unread.
    await schedule(bookId, last, null);
    expect(await followsOf(reader)).toMatchObject([
      { seenChapter: last - 1, latestChapter: last, unread: 2 },
    ]);
    // The same follow sent again (a retry, a second device's pull) says nothing of what was seen: still new.
    await save(reader, [{ bookId, followed: true }]);
    expect(await followsOf(reader)).toMatchObject([{ seenChapter: last - 1, latestChapter: last }]);
    // The shelf looked at: seen; an older "seen" from another device does not take it back.
    await save(reader, [{ bookId, followed: true, seenChapter: last }]);
    await save(reader, [{ bookId, followed: true, seenChapter: 1 }]);
    expect(await followsOf(reader)).toMatchObject([{ seenChapter: last, unread: 2 }]);
    // Unfollowed: gone.
    expect((await save(reader, [{ bookId, followed: false }])).json().data).toEqual([]);
  });

  it('merges a device’s list into the account at login, the account’s other devices see it; no one else does', async () => {
    const reader = await registerVisitor(t);
    const stranger = await registerVisitor(t);
    await save(reader, [{ bookId: 1, followed: true }]);
    const other = { cookie: sessionCookie(await login(t, reader.account, reader.password)) };
    // The other device's own list (book 2, and book 1 again) merged in; a missing book is skipped.
    const merged = await save(other, [
      { bookId: 2, followed: true, seenChapter: 0, pileUp: 5 },
      { bookId: 1, followed: true },
      { bookId: 2147483647, followed: true },
    ]);
    expect(merged.statusCode, merged.body).toBe(200);
    expect((await followsOf(reader)).map((f: { bookId: number }) => f.bookId).sort()).toEqual([1, 2]);
    expect((await followsOf(reader)).find((f: { bookId: number }) => f.bookId === 2)).toMatchObject({
      pileUp: 5,
      seenChapter: 0,
    });
    expect(await followsOf(stranger)).toEqual([]);
    // Two taps at once: one follow.
    await Promise.all([
      save(stranger, [{ bookId: 3, followed: true }]),
      save(stranger, [{ bookId: 3, followed: true }]),
    ]);
    expect(await t.db.$count(follows, eq(follows.userId, stranger.userId))).toBe(1);
  });

  it('needs a session and refuses bad input, changing nothing', async () => {
    const reader = await registerVisitor(t);
    await save(reader, [{ bookId: 1, followed: true }]);
    const before = await followsOf(reader);
    expect((await t.app.inject({ url: '/api/user/follows' })).statusCode).toBe(401);
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/user/follows',
      headers: { cookie: reader.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'bookId=2&followed=true&pileUp=10',
    });
    expect(form.json().data).toMatchObject([{ bookId: 2, pileUp: 10 }, { bookId: 1 }]);
    await save(reader, [{ bookId: 2, followed: false }]);
    for (const bad of [
      [{}],
      [{ bookId: 1, followed: true, pileUp: 4 }],
      [{ bookId: 0, followed: true }],
      [{ bookId: 1 }],
      [{ bookId: 1, followed: true, seenChapter: -1 }],
    ]) {
      const res = await save(reader, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().result).toBe(false);
    }
    expect(await followsOf(reader)).toEqual(before);
  });

  it('answers the follows whose 攒更 is reached: counted from the setting and the reading, told once', async () => {
    const reader = await registerVisitor(t);
    const bookId = 5;
    const numbers = (await chaptersOf(bookId)).map((c) => c.number);
    const last = Math.max(...numbers);
    // The last three are scheduled, then the reader asks to be told once three have piled up.
    for (const n of [last - 2, last - 1, last]) await schedule(bookId, n, inAnHour());
    await save(reader, [{ bookId, followed: true, pileUp: 3 }]);
    const deps = { repo: createFollowsRepository(t.db) };
    const mine = async () => (await pilesReached(deps)).filter((p) => p.userId === reader.userId);
    expect(await mine()).toEqual([]);
    await schedule(bookId, last - 2, null);
    await schedule(bookId, last - 1, null);
    expect(await mine()).toEqual([]);
    await schedule(bookId, last, null);
    expect(await mine()).toEqual([
      { userId: reader.userId, bookId, pileUp: 3, newChapters: 3, latestChapter: last },
    ]);
    // Reading one of them leaves two: not a pile any more.
    await readTo(reader, bookId, last - 2);
    expect(await mine()).toEqual([]);
    await readTo(reader, bookId, last - 3);
    // Told: the next pile counts from there.
    await deps.repo.pileTold(reader.userId, bookId, last);
    expect(await mine()).toEqual([]);
    const [row] = await t.db
      .select()
      .from(follows)
      .where(and(eq(follows.userId, reader.userId), eq(follows.bookId, bookId)));
    expect(row?.pileToldChapter).toBe(last);
  });

  it('shows the week’s books by China day: scheduled chapters on their day, weekly books on their weekdays', async () => {
    const now = new Date('2030-01-07T15:59:00Z'); // Monday 23:59 in China
    const chapter = (await t.db.select().from(chapters).where(eq(chapters.bookId, 7))).at(-1);
    if (!chapter) throw new Error('book 7 has chapters');
    // Out Tuesday 00:30 China time (Monday 16:30 UTC): Tuesday's, not Monday's.
    await t.db
      .update(chapters)
      .set({ publishAt: new Date('2030-01-07T16:30:00Z') })
      .where(eq(chapters.id, chapter.id));
    await t.db
      .update(books)
      .set({ releaseDays: [1, 6], publishStatus: 'serialize' })
      .where(eq(books.id, 8));
    const days = await releaseCalendar({ repo: createCatalogRepository(t.db) }, now);
    expect(days.map((d) => [d.date, d.weekday])).toEqual([
      ['2030-01-07', 1],
      ['2030-01-08', 2],
      ['2030-01-09', 3],
      ['2030-01-10', 4],
      ['2030-01-11', 5],
      ['2030-01-12', 6],
      ['2030-01-13', 7],
    ]);
    const idsOn = (i: number) => days[i]?.books.map((b) => b.book.bookId);
    expect(idsOn(0)).toContain(8);
    expect(idsOn(0)).not.toContain(7);
    expect(days[1]?.books.find((b) => b.book.bookId === 7)?.chapters).toEqual([
      { number: chapter.number, title: chapter.title, publishAt: Date.parse('2030-01-07T16:30:00Z') },
    ]);
    expect(idsOn(5)).toContain(8);
    expect(idsOn(2)).not.toContain(8);
    // The call answers from today on.
    const res = await t.app.inject('/api/book/calendar');
    expect(res.json().data).toHaveLength(7);
    await t.db.update(chapters).set({ publishAt: null }).where(eq(chapters.id, chapter.id));
  });
});
