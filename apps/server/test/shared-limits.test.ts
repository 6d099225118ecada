// Rate limits and attempt counters are counted where every server counts (shared/limiter-store.ts): a limit reached
// through one server holds on another server on the same database, and after a restart; with REDIS_URL, the same
// in Redis. Every limit: registration, pay apply (per address, @fastify/rate-limit), login failures (per account and
// address) and find-account attempts (per order number).
import { rm } from 'node:fs/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenedDatabase, openDatabase } from '../src/db/client.ts';
import { rateLimits } from '../src/db/schema/index.ts';
import { applyUrl, demo } from '../src/modules/payments/payments.test-support.ts';
import { newDataDir } from './data-dirs.ts';
import { hasRedis, type RedisServer, startRedis } from './stack/redis.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { createTestDatabase, dbAvailable, dbKind, describeDb } from './test-database.ts';
import { login, post, registerVisitor, type TestVisitor } from './visitors.ts';

const env = {
  REGISTER_PER_HOUR: '2',
  LOGIN_FAILURES_PER_ACCOUNT: '3',
  FIND_ACCOUNT_PER_HOUR: '1000',
  FIND_ACCOUNT_PER_ORDER_PER_HOUR: '2',
  // Payers from addresses of their own: the sandbox takes them only when the operator says so.
  SANDBOX_PAY: 'true',
};
/** Pay apply's limit per client address per minute (payments.routes.ts). */
const APPLY_PER_MINUTE = 60;

const ip = {
  register: '198.51.100.20',
  guesser: '198.51.100.22',
  payer: '198.51.100.23',
};
const ORDER_NO = `YM20240101${'C'.repeat(16)}`;
const coinApply = applyUrl({ ...demo.coin3000, payChannel: 'wechat_h5', rechargerAmount: 2850 });

const register = (t: TestApp, from: string) => post(t, '/api/user/register', {}, { ip: from });
const findAccount = (t: TestApp, from: string) =>
  post(
    t,
    '/api/user/find_account',
    { chargeTime: '2024-01-01', orderNo: ORDER_NO, payAmount: '30' },
    { ip: from },
  );
const apply = (t: TestApp, reader: TestVisitor, from: string) =>
  t.app.inject({ url: coinApply, headers: { cookie: reader.cookie }, remoteAddress: from });

/** Uses up every limit through `t`; answers the reader whose account and address the guesser locked. */
async function reachLimits(t: TestApp): Promise<TestVisitor> {
  for (let i = 0; i < 2; i++) expect((await register(t, ip.register)).statusCode).toBe(200);
  const reader = await registerVisitor(t, { ip: '198.51.100.21' });
  for (let i = 0; i < 3; i++) {
    expect((await login(t, reader.account, `guess-${i}`, { ip: ip.guesser })).json()).toMatchObject({
      result: false,
      code: 102,
    });
  }
  for (const from of ['198.51.100.31', '198.51.100.32']) {
    expect((await findAccount(t, from)).json()).toMatchObject({ result: false, code: 404 });
  }
  for (let i = 0; i < APPLY_PER_MINUTE; i++) expect((await apply(t, reader, ip.payer)).statusCode).toBe(302);
  return reader;
}

/** Every limit reached through another server holds through `t`, with the answers of a limit; other addresses pass. */
async function expectLimited(t: TestApp, reader: TestVisitor) {
  const refused = await register(t, ip.register);
  expect(refused.statusCode).toBe(429);
  expect(refused.json()).toMatchObject({ result: false, code: 429 });
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
  expect((await register(t, '198.51.100.40')).statusCode).toBe(200);

  const locked = await login(t, reader.account, reader.password, { ip: ip.guesser });
  expect(locked.statusCode).toBe(429);
  expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  expect((await login(t, reader.account, reader.password, { ip: '198.51.100.41' })).json().result).toBe(true);

  const third = await findAccount(t, '198.51.100.33');
  expect(third.statusCode).toBe(429);
  expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);

  const applied = await apply(t, reader, ip.payer);
  expect(applied.statusCode).toBe(429);
  expect(applied.json()).toMatchObject({ result: false, code: 429 });
  expect(Number(applied.headers['retry-after'])).toBeGreaterThan(0);
  expect((await apply(t, reader, '198.51.100.42')).statusCode).toBe(302);
}

/** The database is dropped WITH (FORCE) at the end, which ends connections a pool may still be closing (57P01). */
const quietOnDrop = (err: Error) => {
  if ((err as { code?: string }).code !== '57P01') console.error('test database connection lost', err);
};

/**
 * One database as several servers see it: open() answers a handle of one server on it. On PostgreSQL each handle
 * is a pool of its own; on PGlite (one process owns it) every open handle is the same, kept in a data directory so
 * that once all are closed the next open() reads it back from disk, as a restarted server does.
 */
async function sharedDatabase() {
  if (dbKind === 'postgres') {
    const database = await createTestDatabase();
    const url = database.url ?? '';
    const handles: OpenedDatabase[] = [];
    return {
      async open() {
        const handle = await openDatabase({ kind: 'postgres', url, onPoolError: quietOnDrop });
        handles.push(handle);
        return handle;
      },
      async close() {
        await Promise.all(handles.map((h) => h.close().catch(() => undefined)));
        await database.close();
      },
    };
  }
  const dir = await newDataDir('shared');
  let current: OpenedDatabase | undefined;
  let users = 0;
  return {
    async open(): Promise<OpenedDatabase> {
      current ??= await openDatabase({ kind: 'pglite', dataDir: dir });
      const opened = current;
      users++;
      let closed = false;
      return {
        ...opened,
        async close() {
          if (closed) return;
          closed = true;
          if (--users === 0) {
            current = undefined;
            await opened.close();
          }
        },
      };
    },
    async close() {
      await current?.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

type Shared = Awaited<ReturnType<typeof sharedDatabase>>;

async function twoServers(shared: Shared, extraEnv: Record<string, string> = {}) {
  const [first, second] = [await shared.open(), await shared.open()];
  const a = await createTestApp({ db: first.db, env: { ...env, ...extraEnv } });
  const b = await createTestApp({ db: second.db, env: { ...env, ...extraEnv }, seed: false });
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      await first.close();
      await second.close();
    },
  };
}

async function restarted(shared: Shared, extraEnv: Record<string, string> = {}) {
  const handle = await shared.open();
  const t = await createTestApp({ db: handle.db, env: { ...env, ...extraEnv }, seed: false });
  return {
    t,
    async close() {
      await t.close();
      await handle.close();
    },
  };
}

describeDb('limits in the database every server shares', () => {
  let shared: Shared;
  beforeAll(async () => {
    shared = await sharedDatabase();
  });
  afterAll(() => shared?.close());

  it('a limit reached through one server holds on another on the same database, and after a restart', async () => {
    const servers = await twoServers(shared);
    let reader: TestVisitor;
    try {
      reader = await reachLimits(servers.a);
      await expectLimited(servers.b, reader);
      expect(servers.a.app.limits.kind).toBe('database');
      expect((await servers.a.db.select().from(rateLimits)).length).toBeGreaterThan(0);
    } finally {
      await servers.close();
    }

    // Every server stopped (on PGlite the database closed too); a new one starts on the same database.
    const after = await restarted(shared);
    try {
      await expectLimited(after.t, reader);
    } finally {
      await after.close();
    }
  }, 120_000); // servers on a data directory of their own start slowly on a loaded machine

  it('removes counts whose window ended, in the limits sweeper', async () => {
    const { t, close } = await restarted(shared);
    try {
      const counted = await t.db.select().from(rateLimits);
      expect(counted.length).toBeGreaterThan(0);
      await t.db.update(rateLimits).set({ expire: new Date(Date.now() - 1000) });
      expect(await t.app.jobs.runOnce('limits-sweeper')).toEqual({ ran: true, more: false });
      expect(await t.db.select().from(rateLimits)).toEqual([]);
      // A window that ended no longer counts: the address registers again.
      expect((await register(t, ip.register)).statusCode).toBe(200);
    } finally {
      await close();
    }
  });
});

// CI installs redis-server (.ci/run); elsewhere without it this part is skipped.
if (!hasRedis()) {
  if (process.env.CI) throw new Error('redis-server not found (Debian package redis-server): CI needs it');
  console.warn('redis-server not found: the tests of the limits in Redis are skipped');
}

describe.skipIf(!hasRedis() || !dbAvailable)('limits in Redis (REDIS_URL)', () => {
  let redis: RedisServer;
  let shared: Shared;
  beforeAll(async () => {
    redis = await startRedis();
    shared = await sharedDatabase();
  });
  afterAll(async () => {
    await shared?.close();
    await redis?.stop();
  });

  it('holds a limit reached through one server on another, and after a restart; the database counts nothing', async () => {
    const redisEnv = { REDIS_URL: redis.url };
    const servers = await twoServers(shared, redisEnv);
    let reader: TestVisitor;
    try {
      expect(servers.a.app.limits.kind).toBe('redis');
      reader = await reachLimits(servers.a);
      await expectLimited(servers.b, reader);
      expect(await servers.a.db.select().from(rateLimits)).toEqual([]);
      expect(servers.a.app.jobs.names).not.toContain('limits-sweeper');
    } finally {
      await servers.close();
    }
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys('yueman:limit:*');
      expect(keys).toEqual(
        expect.arrayContaining([
          `yueman:limit:route:POST /api/user/register:${ip.register}`,
          `yueman:limit:password:address:${ip.guesser}`,
          `yueman:limit:find-account-order:${ORDER_NO}`,
        ]),
      );
    } finally {
      client.disconnect();
    }

    const after = await restarted(shared, redisEnv);
    try {
      await expectLimited(after.t, reader);
    } finally {
      await after.close();
    }
  }, 120_000); // servers on a data directory of their own start slowly on a loaded machine
});
