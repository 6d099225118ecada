// The whole server's log, at debug level, after the calls that carry secrets: no password, session token,
// signature, credential header or password hash may be in it.
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDataDir } from './data-dirs.ts';
import { freePort, type ServerProcess, startServer } from './server-process.ts';
import { dbKind } from './test-database.ts';

// One run is enough: the log is the process's, whichever database is behind it.
describe.skipIf(dbKind !== 'pglite')('the log of a real server', () => {
  let server: ServerProcess;
  let dataDir: string;
  const secrets: string[] = [];

  beforeAll(async () => {
    dataDir = await newDataDir('logs');
    server = await startServer(await freePort(), {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'debug',
      DEMO_LIBRARY: 'false',
    });
  }, 120_000);
  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await rm(dataDir, { recursive: true, force: true });
  });

  const call = (
    method: string,
    url: string,
    init: { cookie?: string; headers?: Record<string, string>; body?: string } = {},
  ) =>
    fetch(`${server.base}${url}`, {
      method,
      headers: {
        ...(init.cookie ? { cookie: init.cookie } : {}),
        ...(init.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...init.headers,
      },
      body: init.body,
    });
  const sid = (res: Response) => {
    const cookie = res.headers.get('set-cookie') ?? '';
    const token = /sid=([^;]+)/.exec(cookie)?.[1] ?? '';
    secrets.push(token);
    return `sid=${token}`;
  };

  it('holds none of the secrets the calls carried', async () => {
    const registered = await call('POST', '/api/user/register');
    const cookie = sid(registered);
    const { account, password } = (await registered.json()).data;
    secrets.push(password);

    const loggedIn = await call('POST', `/api/user/login?account=${account}&password=${password}`);
    expect((await loggedIn.json()).result).toBe(true);
    const cookie2 = sid(loggedIn);
    const wrong = 'WrongGuess-7Hq2';
    secrets.push(wrong);
    await call('POST', `/api/user/login?account=${account}&password=${wrong}`);
    await call('POST', '/api/user/login', { body: `account=${account}&password=${wrong}` });

    await call('POST', `/api/user/bind_mobile?mobile=13911112222&password=${password}`, { cookie: cookie2 });
    const newPassword = 'NewSecret-9Kd3';
    secrets.push(newPassword);
    expect(
      (await (await call('POST', `/api/user/modifyPwd?password=${newPassword}`, { cookie: cookie2 })).json())
        .result,
    ).toBe(true);

    const orderNo = 'YM20240101ABCDEF0123456789';
    secrets.push(orderNo);
    await call('POST', `/api/user/find_account?chargeTime=2024-01-01&orderNo=${orderNo}&payAmount=30`);

    const sign = 'c0ffee'.repeat(10);
    secrets.push(sign);
    await call('POST', `/api/pay/notify/alipay_wap?sign=${sign}`, {
      body: `amount=1&merchantId=m&nonce=n&orderNo=YM1&timestamp=1&tradeNo=T1&sign=${sign}`,
    });

    const bearer = 'Bearer AuthSecret-5Zx8';
    secrets.push('AuthSecret-5Zx8');
    await call('GET', '/api/user/info', { cookie: `${cookie}; other=1`, headers: { authorization: bearer } });
    await call('GET', `/api/book/search?content=x&token=TokenSecret-3Qw1`, {
      headers: { authorization: bearer },
    });
    secrets.push('TokenSecret-3Qw1');
    await call('POST', `/api/user/modifyPwd?password=${newPassword}`, { cookie });

    server.kill('SIGTERM');
    await server.exited;
    const log = server.output();
    expect(log).toContain('"url":"/api/user/login?[redacted]"');
    expect(log.length).toBeGreaterThan(1000);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(5);
      expect(log.includes(secret), `the log holds ${secret}`).toBe(false);
    }
    expect(log).not.toMatch(/\$argon2id\$/);
  }, 60_000);
});

// A merchant order number (with its day and amount) recovers an account, so the log at the level
// servers run at names orders by a hash only (payments/order-ref.ts), and console paths lose the number.
describe.skipIf(dbKind !== 'pglite')('order numbers in the log of a real server', () => {
  let server: ServerProcess;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await newDataDir('logs-orders', 'demo');
    server = await startServer(await freePort(), { DATA_DIR: dataDir, LOG_LEVEL: 'info' });
  }, 120_000);
  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await rm(dataDir, { recursive: true, force: true });
  });

  it('holds no order number after a sandbox payment and a console call naming it', async () => {
    const registered = await fetch(`${server.base}/api/user/register`, { method: 'POST' });
    const cookie = /sid=[^;]+/.exec(registered.headers.get('set-cookie') ?? '')?.[0] ?? '';
    const { userId } = (await registered.json()).data;
    const query = new URLSearchParams({
      rechargerAmount: '2850',
      payPurposeId: '2',
      payChannel: 'wechat_h5',
      payPurpose: 'coin',
      appType: 'wap_browser',
      branchId: '-2',
      userId: String(userId),
    });
    const applied = await fetch(`${server.base}/h5/pay/apply?${query}`, {
      headers: { cookie },
      redirect: 'manual',
    });
    expect(applied.status).toBe(302);
    const cashier = new URL(applied.headers.get('location') ?? '').pathname;
    const page = await (await fetch(`${server.base}${cashier}`)).text();
    const orderNo = /data-order-no>([A-Z0-9]+)</.exec(page)?.[1] ?? '';
    expect(orderNo).toMatch(/^YM\d{8}[0-9A-F]{16}$/);
    const confirmed = await fetch(`${server.base}${cashier}/confirm`, { method: 'POST', redirect: 'manual' });
    expect(confirmed.status).toBe(302);
    await expect
      .poll(
        async () =>
          (await (await fetch(`${server.base}/api/user/info`, { headers: { cookie } })).json()).data,
        { timeout: 30_000 },
      )
      .toMatchObject({ avaliableAmount: 3300 });
    // An operator (here: no session) opening the order's story and refunding it: the number is in the path.
    await fetch(`${server.base}/api/admin/orders/${orderNo}`);
    await fetch(`${server.base}/api/admin/orders/${orderNo.toLowerCase()}/refunds`, { method: 'POST' });

    server.kill('SIGTERM');
    await server.exited;
    const log = server.output();
    // The payment's lines are there, naming the order by its hash.
    const ref = createHash('sha256').update(orderNo).digest('hex').slice(0, 12);
    expect(log).toContain(`"order":"${ref}"`);
    expect(log).toContain('"url":"/api/admin/orders/[redacted]"');
    expect(log.toUpperCase().includes(orderNo), 'the log holds the order number').toBe(false);
  }, 90_000);
});
