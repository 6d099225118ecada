import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, describeDb, type TestDatabase } from '../../test/test-database.ts';
import { users } from '../db/schema/index.ts';
import { loggerOptions, redactUrl } from './logging.ts';
import { hashPassword } from './passwords/password.ts';

/** A logger with the server's settings, writing into a string. */
function capture() {
  let text = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      text += chunk;
      done();
    },
  });
  return { log: pino(loggerOptions('debug'), sink), text: () => text };
}

describeDb('database errors in the log', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());

  it('are logged by code and constraint, never with their parameters', async () => {
    const hash = await hashPassword('a-password-nobody-may-log');
    const row = { account: 'yd00000077', passwordHash: hash, visitorId: 'visitor-0077' };
    await database.db.insert(users).values(row);
    const err = await database.db
      .insert(users)
      .values(row)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(String((err as Error).message)).toContain(hash.slice(0, 30));

    const { log, text } = capture();
    log.error({ err }, 'unexpected error');
    const line = JSON.parse(text());
    expect(line.err).toMatchObject({
      type: 'DatabaseError',
      code: '23505',
      constraint: 'users_account_unique',
    });
    expect(text()).not.toContain('$argon2id$');
    expect(text()).not.toContain('visitor-0077');
    expect(text()).not.toContain('yd00000077');
  });
});

describe('request URLs in the log', () => {
  it('lose the query of the account calls and notifications, and secret parameters elsewhere', () => {
    expect(redactUrl('/api/user/login?account=yd1&password=p')).toBe('/api/user/login?[redacted]');
    expect(redactUrl('/api/user/modifyPwd?password=p')).toBe('/api/user/modifyPwd?[redacted]');
    expect(redactUrl('/api/pay/notify/alipay_wap?sign=s')).toBe('/api/pay/notify/alipay_wap?[redacted]');
    expect(redactUrl('/api/book/new/1')).toBe('/api/book/new/1');
    expect(redactUrl('/h5/pay/apply?userId=3&payChannel=a&token=t&Sign=x')).toBe(
      '/h5/pay/apply?userId=3&payChannel=a&token=%5Bredacted%5D&Sign=%5Bredacted%5D',
    );
    expect(redactUrl('/h5/pay/wechat/jsapi?orderNo=YM1&code=c0de&state=YM1&again=1')).toBe(
      '/h5/pay/wechat/jsapi?orderNo=%5Bredacted%5D&code=%5Bredacted%5D&state=%5Bredacted%5D&again=1',
    );
  });

  it('keep credential headers out wherever they are logged', () => {
    const { log, text } = capture();
    log.info({ req: { headers: { cookie: 'sid=abc123secret', authorization: 'Bearer xyz789secret' } } }, 'x');
    log.info({ headers: { cookie: 'sid=abc123secret' }, password: 'pw-secret-1' }, 'y');
    expect(text()).not.toMatch(/abc123secret|xyz789secret|pw-secret-1/);
  });
});
