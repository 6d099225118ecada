// The China days a reader is seen on (reader_days), written as the session is resolved: one row per reader and day
// whatever the number of calls, a new row past China midnight however recent the last one, none for the reader app
// opened from the console. Through the real app where the clock is the real one, through the session functions
// with a given clock for the midnights.
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, sessionCookie, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { readerDays, users, visitMarks } from '../../db/schema/index.ts';
import { chinaDate, chinaDay } from '../../shared/china-time.ts';
import { createDashboardSummary } from '../payments/dashboard.summary.repository.ts';
import { issueSession, resolveSession } from './sessions.ts';
import { createUsersRepository } from './users.repository.ts';

/** An instant given in China time, 'YYYY-MM-DD HH:MM:SS'. */
const at = (china: string) => new Date(`${china.replace(' ', 'T')}+08:00`);

describeDb('the China days readers are seen on', () => {
  let t: TestApp;
  const register = (headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/user/register', headers });
  const info = (cookie: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/api/user/info', headers: { cookie, ...headers } });
  const daysOf = (userId: number) =>
    t.db
      .select({ day: readerDays.day, age: readerDays.age, branchId: readerDays.branchId })
      .from(readerDays)
      .where(eq(readerDays.userId, userId))
      .orderBy(asc(readerDays.day));
  /** A reader made at a given time, with a session issued then (as registering does). */
  const readerMadeAt = async (account: string, china: string, branchId = -2) => {
    const repo = createUsersRepository(t.db);
    const [row] = await t.db
      .insert(users)
      .values({ account, passwordHash: 'x', visitorId: account, branchId, createdAt: at(china) })
      .returning({ id: users.id });
    const id = row?.id as number;
    const { token } = await issueSession(repo, id, undefined, at(china));
    return { id, token, repo };
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('records the day a visitor registers as their first, with the branch, and one row however many calls', async () => {
    const res = await register({ 'x-branch-id': '4301' });
    expect(res.statusCode).toBe(200);
    const { userId } = res.json().data;
    const cookie = sessionCookie(res);
    const [before] = await t.db.select({ seen: users.lastSeenAt }).from(users).where(eq(users.id, userId));

    for (let i = 0; i < 100; i++) expect((await info(cookie)).statusCode).toBe(200);

    expect(await daysOf(userId)).toEqual([{ day: chinaDate(new Date()), age: 0, branchId: 4301 }]);
    // Not a write per call either: last-seen is kept to the hour.
    const [after] = await t.db.select({ seen: users.lastSeenAt }).from(users).where(eq(users.id, userId));
    expect(after?.seen).toEqual(before?.seen);
  });

  it('starts a new day at China midnight, two minutes after the last one, and counts days from the first', async () => {
    const { id, token, repo } = await readerMadeAt('ydmidnight1', '2025-05-01 23:58:00', 4302);
    expect((await resolveSession(repo, token, at('2025-05-01 23:59:00')))?.user.userId).toBe(id);
    expect(await daysOf(id)).toEqual([{ day: '2025-05-01', age: 0, branchId: 4302 }]);

    await resolveSession(repo, token, at('2025-05-02 00:01:00'));
    await resolveSession(repo, token, at('2025-05-02 00:30:00'));
    await resolveSession(repo, token, at('2025-05-02 23:59:59'));
    await resolveSession(repo, token, at('2025-05-08 00:00:00'));
    expect(await daysOf(id)).toEqual([
      { day: '2025-05-01', age: 0, branchId: 4302 },
      { day: '2025-05-02', age: 1, branchId: 4302 },
      { day: '2025-05-08', age: 7, branchId: 4302 },
    ]);
  });

  it('counts a reader made at 00:01 from that day, not from the UTC day before', async () => {
    const { id, token, repo } = await readerMadeAt('ydmidnight2', '2025-05-02 00:01:00');
    await resolveSession(repo, token, at('2025-05-02 23:59:00'));
    await resolveSession(repo, token, at('2025-05-03 00:01:00'));
    expect(await daysOf(id)).toEqual([
      { day: '2025-05-02', age: 0, branchId: -2 },
      { day: '2025-05-03', age: 1, branchId: -2 },
    ]);
  });

  it('does not count the reader app opened from the console (from=console): neither a new visitor nor a reader', async () => {
    // Staff's own browser, opened from a complaint's page link: its visitor has no first day.
    const staff = await register({ 'x-opened-from': 'console' });
    expect(staff.statusCode).toBe(200);
    const staffId = staff.json().data.userId;
    for (let i = 0; i < 3; i++) {
      expect((await info(sessionCookie(staff), { 'x-opened-from': 'console' })).statusCode).toBe(200);
    }
    expect(await daysOf(staffId)).toEqual([]);

    // Nor a new reader of the dashboard's day, nor a first visit of its funnel; a reader's own register and report are.
    const branch = { 'x-branch-id': '4399' };
    const staffOnBranch = await register({ ...branch, 'x-opened-from': 'console' });
    const visit = (traceId: string, headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/user_from_mark',
        headers: { ...branch, 'x-trace-id': traceId, cookie: sessionCookie(staffOnBranch), ...headers },
      });
    const staffVisit = await visit('a1b2c3d4e5f60718293a4b5c6d7e8f90', { 'x-opened-from': 'console' });
    expect(staffVisit.json()).toMatchObject({ result: true, data: { firstVisit: false } });
    const today = chinaDay(chinaDate(new Date()));
    const newReaders = async () =>
      (await createDashboardSummary(t.db).days(today?.from as Date, today?.to as Date, new Date()))
        .filter((d) => d.branchId === 4399)
        .reduce((n, d) => n + d.newReaders, 0);
    const visitsOnBranch = async () =>
      (await t.db.select().from(visitMarks).where(eq(visitMarks.branchId, 4399))).length;
    expect(await newReaders()).toBe(0);
    expect(await visitsOnBranch()).toBe(0);
    expect((await register(branch)).statusCode).toBe(200);
    expect((await visit('0f1e2d3c4b5a69788796a5b4c3d2e1f0', {})).json()).toMatchObject({
      data: { firstVisit: true },
    });
    expect(await newReaders()).toBe(1);
    expect(await visitsOnBranch()).toBe(1);

    // A reader's session on a later day, through a console-opened tab: nothing; the reader's own call: the day.
    const { id, token, repo } = await readerMadeAt('ydconsole1', '2025-05-01 10:00:00');
    await resolveSession(repo, token, at('2025-05-02 10:00:00'), false);
    expect(await daysOf(id)).toEqual([{ day: '2025-05-01', age: 0, branchId: -2 }]);
    await resolveSession(repo, token, at('2025-05-02 10:05:00'));
    expect((await daysOf(id)).map((d) => d.day)).toEqual(['2025-05-01', '2025-05-02']);
  });
});
