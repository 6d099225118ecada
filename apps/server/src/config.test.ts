import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/yueman-config-test', ...env });

describe('TRUST_PROXY', () => {
  it('is off by default and takes a hop count or proxy addresses and ranges', () => {
    expect(load({}).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(load({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses "trust everything" and anything that is not an address, a range or a hop count', () => {
    for (const bad of ['true', 'yes', '10.0.0.0/33', '10.0.0', 'proxy.example.com', '17', '1.2.3.4/8/1']) {
      expect(() => load({ TRUST_PROXY: bad }), bad).toThrow(ConfigError);
    }
    expect(() => load({ TRUST_PROXY: 'true' })).toThrow(/hop count|CIDR/);
  });
});

describe('WEB_CONCURRENCY', () => {
  const pg = { DATABASE_URL: 'postgres://u@127.0.0.1/db' };
  it('is every core, on either database, or what it says', () => {
    expect(load({}).webConcurrency).toBe(availableParallelism());
    expect(load(pg).webConcurrency).toBe(availableParallelism());
    expect(load({ ...pg, WEB_CONCURRENCY: '3' }).webConcurrency).toBe(3);
    expect(load({ WEB_CONCURRENCY: '2' }).webConcurrency).toBe(2);
    expect(load({ WEB_CONCURRENCY: '1' }).webConcurrency).toBe(1);
  });

  it('refuses anything that is not a count', () => {
    for (const bad of ['0', '-1', 'two', '1.5', '100']) {
      expect(() => load({ ...pg, WEB_CONCURRENCY: bad }), bad).toThrow(ConfigError);
    }
  });
});

describe('defaults', () => {
  it('fills in every unset variable', () => {
    const config = load({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: undefined,
      imageRoot: '/tmp/yueman-config-test/images',
      imageCacheDir: '/tmp/yueman-config-test/image-cache',
      publicOrigin: 'http://localhost:8080',
      staticApiBase: '',
      dynamicApiBase: '',
      imageBase: '',
      payNotifyBase: '',
      demoLibrary: true,
      logLevel: 'info',
      registerPerHour: 30,
      loginFailuresPerAccount: 10,
      loginFailuresPerAddress: 30,
      findAccountPerHour: 10,
      findAccountPerOrderPerHour: 5,
      payOrderMinutes: 15,
      sandboxPay: true,
      sandboxMerchantId: 'ym-sandbox',
    });
    expect(config.webDist).toMatch(/apps\/web\/dist$/);
    expect(config.trustedOrigins).toEqual([
      'http://localhost:8080',
      'http://127.0.0.1:8080',
      'http://[::1]:8080',
    ]);
  });

  it('derives the public origin from PORT, and the sandbox is on only for a local origin unless told', () => {
    expect(load({ PORT: '9000' }).publicOrigin).toBe('http://localhost:9000');
    const site = { PUBLIC_ORIGIN: 'https://m.example.com/' };
    expect(load(site)).toMatchObject({ publicOrigin: 'https://m.example.com', sandboxPay: false });
    expect(load({ ...site, SANDBOX_PAY: '' }).sandboxPay).toBe(false);
    expect(load({ ...site, SANDBOX_PAY: 'YES' }).sandboxPay).toBe(true);
    expect(load({ SANDBOX_PAY: '0' }).sandboxPay).toBe(false);
    expect(load({ DEMO_LIBRARY: 'No' }).demoLibrary).toBe(false);
  });

  it('trusts the public origin, the API bases and ALLOWED_ORIGINS', () => {
    const config = load({
      PUBLIC_ORIGIN: 'https://m.example.com',
      STATIC_API_BASE: ' https://static.example.com/api/ ',
      DYNAMIC_API_BASE: 'https://m.example.com/api',
      ALLOWED_ORIGINS: 'https://a.example.com, https://b.example.com/,',
    });
    expect(config.staticApiBase).toBe('https://static.example.com/api');
    expect(config.trustedOrigins).toEqual([
      'https://m.example.com',
      'https://static.example.com',
      'https://a.example.com',
      'https://b.example.com',
    ]);
  });

  describe('keys', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'yueman-config-keys-'));
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

    it('are generated once into the data directory, unless given', () => {
      const first = loadConfig({ DATA_DIR: dataDir });
      expect(readFileSync(path.join(dataDir, 'cover-key.hex'), 'utf8')).toBe(first.coverKey.toString('hex'));
      const again = loadConfig({ DATA_DIR: dataDir });
      for (const key of ['coverKey', 'pageGrantKey', 'sandboxPayKey'] as const) {
        expect(first[key]).toHaveLength(32);
        expect(again[key].equals(first[key]), key).toBe(true);
      }
      const given = 'aB'.repeat(32);
      expect(loadConfig({ DATA_DIR: dataDir, PAGE_GRANT_KEY: given }).pageGrantKey.toString('hex')).toBe(
        given.toLowerCase(),
      );
    });
  });
});

describe('a bad value', () => {
  it.each([
    ['PORT', '65536'],
    ['PORT', 'eighty'],
    ['DEMO_LIBRARY', 'on'],
    ['SANDBOX_PAY', 'maybe'],
    ['REGISTER_PER_HOUR', '0'],
    ['LOGIN_FAILURES_PER_ACCOUNT', '1.5'],
    ['PAY_ORDER_MINUTES', '1441'],
    ['SANDBOX_MERCHANT_ID', 'a b'],
    ['PUBLIC_ORIGIN', 'https://m.example.com/app'],
    ['STATIC_API_BASE', 'ftp://files.example.com'],
    ['IMAGE_BASE', 'img.example.com'],
    ['PAY_NOTIFY_BASE', '//notify'],
    ['ALLOWED_ORIGINS', 'https://a.example.com/path'],
    ['TRUST_PROXY', 'everything'],
    ['LOG_LEVEL', 'verbose'],
  ])('of %s (%s) stops the server with a message naming it', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(ConfigError);
    expect(() => load({ [name]: value })).toThrow(new RegExp(`^${name}\\b.*${value.replace('.', '\\.')}`));
  });

  it('of a secret names it without repeating it', () => {
    for (const [name, value] of [
      ['COVER_KEY', 'not-a-key'],
      ['PAGE_GRANT_KEY', 'ab'.repeat(31)],
      ['SANDBOX_PAY_KEY', ''],
      ['DATABASE_URL', 'mysql://root:hunter2@db/yueman'],
    ] as const) {
      const message = (() => {
        try {
          load({ [name]: value });
        } catch (err) {
          expect(err, name).toBeInstanceOf(ConfigError);
          return (err as Error).message;
        }
      })();
      expect(message, name).toMatch(new RegExp(`^${name} must be `));
      if (value) expect(message, name).not.toContain(value);
    }
  });

  it('of several variables names each of them', () => {
    expect(() => load({ PORT: '-1', DEMO_LIBRARY: 'maybe' })).toThrow(
      'PORT must be a whole number from 0 to 65535, got "-1"; DEMO_LIBRARY must be true or false, got "maybe"',
    );
  });
});
