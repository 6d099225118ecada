import { desc, gt } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { auditLog, operators } from '../../db/schema/index.ts';
import { operatorCommands } from './index.ts';

type Method = 'GET' | 'POST';

describeDb('the console’s operators: sessions, roles and the audit log', () => {
  let t: TestApp;
  let origin: string;
  const passwords: Record<string, string> = {};
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp({
      seed: false,
      env: { LOGIN_FAILURES_PER_ACCOUNT: '3', LOGIN_FAILURES_PER_ADDRESS: '50' },
    });
    origin = t.config.trustedOrigins[0] as string;
    const commands = operatorCommands(t.db);
    for (const role of ['owner', 'editor', 'finance', 'support'] as const) {
      const { operator, password } = await commands.add(`${role}1`, role);
      passwords[role] = password;
      ids[role] = operator.id;
    }
    // Whose attempts the limit test uses up.
    passwords.limited = (await commands.add('limited1', 'editor')).password;
  });
  afterAll(() => t?.close());

  const call = (
    method: Method,
    url: string,
    opts: { cookie?: string; body?: unknown; origin?: string | null } = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: {
        ...(opts.cookie ? { cookie: opts.cookie } : {}),
        ...(opts.origin === null ? {} : { origin: opts.origin ?? origin }),
      },
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    });

  async function signIn(name: string, password: string) {
    const res = await call('POST', '/api/admin/login', { body: { name, password } });
    expect(res.statusCode, res.body).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'yadm');
    if (!cookie) throw new Error('no yadm cookie');
    return { res, cookie: `yadm=${cookie.value}`, raw: cookie };
  }

  const counts = async () => ({
    operators: await t.db.$count(operators),
    audit: await t.db.$count(auditLog),
  });

  it('answers 401 to every console call without a session, and changes nothing', async () => {
    // Every /api/admin/ route in the OpenAPI document (tagged admin) is tried.
    await t.app.ready();
    const doc = t.app.swagger() as { paths: Record<string, Record<string, { tags?: string[] }>> };
    const adminCalls = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.tags?.includes('admin'))
        .map(([m, op]) => ({
          method: m.toUpperCase() as Method,
          url: p.replace('{id}', String(ids.editor)),
          op,
        })),
    );
    expect(adminCalls.length).toBeGreaterThanOrEqual(8);
    const before = await counts();
    for (const { method, url } of adminCalls) {
      if (url === '/api/admin/login') continue;
      const res = await call(method, url, {
        body: method === 'POST' ? { name: 'x1', role: 'owner' } : undefined,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toMatchObject({ result: false, code: 401 });
    }
    expect(await counts()).toEqual(before);
  });

  it('signs in with a cookie only the console’s calls carry: HttpOnly, SameSite=Strict, path /api/admin', async () => {
    const { res, raw, cookie } = await signIn('owner1', passwords.owner as string);
    expect(res.json().data).toMatchObject({ name: 'owner1', role: 'owner', disabled: false });
    expect(JSON.stringify(res.json())).not.toMatch(/argon2|passwordHash/);
    expect(raw).toMatchObject({ path: '/api/admin', httpOnly: true, sameSite: 'Strict' });
    expect((await call('GET', '/api/admin/me', { cookie })).json().data.name).toBe('owner1');
    // A reader's session is no operator's.
    const reader = await t.app.inject({ method: 'POST', url: '/api/user/register' });
    const sid = reader.cookies.find((c) => c.name === 'sid')?.value;
    expect((await call('GET', '/api/admin/me', { cookie: `sid=${sid}; yadm=${sid}` })).statusCode).toBe(401);
    // Signed out: the cookie is worth nothing, even replayed.
    expect((await call('POST', '/api/admin/logout', { cookie })).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/me', { cookie })).statusCode).toBe(401);
  });

  it('refuses a wrong password and an unknown name alike, limits the attempts, and refuses writes from elsewhere', async () => {
    const wrong = await call('POST', '/api/admin/login', { body: { name: 'limited1', password: 'nope' } });
    const unknown = await call('POST', '/api/admin/login', { body: { name: 'nobody', password: 'nope' } });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    await call('POST', '/api/admin/login', { body: { name: 'limited1', password: 'nope' } });
    await call('POST', '/api/admin/login', { body: { name: 'limited1', password: 'nope' } });
    // The fourth attempt on that account from this address: limited, even with the right password.
    const limited = await call('POST', '/api/admin/login', {
      body: { name: 'limited1', password: passwords.limited },
    });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Login and every write need our own Origin (or Referer): none, or another site's, is refused.
    const body = { name: 'owner1', password: passwords.owner };
    expect((await call('POST', '/api/admin/login', { body, origin: null })).statusCode).toBe(403);
    expect(
      (await call('POST', '/api/admin/login', { body, origin: 'https://evil.example' })).statusCode,
    ).toBe(403);
    const { cookie } = await signIn('owner1', passwords.owner as string);
    const before = await counts();
    const add = { name: 'sneaky', role: 'owner' };
    expect((await call('POST', '/api/admin/operators', { cookie, body: add, origin: null })).statusCode).toBe(
      403,
    );
    expect(await counts()).toEqual(before);
  });

  it('lets only the owner manage operators: every write tried with every role', async () => {
    const writes = (target: number) => [
      { url: '/api/admin/operators', body: { name: `made${target}`, role: 'support' } },
      { url: `/api/admin/operators/${target}`, body: { role: 'finance' } },
      { url: `/api/admin/operators/${target}/password`, body: undefined },
    ];
    for (const role of ['editor', 'finance', 'support'] as const) {
      const { cookie } = await signIn(`${role}1`, passwords[role] as string);
      const before = await counts();
      for (const w of writes(ids.support as number)) {
        const res = await call('POST', w.url, { cookie, body: w.body });
        expect(res.statusCode, `${role} ${w.url}`).toBe(403);
      }
      expect((await call('GET', '/api/admin/operators', { cookie })).statusCode).toBe(403);
      expect((await call('GET', '/api/admin/audit', { cookie })).statusCode).toBe(403);
      // Nothing changed but the audit log: each refused write is in it (who, the call, the role, the address).
      expect(await counts()).toEqual({ ...before, audit: before.audit + 3 });
      const refused = await t.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(3);
      expect(refused.map((e) => [e.action, e.actor, e.target, e.after])).toEqual(
        [
          'POST /api/admin/operators',
          'POST /api/admin/operators/:id',
          'POST /api/admin/operators/:id/password',
        ]
          .reverse()
          .map((target) => ['operator.refused', `${role}1`, target, { address: '127.0.0.1', role }]),
      );
    }
    const { cookie } = await signIn('owner1', passwords.owner as string);
    const added = await call('POST', '/api/admin/operators', {
      cookie,
      body: { name: 'newbie', role: 'support' },
    });
    expect(added.json().data.password).toMatch(/^[2-9a-zA-Z]{16}$/);
    const newbie = added.json().data.operator.id as number;
    const changed = await call('POST', `/api/admin/operators/${newbie}`, {
      cookie,
      body: { role: 'editor' },
    });
    expect(changed.json().data.role).toBe('editor');
    const rotated = await call('POST', `/api/admin/operators/${newbie}/password`, { cookie });
    expect(rotated.json().data.password).not.toBe(added.json().data.password);
    expect((await call('POST', '/api/admin/operators/99999/password', { cookie })).statusCode).toBe(404);
    // Each write is in the audit log: who, what, before and after, and never a password or its hash.
    const auditPage = (await call('GET', '/api/admin/audit?size=3', { cookie })).json().data;
    expect(auditPage.total).toBe(await t.db.$count(auditLog));
    const audit = auditPage.list;
    expect(audit.map((e: { action: string }) => e.action)).toEqual([
      'operator.password',
      'operator.update',
      'operator.add',
    ]);
    expect(audit[1]).toMatchObject({
      actor: 'owner1',
      target: `operator:${newbie}`,
      before: { role: 'support' },
      after: { role: 'editor' },
    });
    expect(JSON.stringify(audit)).not.toMatch(/argon2|passwordHash|"password":/);
    // Bad input: a clear message, nothing written.
    const before = await counts();
    for (const body of [
      { name: 'a b', role: 'owner' },
      { name: 'ok1', role: 'root' },
      { name: 'newbie', role: 'support' },
    ]) {
      const res = await call('POST', '/api/admin/operators', { cookie, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().msg).toBeTruthy();
    }
    expect(await counts()).toEqual(before);
  });

  it('ends an operator’s sessions when disabled or given a new password, and keeps the last owner', async () => {
    const { cookie: owner } = await signIn('owner1', passwords.owner as string);
    const { cookie: support } = await signIn('support1', passwords.support as string);
    const target = ids.support as number;
    expect(
      (await call('POST', `/api/admin/operators/${target}`, { cookie: owner, body: { disabled: true } }))
        .statusCode,
    ).toBe(200);
    expect((await call('GET', '/api/admin/me', { cookie: support })).statusCode).toBe(401);
    // Disabled: the right password no longer signs in.
    const res = await call('POST', '/api/admin/login', {
      body: { name: 'support1', password: passwords.support },
    });
    expect(res.statusCode).toBe(401);
    // A new password ends the sessions the old one opened.
    const { cookie: finance } = await signIn('finance1', passwords.finance as string);
    await call('POST', `/api/admin/operators/${ids.finance}/password`, { cookie: owner });
    expect((await call('GET', '/api/admin/me', { cookie: finance })).statusCode).toBe(401);
    // The only enabled owner can neither be disabled nor demoted.
    const self = ids.owner as number;
    for (const body of [{ disabled: true }, { role: 'editor' }]) {
      const refused = await call('POST', `/api/admin/operators/${self}`, { cookie: owner, body });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().msg).toBe('至少保留一个启用的 owner');
    }
  });

  it('records sign-ins, sign-outs and failed sign-ins in the audit log, with the name as typed and the address', async () => {
    const [last] = await t.db.select({ id: auditLog.id }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    const login = (name: string, password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/login',
        headers: { origin },
        payload: { name, password },
      });
    expect((await login('editor1', 'wrong')).statusCode).toBe(401);
    expect((await login('no-such\u202Eone', 'wrong')).statusCode).toBe(401);
    expect((await login('support1', passwords.support as string)).statusCode).toBe(401); // disabled above
    const signedIn = await login('editor1', passwords.editor as string);
    expect(signedIn.statusCode).toBe(200);
    const cookie = `yadm=${signedIn.cookies.find((c) => c.name === 'yadm')?.value}`;
    expect((await call('POST', '/api/admin/logout', { cookie })).statusCode).toBe(200);
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(gt(auditLog.id, last?.id ?? 0))
      .orderBy(auditLog.id);
    const ip = '127.0.0.1'; // inject's client address
    expect(entries.map((e) => [e.action, e.operatorId, e.actor, e.target, e.after])).toEqual([
      [
        'operator.login-failed',
        ids.editor,
        'editor1',
        `operator:${ids.editor}`,
        { address: ip, reason: 'wrong-password' },
      ],
      [
        'operator.login-failed',
        null,
        'no-such\u202Eone',
        'operator:?',
        { address: ip, reason: 'unknown-name' },
      ],
      [
        'operator.login-failed',
        ids.support,
        'support1',
        `operator:${ids.support}`,
        { address: ip, reason: 'disabled' },
      ],
      ['operator.login', ids.editor, 'editor1', `operator:${ids.editor}`, { address: ip }],
      ['operator.logout', ids.editor, 'editor1', `operator:${ids.editor}`, { address: ip }],
    ]);
    // The owner reads them in the console's audit log; a password typed never appears.
    const { cookie: owner } = await signIn('owner1', passwords.owner as string);
    const page = (await call('GET', '/api/admin/audit?size=50', { cookie: owner })).json().data.list;
    expect(
      page.filter((e: { action: string }) => e.action.startsWith('operator.log')).length,
    ).toBeGreaterThanOrEqual(5);
    expect(JSON.stringify(page)).not.toContain(passwords.editor as string);
  });
});
