// Every route of the OpenAPI document, and the sandbox's own pages, fed wrong types, huge and non-finite numbers,
// NUL bytes, long strings, missing fields and bad bodies, as a visitor, a reader and (the console's /api/admin/
// calls) a signed-in owner. No answer may be a 5xx, and every /api answer must be the envelope. Seeded and bounded:
// the same few thousand requests on every run.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { operatorCommands } from '../src/modules/operators/index.ts';
import { createTestApp, sessionCookie, type TestApp } from './test-app.ts';
import { describeDb } from './test-database.ts';

interface Parameter {
  in: 'path' | 'query';
  name: string;
}
interface Route {
  method: string;
  path: string;
  parameters: Parameter[];
}

const RUNS_PER_ROUTE = 70;
const SEED = 20261124;

/** Values that have broken servers: the ones the issue found, and their neighbours. */
const nasty = fc.oneof(
  fc.constantFrom(
    'Infinity',
    '-Infinity',
    'NaN',
    '1e309',
    '-1e309',
    '9'.repeat(400),
    '2147483648',
    '-2147483649',
    '9007199254740993',
    '-1',
    '0',
    '1.5',
    '0x10',
    '',
    ' ',
    'true',
    'null',
    '[]',
    '{}',
    'a\u0000b',
    '\u0000',
    '%',
    '..%2f..%2fetc%2fpasswd',
    "' or 1=1 --",
    '<script>alert(1)</script>',
    'x'.repeat(10_000),
    '中文𝄞\uFFFF',
    '\uD800',
  ),
  fc.constantFrom('1', '2', '3', 'coin', 'vip', 'all', 'finish', 'e_recommend', 'wap_browser', 'alipay_wap'),
  fc.string({ maxLength: 40 }),
  fc.integer().map(String),
);

type Body =
  | { kind: 'none' }
  | { kind: 'json'; text: string }
  | { kind: 'form'; fields: [string, string][] }
  | { kind: 'other'; type: string; text: string };

const body: fc.Arbitrary<Body> = fc.oneof(
  fc.constant<Body>({ kind: 'none' }),
  fc
    .constantFrom(
      '{"reason":',
      '[1,2',
      '{"reason":"\\u0000"}',
      '{"reason":1e309}',
      'null',
      '"x"',
      '{"__proto__":{"x":1}}',
      '{"unknown":1}',
    )
    .map((text): Body => ({ kind: 'json', text })),
  fc.json({ maxDepth: 2 }).map((text): Body => ({ kind: 'json', text })),
  fc
    .array(
      fc.tuple(
        fc.constantFrom('reason', 'content', 'contact', 'pageUrl', 'sign', 'orderNo', 'amount', 'password'),
        nasty,
      ),
      {
        maxLength: 5,
      },
    )
    .map((fields): Body => ({ kind: 'form', fields })),
  fc
    .constantFrom('text/xml', 'multipart/form-data; boundary=x', 'application/octet-stream')
    .map((type): Body => ({ kind: 'other', type, text: '<x>\u0000</x>' })),
  fc.constant<Body>({
    kind: 'other',
    type: 'application/x-www-form-urlencoded',
    text: `reason=${'y'.repeat(70_000)}`,
  }),
);

function routesOf(doc: { paths: Record<string, Record<string, { parameters?: Parameter[] }>> }): Route[] {
  const routes: Route[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    if (path === '/api/docs') continue;
    for (const [method, op] of Object.entries(operations)) {
      routes.push({ method: method.toUpperCase(), path, parameters: op.parameters ?? [] });
    }
  }
  // Not in the document: the sandbox gateway's own cashier pages.
  const tradeNo: Parameter = { in: 'path', name: 'tradeNo' };
  for (const [method, path] of [
    ['GET', '/sandbox-pay/cashier/{tradeNo}'],
    ['POST', '/sandbox-pay/cashier/{tradeNo}/confirm'],
    ['POST', '/sandbox-pay/cashier/{tradeNo}/cancel'],
  ] as const) {
    routes.push({ method, path, parameters: [tradeNo] });
  }
  // Nor the pages and the catch-alls that answer an unknown call (modules/web).
  const rest: Parameter = { in: 'path', name: '*' };
  routes.push(
    { method: 'GET', path: '/', parameters: [] },
    { method: 'GET', path: '/{*}', parameters: [rest] },
  );
  routes.push({ method: 'GET', path: '/admin{*}', parameters: [rest] });
  for (const method of ['GET', 'HEAD', 'TRACE', 'DELETE', 'OPTIONS', 'PATCH', 'PUT', 'POST', 'QUERY']) {
    routes.push({ method, path: '/api', parameters: [] }, { method, path: '/api/{*}', parameters: [rest] });
  }
  return routes;
}

/** encodeURIComponent, but a lone surrogate becomes the bytes of a malformed UTF-8 sequence instead of a throw. */
function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

function isEnvelope(payload: string): boolean {
  try {
    const body = JSON.parse(payload) as Record<string, unknown>;
    return (
      typeof body.result === 'boolean' &&
      typeof body.code === 'number' &&
      typeof body.msg === 'string' &&
      'data' in body
    );
  } catch {
    return false;
  }
}

describeDb('fuzzing every route', () => {
  let t: TestApp;
  let cookie: string;
  let ownerCookie = '';
  let owners = 0;
  /** A fresh owner signed in: the fuzzed calls may sign the last one out, rotate its password or end its sessions. */
  async function signInOwner() {
    const name = `fuzz-owner${++owners}`;
    const { password } = await operatorCommands(t.db).add(name, 'owner');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { origin: t.config.trustedOrigins[0] as string },
      payload: { name, password },
    });
    const got = res.cookies.find((c) => c.name === 'yadm');
    if (!got) throw new Error(`the owner could not sign in: ${res.body}`);
    ownerCookie = `yadm=${got.value}`;
  }
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        REGISTER_PER_HOUR: '100000',
        LOGIN_FAILURES_PER_ADDRESS: '100000',
        LOGIN_FAILURES_PER_ACCOUNT: '10000',
        FIND_ACCOUNT_PER_HOUR: '100000',
      },
    });
    cookie = sessionCookie(await t.app.inject({ method: 'POST', url: '/api/user/register' }));
    await signInOwner();
  });
  afterAll(() => t?.close());

  const failures: string[] = [];
  let sent = 0;

  async function send(method: string, url: string, b: Body, withSession: boolean) {
    const admin = url.startsWith('/api/admin/');
    // The console's calls as a signed-in owner from our own page (else every one stops at 401 or 403).
    const headers: Record<string, string> =
      admin && withSession
        ? { cookie: ownerCookie, origin: t.config.trustedOrigins[0] as string }
        : withSession
          ? { cookie }
          : {};
    let payload: string | undefined;
    if (b.kind === 'json') {
      headers['content-type'] = 'application/json';
      payload = b.text;
    } else if (b.kind === 'form') {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = b.fields.map(([k, v]) => `${k}=${encodeSegment(v)}`).join('&');
    } else if (b.kind === 'other') {
      headers['content-type'] = b.type;
      payload = b.text;
    }
    const res = await t.app.inject({ method: method as 'GET', url, headers, payload });
    sent++;
    const where = `${method} ${url.slice(0, 120)} ${b.kind} ${(payload ?? '').slice(0, 80)} -> ${res.statusCode} ${res.body.slice(0, 120)}`;
    if (admin && withSession && res.statusCode === 401) await signInOwner();
    if (res.statusCode >= 500) failures.push(where);
    // A HEAD answer has no body by definition.
    else if (url.startsWith('/api/') && method !== 'HEAD' && !isEnvelope(res.body))
      failures.push(`not an envelope: ${where}`);
  }

  // Before the fuzzing: it may delete book 1 (an unpaid book may be deleted) or operator 1, which this test edits.
  it('answers 400 in the envelope to a console edit of unknown keys only, and to a form cut short', async () => {
    const origin = t.config.trustedOrigins[0] as string;
    const call = (url: string, payload: string, type = 'application/json') =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { origin, cookie: ownerCookie, 'content-type': type },
        payload,
      });
    await signInOwner();
    const [chapter] = (await t.app.inject({ url: '/api/book/detail/1' })).json().data.chapterList;
    for (const [url, payload, type] of [
      ['/api/admin/operators/1', '{"unknown":1}'],
      ['/api/admin/books/1/chapters/1', '{"unknown":1}'],
      ['/api/admin/books/1/chapters/1', 'reason=1', 'application/x-www-form-urlencoded'],
      ['/api/admin/ads', '<x>\u0000</x>', 'multipart/form-data; boundary=x'],
      [
        '/api/admin/books/1/cover',
        '--x\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nab',
        'multipart/form-data; boundary=x',
      ],
    ] as const) {
      const res = await call(url, payload, type);
      expect(res.statusCode, `${url} ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ result: false, code: 400 });
    }
    // Nothing changed: the chapter is as it was.
    expect((await t.app.inject({ url: '/api/book/detail/1' })).json().data.chapterList[0]).toEqual(chapter);
  });

  it('answers no 5xx, and the envelope on every /api call', async () => {
    const routes = routesOf(t.app.swagger() as never);
    expect(routes.length).toBeGreaterThan(25);
    for (const route of routes) {
      const params = fc.array(fc.option(nasty, { nil: undefined }), {
        minLength: route.parameters.length,
        maxLength: route.parameters.length,
      });
      await fc.assert(
        fc.asyncProperty(params, body, fc.boolean(), async (values, b, withSession) => {
          let path = route.path;
          const query = new URLSearchParams();
          route.parameters.forEach((p, i) => {
            const value = values[i];
            if (p.in === 'path') {
              const segment = encodeSegment(value ?? (p.name === '*' ? 'x' : '1'));
              path = path.replace(p.name === '*' ? '{*}' : `{${p.name}}`, segment || '1');
            } else if (value !== undefined) query.set(p.name, value);
          });
          const qs = query.toString();
          await send(
            route.method,
            `${path}${qs ? `?${qs}` : ''}`,
            route.method === 'GET' ? { kind: 'none' } : b,
            withSession,
          );
        }),
        { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
    }
    // URLs no route can read, and methods no route has.
    for (const [method, url] of [
      ['GET', '/api/%ff'],
      ['GET', '/api/book/detail/%'],
      ['PROPFIND', '/api/book/home/index'],
      ['GET', `/api/book/search?${'a'.repeat(9000)}`],
      ['GET', '/api/book/read_chapter?bookId=1&bookId=2&number=1'],
      ['POST', '/api/book/chapter/buy?chapterId[]=1'],
    ] as const) {
      await send(method, url, { kind: 'none' }, true);
    }
    expect(sent).toBeGreaterThan(2000);
    expect(failures, failures.slice(0, 20).join('\n')).toEqual([]);
    // The console's calls as an owner do real work (and a sign-out costs a new sign-in): minutes on a busy machine.
  }, 480_000);
});
