// The dashboard's returning readers on a known month of reader days, written as the users module writes them (a
// first day at age 0, later days with their distance from it): day-1, day-7 and day-30 retention per promotion
// branch and in total, China midnights on both sides, days still to come, and readers in no cohort.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { consoleOperators } from '../../../test/console-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { branchSettings, readerDays, users } from '../../db/schema/index.ts';
import { chinaDate } from '../../shared/china-time.ts';
import { createDashboardRepository } from './dashboard.console.repository.ts';
import { dashboard } from './dashboard.console.service.ts';

type Admin = Awaited<ReturnType<typeof consoleOperators>>['admin'];

/** An instant given in China time, 'YYYY-MM-DD HH:MM:SS'. */
const at = (china: string) => new Date(`${china.replace(' ', 'T')}+08:00`);
const DAY_MS = 86_400_000;

describeDb('the dashboard’s returning readers', () => {
  let t: TestApp;
  let admin: Admin;

  beforeAll(async () => {
    t = await createTestApp();
    ({ admin } = await consoleOperators(t, ['owner', 'finance']));
    await t.db.insert(branchSettings).values({ branchId: 7101, name: '快手一号' }).onConflictDoNothing();

    /** A reader made at `made` (China time) and seen at each of `seen`: the rows the session's refresh writes. */
    const reader = async (
      account: string,
      branchId: number,
      made: string,
      seen: string[],
      firstDay = true,
    ) => {
      const [row] = await t.db
        .insert(users)
        .values({ account, passwordHash: 'x', visitorId: account, branchId, createdAt: at(made) })
        .returning({ id: users.id });
      const first = chinaDate(at(made));
      const days = new Set([...(firstDay ? [made] : []), ...seen].map((s) => chinaDate(at(s))));
      await t.db.insert(readerDays).values(
        [...days].map((day) => ({
          userId: row?.id as number,
          day,
          age: Math.round((Date.parse(day) - Date.parse(first)) / DAY_MS),
          branchId,
        })),
      );
    };
    // Branch 7101: seen on days 0, 1 and 7; made a minute before midnight and back a minute after it (day 1);
    // made a minute after midnight, back that evening (the same day) and the next morning (day 1).
    await reader('ydret1', 7101, '2025-05-01 10:00:00', ['2025-05-02 09:00:00', '2025-05-08 21:00:00']);
    await reader('ydret2', 7101, '2025-05-01 23:59:00', ['2025-05-02 00:01:00']);
    await reader('ydret3', 7101, '2025-05-02 00:01:00', ['2025-05-02 23:59:00', '2025-05-03 00:01:00']);
    // No branch: not back until day 30.
    await reader('ydret4', -2, '2025-05-01 08:00:00', ['2025-05-31 23:59:00']);
    // An account whose first day is not recorded (older than the record, or made by staff from the console): its
    // days 1 and 30 are in no cohort.
    await reader(
      'ydret5',
      7101,
      '2025-05-01 12:00:00',
      ['2025-05-02 12:00:00', '2025-05-31 12:00:00'],
      false,
    );
  });
  afterAll(() => t?.close());

  const retentionOf = async (query: string) => {
    const res = await admin('finance', 'GET', `/api/admin/dashboard?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.retention;
  };

  it('counts a reader seen on days 0, 1 and 7 on day 1 and day 7, not day 30, per branch and in total', async () => {
    // The 30 days 05-02 … 05-31: day 1 of the first days 05-01 … 05-30, day 7 of 04-25 … 05-24, day 30 of
    // 04-02 … 05-01.
    expect(await retentionOf('date=2025-05-31&days=30')).toEqual({
      branches: [
        {
          branchId: 7101,
          branchName: '快手一号',
          newReaders: 1,
          day1: { cohort: 3, returned: 3 },
          day7: { cohort: 3, returned: 1 },
          day30: { cohort: 2, returned: 0 },
        },
        {
          branchId: -2,
          branchName: '',
          newReaders: 0,
          day1: { cohort: 1, returned: 0 },
          day7: { cohort: 1, returned: 0 },
          day30: { cohort: 1, returned: 1 },
        },
      ],
      total: {
        newReaders: 1,
        day1: { cohort: 4, returned: 3 },
        day7: { cohort: 4, returned: 1 },
        day30: { cohort: 3, returned: 1 },
      },
    });
  });

  it('takes the day before China midnight as the first day and the minute after as day 1', async () => {
    // The day 05-02 alone: day 1 of the readers made on 05-01 (ydret2 at 23:59, back at 00:01), not of ydret3
    // (made 00:01 on 05-02, its day 1 is 05-03).
    const day = await retentionOf('date=2025-05-02&days=1');
    expect(day.total).toEqual({
      newReaders: 1,
      day1: { cohort: 3, returned: 2 },
      day7: { cohort: 0, returned: 0 },
      day30: { cohort: 0, returned: 0 },
    });
    const next = await retentionOf('date=2025-05-03&days=1');
    expect(next.total.day1).toEqual({ cohort: 1, returned: 1 });
  });

  it('counts only the days that have come: a day N after today has no cohort yet', async () => {
    // Asked on 05-02 at noon for the 7 days to 05-08: only 05-02 has come. ydret1's day 7 (05-08) is to come.
    const data = await dashboard(
      { repo: createDashboardRepository(t.db) },
      { date: '2025-05-08', days: 7, now: at('2025-05-02 12:00:00') },
    );
    expect(data.retention.total).toEqual({
      newReaders: 1,
      day1: { cohort: 3, returned: 2 },
      day7: { cohort: 0, returned: 0 },
      day30: { cohort: 0, returned: 0 },
    });
  });

  it('gives empty figures for a window with no readers', async () => {
    expect(await retentionOf('date=2024-01-10&days=7')).toEqual({
      branches: [],
      total: {
        newReaders: 0,
        day1: { cohort: 0, returned: 0 },
        day7: { cohort: 0, returned: 0 },
        day30: { cohort: 0, returned: 0 },
      },
    });
  });
});
