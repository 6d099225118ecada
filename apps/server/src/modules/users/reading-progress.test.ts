// Reading progress on the account: saved per book, last write wins by when the reader was there (not by arrival),
// readable from another device of the same account and by no one else.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, sessionCookie, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { login, manyVisitorsEnv, registerVisitor, type TestVisitor } from '../../../test/visitors.ts';

describeDb('reading progress on the account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: manyVisitorsEnv });
  });
  afterAll(() => t?.close());

  const save = (who: { cookie: string }, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/reading_progress',
      headers: { cookie: who.cookie },
      payload: body,
    });
  const progressOf = async (who: { cookie: string }, bookId?: number) =>
    (
      await t.app.inject({
        url: `/api/user/reading_progress${bookId ? `?bookId=${bookId}` : ''}`,
        headers: { cookie: who.cookie },
      })
    ).json().data;

  it('resumes on another device of the account, the later position winning whatever order writes arrive in', async () => {
    const reader = await registerVisitor(t);
    const now = Date.now();
    const at = (chapterNumber: number, pageNumber: number, readAt: number) => ({
      bookId: 1,
      chapterNumber,
      pageNumber,
      pageOffset: 0.25,
      readAt,
    });
    expect((await save(reader, at(3, 7, now - 1000))).json().data).toMatchObject(at(3, 7, now - 1000));
    // A phone back online with an older position: kept is the later one, and answered.
    const stale = await save(reader, at(1, 2, now - 60_000));
    expect(stale.json().data).toMatchObject({ chapterNumber: 3, pageNumber: 7 });
    // Another device of the same account (logged in there) reads it, and moves it on.
    const other = { cookie: sessionCookie(await login(t, reader.account, reader.password)) };
    expect(await progressOf(other, 1)).toEqual([at(3, 7, now - 1000)]);
    await save(other, at(4, 1, now));
    expect(await progressOf(reader, 1)).toMatchObject([{ chapterNumber: 4, pageNumber: 1 }]);
    await save(reader, { ...at(2, 1, now - 500), bookId: 2 });
    expect((await progressOf(reader)).map((p: { bookId: number }) => p.bookId)).toEqual([1, 2]);
  });

  it('never takes a time ahead of the server, so a fast clock cannot pin a position', async () => {
    const reader = await registerVisitor(t);
    const future = Date.now() + 86_400_000;
    const saved = (
      await save(reader, { bookId: 1, chapterNumber: 5, pageNumber: 1, pageOffset: 0, readAt: future })
    ).json().data;
    expect(saved.readAt).toBeLessThanOrEqual(Date.now());
    await new Promise((resolve) => setTimeout(resolve, 5));
    await save(reader, { bookId: 1, chapterNumber: 6, pageNumber: 1, pageOffset: 0, readAt: Date.now() });
    expect(await progressOf(reader, 1)).toMatchObject([{ chapterNumber: 6 }]);
  });

  it('is no one else’s, needs a session, and refuses bad input changing nothing', async () => {
    const reader: TestVisitor = await registerVisitor(t);
    const stranger = await registerVisitor(t);
    await save(reader, { bookId: 1, chapterNumber: 2, pageNumber: 3, pageOffset: 0.5, readAt: Date.now() });
    expect(await progressOf(stranger, 1)).toEqual([]);
    expect((await t.app.inject({ url: '/api/user/reading_progress' })).statusCode).toBe(401);
    for (const bad of [
      { bookId: 1, chapterNumber: 2, pageNumber: 3, pageOffset: 1.5, readAt: Date.now() },
      { bookId: 1, chapterNumber: 0, pageNumber: 3, pageOffset: 0, readAt: Date.now() },
      { bookId: 'x', chapterNumber: 2, pageNumber: 3, pageOffset: 0, readAt: Date.now() },
      { bookId: 1, chapterNumber: 2, pageNumber: 3, pageOffset: 0 },
    ]) {
      const res = await save(reader, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().result).toBe(false);
    }
    const missingBook = await save(reader, {
      bookId: 2147483647,
      chapterNumber: 1,
      pageNumber: 1,
      pageOffset: 0,
      readAt: Date.now(),
    });
    expect(missingBook.statusCode).toBe(404);
    expect(await progressOf(reader)).toMatchObject([
      { bookId: 1, chapterNumber: 2, pageNumber: 3, pageOffset: 0.5 },
    ]);
  });
});
