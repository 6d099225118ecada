// The console's help for a reader who lost their account: customer service and owners find the
// reader and reset the password, with a reason kept in the audit log; the new password is answered once.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { consoleOperators } from '../../../test/console-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { infoStatus, login, registerVisitor } from '../../../test/visitors.ts';
import { auditLog } from '../../db/schema/index.ts';

type Admin = Awaited<ReturnType<typeof consoleOperators>>['admin'];

describeDb('the console resets a reader’s password, audited', () => {
  let t: TestApp;
  let admin: Admin;
  beforeAll(async () => {
    t = await createTestApp();
    ({ admin } = await consoleOperators(t, ['owner', 'editor', 'finance', 'support']));
  });
  afterAll(() => t?.close());

  const audits = () => t.db.select().from(auditLog).where(eq(auditLog.action, 'reader.password.reset'));

  it('support finds the reader and gives a new password once; the reason and the operator are in the audit log', async () => {
    const reader = await registerVisitor(t);
    const byAccount = await admin('support', 'GET', `/api/admin/readers?q=${reader.account}`);
    expect(byAccount.statusCode, byAccount.body).toBe(200);
    expect(byAccount.json().data.list).toEqual([
      expect.objectContaining({ userId: reader.userId, account: reader.account }),
    ]);
    expect(byAccount.body).not.toMatch(/argon2|password/i);

    // No reason: refused, naming the field, and nothing changed.
    for (const reason of ['', '   ']) {
      const res = await admin('support', 'POST', `/api/admin/readers/${reader.userId}/password`, { reason });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        result: false,
        code: 400,
        msg: '请填写重置原因',
        data: { field: 'reason' },
      });
    }
    expect(await infoStatus(t, reader.cookie)).toBe(200);
    expect(await audits()).toEqual([]);

    const res = await admin('support', 'POST', `/api/admin/readers/${reader.userId}/password`, {
      reason: ' 读者来电，核对了最近一笔充值 ',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ userId: reader.userId, account: reader.account });
    expect(data.password).toMatch(/^[2-9a-zA-Z]{12}$/);
    // The reader's sessions ended; the new password logs in, the old one no longer does.
    expect(await infoStatus(t, reader.cookie)).toBe(401);
    expect((await login(t, reader.account, data.password, { ip: '10.70.0.1' })).json().result).toBe(true);
    expect((await login(t, reader.account, reader.password, { ip: '10.70.0.2' })).json().result).toBe(false);

    const [entry, ...more] = await audits();
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      actor: 'support1',
      target: `user:${reader.userId}`,
      after: { reason: '读者来电，核对了最近一笔充值' },
    });
    expect(entry?.operatorId).toEqual(expect.any(Number));
    expect(JSON.stringify(entry)).not.toContain(data.password);
    expect(JSON.stringify(entry)).not.toMatch(/argon2/);
    // The owner reads it in the audit log.
    const page = (await admin('owner', 'GET', '/api/admin/audit?size=5')).json().data;
    expect(page.list[0]).toMatchObject({ action: 'reader.password.reset', actor: 'support1' });
  });

  it('owners may too; finance, editors and callers without a session may not; an unknown reader is 404', async () => {
    const reader = await registerVisitor(t);
    const url = `/api/admin/readers/${reader.userId}/password`;
    expect((await admin('owner', 'POST', url, { reason: '老板处理' })).statusCode).toBe(200);
    const before = (await audits()).length;
    for (const role of ['finance', 'editor'] as const) {
      expect((await admin(role, 'POST', url, { reason: '试试' })).statusCode, role).toBe(403);
      expect((await admin(role, 'GET', `/api/admin/readers/${reader.userId}`)).statusCode, role).toBe(
        role === 'finance' ? 200 : 403,
      );
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url,
      headers: { origin: t.config.trustedOrigins[0] as string },
      payload: { reason: '试试' },
    });
    expect(anonymous.statusCode).toBe(401);
    const unknown = await admin('support', 'POST', '/api/admin/readers/2147483647/password', {
      reason: '找人',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ result: false, code: 404, msg: '未找到该读者' });
    expect((await audits()).length).toBe(before);
  });
});
