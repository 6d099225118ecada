// The OpenAPI document a running server serves at /api/docs, as other people's tools take it: Redocly's linter with
// the recommended rules (redocly.yaml says which it leaves out, and why) finds nothing in it, openapi-typescript
// turns it into the client types committed beside this file, and a client made of those types with openapi-fetch
// registers a visitor, reads a free chapter, recharges through the sandbox gateway and buys a chapter over HTTP.
// The document does not depend on the database: the PostgreSQL project skips it.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { payAmountOf } from '@yueman/contract';
import createClient from 'openapi-fetch';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationBody } from '../src/modules/payments/payments.test-support.ts';
import type { paths } from './openapi/yueman-api.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { dbKind } from './test-database.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

describe.skipIf(dbKind !== 'pglite')('the OpenAPI document', () => {
  let t: TestApp;
  let base: string;
  let doc: OpenAPI3;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    doc = await (await fetch(`${base}/api/docs`)).json();
    dir = await mkdtemp(path.join(tmpdir(), 'yueman-openapi-'));
  });
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('passes redocly lint with the recommended rules: no error, no warning', async () => {
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(doc));
    const lint = await run(
      path.join(ROOT, 'node_modules/.bin/redocly'),
      ['lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'json'],
      // No usage report and no update check: the test makes no call out of the machine.
      { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    const report = JSON.parse(lint.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
    };
    const problems = report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('generates the client types committed in openapi/yueman-api.ts (vitest -u writes them anew)', async () => {
    const types = COMMENT_HEADER + astToString(await openapiTS(doc, { silent: true }));
    await expect(types).toMatchFileSnapshot('./openapi/yueman-api.ts');
  });

  it('serves a generated client: a visitor registers, reads a free chapter, recharges and buys a chapter', async () => {
    const client = createClient<paths>({ baseUrl: base });
    // The readers' session is the cookie the document's security scheme names, kept here as a browser would.
    expect(doc.components?.securitySchemes?.sid).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'sid' });
    let cookie = '';
    client.use({
      onRequest: ({ request }) => {
        if (cookie) request.headers.set('cookie', cookie);
        return request;
      },
      onResponse: ({ response }) => {
        const set = response.headers.getSetCookie().find((c) => c.startsWith('sid='));
        if (set) cookie = set.split(';')[0] ?? '';
        return response;
      },
    });

    const registered = await client.POST('/api/user/register', {});
    expect(registered.data?.result).toBe(true);
    expect(cookie).not.toBe('');

    const detail = await client.GET('/api/book/detail/{bookId}', { params: { path: { bookId: 1 } } });
    const chapters = detail.data?.data.chapterList ?? [];
    const free = chapters.find((c) => c.price === 0);
    const priced = chapters.find((c) => c.price > 0);
    if (!free || !priced) throw new Error('book 1 of the demo library has no free or no priced chapter');
    const read = await client.GET('/api/book/read_chapter', {
      params: { query: { bookId: 1, number: free.number } },
    });
    expect(read.data?.result).toBe(true);
    expect(read.data?.data.bookPics.length).toBeGreaterThan(0);

    // No coins yet: code 999, a business outcome answered with HTTP 200.
    const short = await client.POST('/api/book/chapter/buy', {
      params: { query: { chapterId: priced.chapterId } },
    });
    expect(short.response.status).toBe(200);
    expect(short.data).toMatchObject({ result: false, code: 999 });

    // The recharge centre's first coin pack, through the app channel of the sandbox gateway; its notification is
    // the gateway's own call, signed with the sandbox's key, not the client's.
    const centre = await client.GET('/api/user/recharge', { params: { query: { appType: 'shell' } } });
    const pack = centre.data?.data.payConfigs.find((p) => p.type === 'coin');
    const channel = centre.data?.data.subTypes.find((s) => s.subTypeCode === 'alipay_app');
    if (!pack || !channel) throw new Error('the recharge centre offers no coin pack through alipay_app');
    const amount = payAmountOf(pack.amountLevel, channel.discount);
    const applied = await client.GET('/h5/pay/apply', {
      params: {
        query: {
          appType: 'shell',
          payChannel: 'alipay_app',
          payPurpose: 'coin',
          payPurposeId: pack.id,
          rechargerAmount: amount,
        },
      },
    });
    const orderNo = applied.data?.data.orderNo ?? '';
    const notified = await fetch(`${base}/api/pay/notify/alipay_app`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: notificationBody(t.config.sandboxPayKey, { orderNo, amount: String(amount) }),
    });
    expect(notified.status).toBe(200);
    const coins = pack.itemCount + pack.presentCount;
    const info = await client.GET('/api/user/info');
    expect(info.data?.data.avaliableAmount).toBe(coins);

    const bought = await client.POST('/api/book/chapter/buy', {
      params: { query: { chapterId: priced.chapterId } },
    });
    expect(bought.data).toMatchObject({
      result: true,
      data: { chapterId: priced.chapterId, charged: priced.price, avaliableAmount: coins - priced.price },
    });

    // A refusal is typed by the document too: a chapter that does not exist is 404 in the envelope.
    const missing = await client.POST('/api/book/chapter/buy', {
      params: { query: { chapterId: 2147483647 } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ result: false, code: 404 });
  });
});
