// The console's support calls: service contacts per branch (readers see them at once), and complaints for owners
// and customer service only.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { consoleOperators } from '../../../test/console-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { auditLog, branchSettings } from '../../db/schema/index.ts';

describeDb('the console’s support calls', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof consoleOperators>>['admin'];

  beforeAll(async () => {
    t = await createTestApp({ staticCacheMs: 60_000 });
    ({ admin } = await consoleOperators(t, ['editor', 'finance', 'support']));
  });
  afterAll(() => t?.close());

  const settings = {
    appDownloadUrl: 'https://dl.example.com/app.apk',
    appDownloadHome: 'https://dl.example.com/',
    customerServiceEmail: 'help@example.com',
    customerServiceQq: '800012345',
  };

  it('sets the default branch’s contacts; readers of any branch see them at once; audited', async () => {
    await t.app.inject('/api/common/info/v2/12345'); // kept now, for a minute
    expect((await admin('support', 'POST', '/api/admin/branches/-2', settings)).statusCode).toBe(403);
    const saved = await admin('editor', 'POST', '/api/admin/branches/-2', settings);
    expect(saved.statusCode, saved.body).toBe(200);
    const info = (await t.app.inject('/api/common/info/v2/12345')).json().data;
    expect(info).toMatchObject({ customerServiceEmail: 'help@example.com', customerServiceQQ: '800012345' });
    const last = (await t.db.select().from(auditLog).orderBy(auditLog.id)).at(-1);
    expect(last).toMatchObject({ actor: 'editor1', action: 'branch.settings', target: 'branch:-2' });
    const before = await t.db.select().from(branchSettings).orderBy(branchSettings.branchId);
    for (const bad of [
      { ...settings, customerServiceEmail: 'not an address' },
      { ...settings, customerServiceQq: '12ab' },
      { ...settings, appDownloadUrl: 'javascript:alert(1)' },
    ]) {
      expect((await admin('editor', 'POST', '/api/admin/branches/-2', bad)).statusCode).toBe(400);
    }
    expect(await t.db.select().from(branchSettings).orderBy(branchSettings.branchId)).toEqual(before);
  });

  it('names a branch for operators (trimmed; kept when a save does not send it); readers never see it', async () => {
    const named = await admin('editor', 'POST', '/api/admin/branches/321', {
      ...settings,
      name: ' 抖音一号 ',
    });
    expect(named.json().data).toMatchObject({ branchId: 321, name: '抖音一号' });
    const again = await admin('editor', 'POST', '/api/admin/branches/321', settings);
    expect(again.json().data).toMatchObject({ name: '抖音一号' });
    const tooLong = await admin('editor', 'POST', '/api/admin/branches/321', {
      ...settings,
      name: '名'.repeat(31),
    });
    expect(tooLong.json()).toMatchObject({ code: 400, data: { field: 'name' } });
    const listed = (await admin('support', 'GET', '/api/admin/branches')).json().data;
    expect(listed.find((b: { branchId: number }) => b.branchId === 321)).toMatchObject({ name: '抖音一号' });
    expect(JSON.stringify((await t.app.inject('/api/common/info/v2/321')).json())).not.toContain('抖音一号');
  });

  it('shows complaints to customer service, newest first, and not to finance', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/support/report',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'reason=%E5%85%B6%E4%BB%96&content=x&pageUrl=%2Fbook%2F2',
    });
    const page = (await admin('support', 'GET', '/api/admin/complaints?size=5')).json().data;
    expect(page.total).toBeGreaterThan(0);
    expect(page.list[0]).toMatchObject({ reason: '其他', pageUrl: '/book/2' });
    expect((await admin('finance', 'GET', '/api/admin/complaints')).statusCode).toBe(403);
  });
});
