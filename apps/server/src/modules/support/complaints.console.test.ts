// The console's complaints inbox: states (新 / 处理中 / 已处理) with their handler, notes and replies, the reported page
// (book, chapter and page), for owners and customer service only; every write audited; two operators taking the same
// complaint: one has it, the other is told who.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditedWrites, consoleOperators, type Role } from '../../../test/console-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { auditLog, reportNotes, reports } from '../../db/schema/index.ts';
import { rowsOf } from '../../shared/rows.ts';

describeDb('the console’s complaints', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof consoleOperators>>['admin'];
  let page: { bookId: number; chapterNumber: number; pageNumber: number; title: string };

  beforeAll(async () => {
    t = await createTestApp();
    ({ admin } = await consoleOperators(t, ['owner', 'editor', 'finance', 'support']));
    const [chapter] = await t.db
      .execute(sql`select c.book_id, c.number, b.title from chapters c join books b on b.id = c.book_id
      where c.publish_at is null and cardinality(c.pics) >= 3 order by c.book_id, c.number limit 1`)
      .then((r) => rowsOf<{ book_id: number; number: number; title: string }>(r));
    if (!chapter) throw new Error('the demo library has chapters with pages');
    page = { bookId: chapter.book_id, chapterNumber: chapter.number, pageNumber: 3, title: chapter.title };
  });
  afterAll(() => t?.close());

  /** A reader's 举报此页 through the readers' call, as the report page sends it; answers the complaint's id. */
  async function report(fields: Record<string, string | number> = {}) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/support/report',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(
        Object.entries({
          reason: '侵权盗版',
          contact: 'QQ 12345678',
          pageUrl: `/book/read/${page.bookId}/${page.chapterNumber}`,
          bookId: page.bookId,
          chapterNumber: page.chapterNumber,
          pageNumber: page.pageNumber,
          ...fields,
        }).map(([k, v]) => [k, String(v)]),
      ).toString(),
    });
    expect(res.json().result, res.body).toBe(true);
    return res.json().data.id as number;
  }

  const handling = async (id: number) =>
    (await t.db.select().from(reports).where(eq(reports.id, id)))[0] as typeof reports.$inferSelect;

  it('shows a new complaint with its page (book, chapter and page number) and the contact the reader left', async () => {
    const id = await report();
    const one = await admin('support', 'GET', `/api/admin/complaints/${id}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().data).toMatchObject({
      complaint: {
        id,
        state: 'new',
        handler: null,
        bookId: page.bookId,
        bookTitle: page.title,
        bookPublished: true,
        chapterNumber: page.chapterNumber,
        chapterPublishAt: null,
        pageNumber: 3,
        contact: 'QQ 12345678',
        notes: 0,
      },
      notes: [],
    });
    expect((await admin('owner', 'GET', '/api/admin/complaints/2147483647')).statusCode).toBe(404);
  });

  it('filters the inbox by state, newest first', async () => {
    const a = await report();
    const b = await report();
    expect(
      (await admin('support', 'POST', `/api/admin/complaints/${a}/state`, { from: 'new', state: 'done' }))
        .statusCode,
    ).toBe(200);
    const done = (await admin('support', 'GET', '/api/admin/complaints?state=done&size=100')).json().data;
    expect(done.list.every((c: { state: string }) => c.state === 'done')).toBe(true);
    expect(done.list.map((c: { id: number }) => c.id)).toContain(a);
    const fresh = (await admin('support', 'GET', '/api/admin/complaints?state=new&size=100')).json().data;
    expect(fresh.list.map((c: { id: number }) => c.id)).toContain(b);
    expect(fresh.list.map((c: { id: number }) => c.id)).not.toContain(a);
    expect(fresh.total).toBe(fresh.list.length);
    const all = (await admin('support', 'GET', '/api/admin/complaints?size=2')).json().data;
    expect(all.list.map((c: { id: number }) => c.id)).toEqual([b, a]);
    expect((await admin('support', 'GET', '/api/admin/complaints?state=closed')).statusCode).toBe(400);
  });

  it('takes a complaint (处理中, by whom), notes it, replies, marks it 已处理; each audited with before and after', async () => {
    const id = await report();
    const taken = await admin('support', 'POST', `/api/admin/complaints/${id}/state`, {
      from: 'new',
      state: 'handling',
    });
    expect(taken.json().data.complaint).toMatchObject({ state: 'handling', handler: 'support1' });
    expect((await t.db.select().from(auditLog).orderBy(auditLog.id)).at(-1)).toMatchObject({
      actor: 'support1',
      action: 'complaint.state',
      target: `complaint:${id}`,
      before: { state: 'new', handler: null },
      after: { state: 'handling', handler: 'support1' },
    });

    const noted = await admin('support', 'POST', `/api/admin/complaints/${id}/notes`, {
      kind: 'note',
      text: ' 已核实，第3页有盗版水印 ',
    });
    expect(noted.statusCode, noted.body).toBe(200);
    const replied = await admin('owner', 'POST', `/api/admin/complaints/${id}/notes`, {
      kind: 'reply',
      text: '已通过QQ回复读者：已下架处理',
    });
    expect(replied.json().data.notes).toMatchObject([
      { operator: 'support1', kind: 'note', text: '已核实，第3页有盗版水印' },
      { operator: 'owner1', kind: 'reply', text: '已通过QQ回复读者：已下架处理' },
    ]);
    expect(replied.json().data.complaint.notes).toBe(2);
    expect((await t.db.select().from(auditLog).orderBy(auditLog.id)).at(-1)).toMatchObject({
      actor: 'owner1',
      action: 'complaint.reply',
      target: `complaint:${id}`,
      before: null,
      after: { kind: 'reply', text: '已通过QQ回复读者：已下架处理' },
    });

    const handled = await admin('support', 'POST', `/api/admin/complaints/${id}/state`, {
      from: 'handling',
      state: 'done',
    });
    expect(handled.json().data.complaint).toMatchObject({ state: 'done', handler: 'support1' });
    expect(handled.json().data.complaint.stateAt).toMatch(/Z$/);
    // Reopened: 新 again, nobody has it.
    const reopened = await admin('owner', 'POST', `/api/admin/complaints/${id}/state`, {
      from: 'done',
      state: 'new',
    });
    expect(reopened.json().data.complaint).toMatchObject({ state: 'new', handler: null });
  });

  it('refuses bad input with a clear 4xx and changes nothing', async () => {
    const id = await report();
    const before = await auditedWrites(t.db);
    const cases: [string, object, number][] = [
      [`/api/admin/complaints/${id}/state`, { from: 'new', state: 'new' }, 400],
      [`/api/admin/complaints/${id}/state`, { from: 'new', state: 'closed' }, 400],
      [`/api/admin/complaints/${id}/state`, { state: 'done' }, 400],
      [`/api/admin/complaints/${id}/notes`, { kind: 'note', text: '   ' }, 400],
      [`/api/admin/complaints/${id}/notes`, { kind: 'note', text: '长'.repeat(501) }, 400],
      [`/api/admin/complaints/${id}/notes`, { kind: 'mail', text: '好' }, 400],
      ['/api/admin/complaints/2147483647/state', { from: 'new', state: 'done' }, 404],
      ['/api/admin/complaints/2147483647/notes', { kind: 'note', text: '好' }, 404],
    ];
    for (const [url, body, status] of cases) {
      const res = await admin('support', 'POST', url, body);
      expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(status);
      expect(res.json()).toMatchObject({ result: false, code: status });
    }
    expect(await handling(id)).toMatchObject({ state: 'new', handlerId: null });
    expect(await t.db.$count(reportNotes, eq(reportNotes.reportId, id))).toBe(0);
    expect(await auditedWrites(t.db)).toBe(before);
  });

  describe('roles', () => {
    const allowed: Role[] = ['owner', 'support'];
    const refused: Role[] = ['editor', 'finance'];

    it.each(allowed)('%s reads, takes and notes complaints', async (role) => {
      const id = await report();
      expect((await admin(role, 'GET', '/api/admin/complaints')).statusCode).toBe(200);
      expect((await admin(role, 'GET', `/api/admin/complaints/${id}`)).statusCode).toBe(200);
      const taken = await admin(role, 'POST', `/api/admin/complaints/${id}/state`, {
        from: 'new',
        state: 'handling',
      });
      expect(taken.json().data.complaint).toMatchObject({ handler: `${role}1` });
      const noted = await admin(role, 'POST', `/api/admin/complaints/${id}/notes`, {
        kind: 'note',
        text: '好',
      });
      expect(noted.statusCode).toBe(200);
    });

    it.each(refused)('%s gets the 403 and changes nothing', async (role) => {
      const id = await report();
      const before = await auditedWrites(t.db);
      for (const [method, url, body] of [
        ['GET', '/api/admin/complaints', undefined],
        ['GET', `/api/admin/complaints/${id}`, undefined],
        ['POST', `/api/admin/complaints/${id}/state`, { from: 'new', state: 'handling' }],
        ['POST', `/api/admin/complaints/${id}/notes`, { kind: 'note', text: '好' }],
      ] as const) {
        const res = await admin(role, method, url, body);
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toMatchObject({ result: false, code: 403 });
      }
      expect(await handling(id)).toMatchObject({ state: 'new', handlerId: null });
      expect(await t.db.$count(reportNotes, eq(reportNotes.reportId, id))).toBe(0);
      expect(await auditedWrites(t.db)).toBe(before);
    });
  });

  it('two operators taking the same complaint at once: one has it, the other is told who (409, nothing doubled)', async () => {
    const id = await report();
    const before = await auditedWrites(t.db);
    const [a, b] = await Promise.all(
      (['owner', 'support'] as const).map((role) =>
        admin(role, 'POST', `/api/admin/complaints/${id}/state`, { from: 'new', state: 'handling' }),
      ),
    );
    const answers = [a, b].map((r) => r?.statusCode).sort();
    expect(answers).toEqual([200, 409]);
    const won = [a, b].find((r) => r?.statusCode === 200)?.json().data.complaint.handler as string;
    const lost = [a, b].find((r) => r?.statusCode === 409)?.json();
    expect(lost).toMatchObject({ result: false, code: 409, msg: `这条举报已由 ${won} 处理中` });
    expect(lost.data.complaint).toMatchObject({ state: 'handling', handler: won });
    expect(await auditedWrites(t.db)).toBe(before + 1);
  });
});
