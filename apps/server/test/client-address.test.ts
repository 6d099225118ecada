// The client address behind proxies (docs/api.md section 2): a forged X-Forwarded-For never changes it, and readers
// behind the operator's proxy are told apart.
import { afterEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-app.ts';
import { describeDb } from './test-database.ts';

describeDb('client address', () => {
  let t: TestApp | undefined;
  afterEach(() => t?.close());

  const register = (from: string, forwarded?: string) =>
    t?.app.inject({
      method: 'POST',
      url: '/api/user/register',
      remoteAddress: from,
      headers: forwarded ? { 'x-forwarded-for': forwarded } : {},
    });

  it('ignores X-Forwarded-For when no proxy is trusted: a forged header does not dodge the limit', async () => {
    t = await createTestApp({ seed: false, env: { REGISTER_PER_HOUR: '2' } });
    for (const forged of ['1.1.1.1', '2.2.2.2'])
      expect((await register('203.0.113.9', forged))?.statusCode).toBe(200);
    expect((await register('203.0.113.9', '3.3.3.3'))?.statusCode).toBe(429);
  });

  it('with one trusted hop takes the address the proxy added, not the one the client wrote', async () => {
    t = await createTestApp({ seed: false, env: { REGISTER_PER_HOUR: '2', TRUST_PROXY: '1' } });
    // The client writes its own left-most entries; the proxy appends the address it saw.
    expect((await register('10.0.0.2', '9.9.9.9, 198.51.100.7'))?.statusCode).toBe(200);
    expect((await register('10.0.0.2', '8.8.8.8, 198.51.100.7'))?.statusCode).toBe(200);
    expect((await register('10.0.0.2', '7.7.7.7, 198.51.100.7'))?.statusCode).toBe(429);
    // Another reader behind the same proxy has a limit of its own.
    expect((await register('10.0.0.2', '198.51.100.8'))?.statusCode).toBe(200);
  });

  it('with a list of proxies believes the header only from them', async () => {
    t = await createTestApp({ seed: false, env: { REGISTER_PER_HOUR: '1', TRUST_PROXY: '10.0.0.0/8' } });
    expect((await register('10.1.2.3', '198.51.100.7'))?.statusCode).toBe(200);
    expect((await register('10.9.9.9', '198.51.100.7'))?.statusCode).toBe(429);
    // Not from a trusted proxy: the header is the client's own writing, and the socket address counts.
    expect((await register('203.0.113.5', '198.51.100.99'))?.statusCode).toBe(200);
    expect((await register('203.0.113.5', '198.51.100.100'))?.statusCode).toBe(429);
  });

  it('keeps a well-formed X-Request-Id and replaces anything else', async () => {
    t = await createTestApp({ seed: false });
    const ids: string[] = [];
    t.app.addHook('onResponse', async (req) => {
      ids.push(req.id);
    });
    await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'edge-42.abc:7' } });
    await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'x'.repeat(65) } });
    await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'a b\n{"level":60}' } });
    expect(ids[0]).toBe('edge-42.abc:7');
    for (const id of ids.slice(1)) expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
