// The console's audit log, filtered on the server: by operator, by action (whole or its start), by object (its type,
// or type and id, a book's chapters under it) and by China dates; paged; bad filters refused naming the field.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { consoleOperators } from '../../../test/console-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { auditLog, operators } from '../../db/schema/index.ts';

type Admin = Awaited<ReturnType<typeof consoleOperators>>['admin'];

describeDb('the console’s audit log filters', () => {
  let t: TestApp;
  let admin: Admin;
  let ids: Record<string, number>;

  beforeAll(async () => {
    t = await createTestApp({ seed: false });
    ({ admin } = await consoleOperators(t, ['owner', 'editor', 'finance']));
    ids = Object.fromEntries(
      (await t.db.select({ id: operators.id, name: operators.name }).from(operators)).map((o) => [
        o.name,
        o.id,
      ]),
    );
    // 2026-03-01 23:30 and 2026-03-02 00:30 China time are either side of a China midnight (15:30 and 16:30 UTC).
    await t.db.insert(auditLog).values([
      {
        operatorId: ids.editor1,
        actor: 'editor1',
        action: 'book.edit',
        target: 'book:65',
        before: { title: '旧' },
        after: { title: '新' },
        at: new Date('2026-03-01T15:30:00Z'),
      },
      {
        operatorId: ids.editor1,
        actor: 'editor1',
        action: 'chapter.edit',
        target: 'chapter:65/3',
        at: new Date('2026-03-01T16:30:00Z'),
      },
      {
        operatorId: ids.finance1,
        actor: 'finance1',
        action: 'reader.coins.grant',
        target: 'user:7',
        at: new Date('2026-03-02T02:00:00Z'),
      },
      {
        operatorId: ids.editor1,
        actor: 'editor1',
        action: 'book.edit',
        target: 'book:651',
        at: new Date('2026-03-03T02:00:00Z'),
      },
      {
        operatorId: null,
        actor: 'cli',
        action: 'book.import',
        target: 'book:65',
        at: new Date('2026-03-03T03:00:00Z'),
      },
    ]);
  });
  afterAll(() => t?.close());

  /** The seeded entries a filter finds (the sign-ins of the test's operators aside), newest first. */
  async function found(query: string) {
    const res = await admin('owner', 'GET', `/api/admin/audit?size=100&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const list = (data.list as { action: string; target: string }[]).filter(
      (e) => e.action !== 'operator.login',
    );
    return list.map((e) => `${e.action} ${e.target}`);
  }

  it('filters by operator, action (whole or its start), object, and China dates, on the server', async () => {
    expect(await found(`operatorId=${ids.finance1}`)).toEqual(['reader.coins.grant user:7']);
    expect(await found('action=book.edit')).toEqual(['book.edit book:651', 'book.edit book:65']);
    expect(await found('action=reader')).toEqual(['reader.coins.grant user:7']);
    expect(await found('action=reader.coins')).toEqual(['reader.coins.grant user:7']);
    expect(await found('action=read')).toEqual([]); // a start of a code only up to a dot
    // Book 65: its own entries and its chapters', not book 651's.
    expect(await found('objectType=book&objectId=65')).toEqual([
      'book.import book:65',
      'chapter.edit chapter:65/3',
      'book.edit book:65',
    ]);
    expect(await found('objectType=user')).toEqual(['reader.coins.grant user:7']);
    expect(await found('objectType=book&objectId=6_')).toEqual([]); // wildcards are taken as themselves
    // China dates: 2026-03-01 ends at 16:00 UTC.
    expect(await found('from=2026-03-01&to=2026-03-01')).toEqual(['book.edit book:65']);
    expect(await found('from=2026-03-02&to=2026-03-02')).toEqual([
      'reader.coins.grant user:7',
      'chapter.edit chapter:65/3',
    ]);
    expect(await found(`from=2026-03-02&operatorId=${ids.editor1}&action=book`)).toEqual([
      'book.edit book:651',
    ]);
  });

  it('pages on the server, counting every match', async () => {
    const res = await admin('owner', 'GET', '/api/admin/audit?objectType=book&page=2&size=2');
    const data = res.json().data;
    expect(data).toMatchObject({ page: 2, size: 2, total: 3 });
    expect(data.list.map((e: { target: string }) => e.target)).toEqual(['book:65']);
  });

  it('refuses bad filters naming the field, and roles other than the owner', async () => {
    for (const [query, field] of [
      ['from=2026-02-30', 'from'],
      ['from=2026-03-02&to=2026-03-01', 'to'],
      ['objectId=65', 'objectType'],
      ['action=Book', 'action'],
      ['operatorId=x', 'operatorId'],
    ] as const) {
      const res = await admin('owner', 'GET', `/api/admin/audit?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ result: false, code: 400 });
      expect(res.json().data?.field ?? res.json().msg, query).toContain(field);
    }
    for (const role of ['editor', 'finance'] as const) {
      const res = await admin(role, 'GET', '/api/admin/audit?action=book');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ result: false, code: 403 });
    }
  });
});
