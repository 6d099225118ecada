import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Where source images live; demo drawings are written here on first request. */
  imageRoot: string;
  /** Resized WebP files, one per path and width. */
  imageCacheDir: string;
  /** AES-256-GCM key for covers, 32 bytes. */
  coverKey: Buffer;
  /** HMAC-SHA256 key of the grants on priced pages, 32 bytes; the same on every server. */
  pageGrantKey: Buffer;
  publicOrigin: string;
  staticApiBase: string;
  dynamicApiBase: string;
  /**
   * Origins whose pages may send state-changing requests and frame our pages: PUBLIC_ORIGIN, the origins of the API
   * bases, and ALLOWED_ORIGINS.
   */
  trustedOrigins: string[];
  imageBase: string;
  demoLibrary: boolean;
  logLevel: string;
  /**
   * Which proxies' X-Forwarded-For entries to believe: false (none: the socket address), a hop count, or the
   * proxies' addresses / CIDR ranges. Never 'everything', which would let a client write its own address.
   */
  trustProxy: false | number | string[];
  registerPerHour: number;
  /** Failed password attempts per account, and per client address, in 15 minutes before 429. */
  loginFailuresPerAccount: number;
  loginFailuresPerAddress: number;
  findAccountPerHour: number;
  /** find_account attempts per merchant order number per hour, from any address. */
  findAccountPerOrderPerHour: number;
  webDist: string;
  /** HMAC-SHA256 key the sandbox gateway signs its notifications with, 32 bytes. */
  sandboxPayKey: Buffer;
  /**
   * Whether the built-in sandbox gateway takes payments: it gives coins away, so only on a local origin unless the
   * operator says SANDBOX_PAY=true (docs/contract.md section 4).
   */
  sandboxPay: boolean;
  /** Our merchant id at the sandbox gateway; a notification for another merchant is refused. */
  sandboxMerchantId: string;
  /** Where gateways send notifications; empty means this server's own loopback address once it listens. */
  payNotifyBase: string;
  /** How long an unpaid order stays 'created' before the sweeper expires it. */
  payOrderMinutes: number;
}

export class ConfigError extends Error {}

const defaults = {
  PORT: '8080',
  HOST: '0.0.0.0',
  DATA_DIR: './data',
  LOG_LEVEL: 'info',
  DEMO_LIBRARY: 'true',
  TRUST_PROXY: 'false',
  REGISTER_PER_HOUR: '30',
  LOGIN_FAILURES_PER_ACCOUNT: '10',
  LOGIN_FAILURES_PER_ADDRESS: '30',
  FIND_ACCOUNT_PER_HOUR: '10',
  FIND_ACCOUNT_PER_ORDER_PER_HOUR: '5',
  PAY_ORDER_MINUTES: '15',
  SANDBOX_PAY: '',
} as const;

function integer(env: NodeJS.ProcessEnv, name: keyof typeof defaults, min: number, max: number): number {
  const raw = env[name] ?? defaults[name];
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: keyof typeof defaults): boolean {
  const raw = (env[name] ?? defaults[name]).toLowerCase();
  if (['1', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function base(env: NodeJS.ProcessEnv, name: string): string {
  const raw = (env[name] ?? '').trim().replace(/\/+$/, '');
  if (raw !== '' && !/^https?:\/\/[^/]+/.test(raw)) {
    throw new ConfigError(`${name} must be empty (same origin) or an http(s) URL, got "${raw}"`);
  }
  return raw;
}

/** A 32-byte key from the variable `name`, or generated once and kept in the data directory as `fileName`. */
function storedKey(env: NodeJS.ProcessEnv, dataDir: string, name: string, fileName: string): Buffer {
  const raw = env[name];
  if (raw !== undefined) {
    if (!/^[0-9a-fA-F]{64}$/.test(raw)) throw new ConfigError(`${name} must be 64 hexadecimal characters`);
    return Buffer.from(raw, 'hex');
  }
  const file = path.join(dataDir, fileName);
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex'), { mode: 0o600 });
  return key;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** A proxy address or range as proxy-addr reads it: an IP, an IP/prefix, or one of its named ranges. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [ip = '', prefix, ...rest] = entry.split('/');
  const version = isIP(ip);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (version === 4 ? 32 : 128);
}

function trustProxy(raw: string): Config['trustProxy'] {
  const value = raw.trim().toLowerCase();
  if (['', 'false', 'no', '0'].includes(value)) return false;
  if (['true', 'yes'].includes(value)) {
    throw new ConfigError(
      'TRUST_PROXY=true would believe any X-Forwarded-For a client writes: set the number of proxies in front of the server (e.g. 1) or their addresses / CIDR ranges (e.g. 10.0.0.0/8,127.0.0.1)',
    );
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 16) throw new ConfigError(`TRUST_PROXY hop count must be from 1 to 16, got "${raw}"`);
    return hops;
  }
  const entries = value.split(',').map((e) => e.trim());
  const bad = entries.find((e) => !isProxyAddress(e));
  if (bad !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must be false, a hop count, or a comma list of proxy addresses / CIDR ranges; "${bad}" is none of these`,
    );
  }
  return entries;
}

function origins(raw: string): string[] {
  const list = raw
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter((o) => o !== '');
  const bad = list.find((o) => !/^https?:\/\/[^/?#\s]+$/.test(o));
  if (bad !== undefined) {
    throw new ConfigError(
      `ALLOWED_ORIGINS must be a comma list of origins such as https://m.example.com, got "${bad}"`,
    );
  }
  return list;
}

const originOf = (base: string) => (base === '' ? [] : [new URL(base).origin]);

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
/** A local origin (the default, for trying the service out) is the same site under each loopback name. */
export function isLocalOrigin(origin: string): boolean {
  const url = new URL(origin);
  return url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname);
}
function loopbackAliases(origin: string): string[] {
  if (!isLocalOrigin(origin)) return [origin];
  const port = new URL(origin).port;
  return LOOPBACK_HOSTS.map((host) => `http://${host}${port ? `:${port}` : ''}`);
}

function merchantId(raw: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(raw)) {
    throw new ConfigError(`SANDBOX_MERCHANT_ID must be 1 to 64 letters, digits, _ or -, got "${raw}"`);
  }
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 0, 65535);
  const dataDir = path.resolve(env.DATA_DIR ?? defaults.DATA_DIR);
  const publicOrigin = (env.PUBLIC_ORIGIN ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+$/.test(publicOrigin)) {
    throw new ConfigError(
      `PUBLIC_ORIGIN must be an origin such as https://m.example.com, got "${publicOrigin}"`,
    );
  }
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  return {
    port,
    host: env.HOST ?? defaults.HOST,
    dataDir,
    databaseUrl,
    imageRoot: path.resolve(env.IMAGE_ROOT ?? path.join(dataDir, 'images')),
    imageCacheDir: path.resolve(env.IMAGE_CACHE_DIR ?? path.join(dataDir, 'image-cache')),
    coverKey: storedKey(env, dataDir, 'COVER_KEY', 'cover-key.hex'),
    pageGrantKey: storedKey(env, dataDir, 'PAGE_GRANT_KEY', 'page-grant-key.hex'),
    publicOrigin,
    staticApiBase: base(env, 'STATIC_API_BASE'),
    dynamicApiBase: base(env, 'DYNAMIC_API_BASE'),
    trustedOrigins: [
      ...new Set([
        ...loopbackAliases(publicOrigin),
        ...originOf(base(env, 'STATIC_API_BASE')),
        ...originOf(base(env, 'DYNAMIC_API_BASE')),
        ...origins(env.ALLOWED_ORIGINS ?? ''),
      ]),
    ],
    imageBase: base(env, 'IMAGE_BASE'),
    demoLibrary: flag(env, 'DEMO_LIBRARY'),
    logLevel: env.LOG_LEVEL ?? defaults.LOG_LEVEL,
    trustProxy: trustProxy(env.TRUST_PROXY ?? defaults.TRUST_PROXY),
    registerPerHour: integer(env, 'REGISTER_PER_HOUR', 1, 100_000),
    loginFailuresPerAccount: integer(env, 'LOGIN_FAILURES_PER_ACCOUNT', 1, 10_000),
    loginFailuresPerAddress: integer(env, 'LOGIN_FAILURES_PER_ADDRESS', 1, 100_000),
    findAccountPerHour: integer(env, 'FIND_ACCOUNT_PER_HOUR', 1, 100_000),
    findAccountPerOrderPerHour: integer(env, 'FIND_ACCOUNT_PER_ORDER_PER_HOUR', 1, 1000),
    webDist: path.resolve(env.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    sandboxPayKey: storedKey(env, dataDir, 'SANDBOX_PAY_KEY', 'sandbox-pay-key.hex'),
    sandboxPay:
      env.SANDBOX_PAY === undefined || env.SANDBOX_PAY === ''
        ? isLocalOrigin(publicOrigin)
        : flag(env, 'SANDBOX_PAY'),
    sandboxMerchantId: merchantId(env.SANDBOX_MERCHANT_ID ?? 'ym-sandbox'),
    payNotifyBase: base(env, 'PAY_NOTIFY_BASE'),
    payOrderMinutes: integer(env, 'PAY_ORDER_MINUTES', 2, 1440),
  };
}
