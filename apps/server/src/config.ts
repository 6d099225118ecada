import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import envSchema, { type EnvSchemaOpt } from 'env-schema';
import { type NoticeSettings, noticeSettings } from './config-notices.ts';
import {
  type AlipaySettings,
  alipaySettings,
  type WechatPaySettings,
  wechatPaySettings,
} from './config-payments.ts';
import { configSchema, type Env, EXTRA_KEYWORDS, FLAG_TRUE, KEY_FILES } from './config-schema.ts';
import {
  allowedOrigins,
  apiBase,
  ConfigError,
  isLocalOrigin,
  publicOriginOf,
  trustedOrigins,
  trustProxy,
} from './config-values.ts';

export { ConfigError, isLocalOrigin };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** 'pgbouncer': the database is reached through a transaction-mode pooler (no named prepared statements). */
  databasePooler: 'none' | 'pgbouncer';
  /** Server processes on the port (workers.ts), each a whole server: with PostgreSQL only (PGlite: one process). */
  webConcurrency: number;
  /** Where the rate limits and attempt counters live; undefined: in the database. */
  redisUrl: string | undefined;
  /** Where source images live; demo drawings are written here on first request. */
  imageRoot: string;
  /** Resized WebP files, one per path and width. */
  imageCacheDir: string;
  /** Where source images and resized WebP files live: 'local' (imageRoot, imageCacheDir) or 's3' (the bucket `s3`). */
  storage: 'local' | 's3';
  /** The bucket's settings: set exactly when storage is 's3'. */
  s3: S3Settings | undefined;
  /** Real gateways: set when their keys are (config-payments.ts); their channels then go through them. */
  alipay: AlipaySettings | undefined;
  wechatPay: WechatPaySettings | undefined;
  /** WeChat notices: set when their templates are (config-notices.ts); without them the feature hides itself. */
  notices: NoticeSettings | undefined;
  payReconcileSeconds: number;
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
  /** Largest archive an operator may upload to import, in bytes. */
  importUploadBytes: number;
  /** With the embedded database: below this many free bytes in DATA_DIR's file system writes are refused; 0: off. */
  diskMarginBytes: number;
  /** The resident memory one server process is expected to stay under (MEMORY_BOUND_MB): a gauge and a warning. */
  memoryBoundBytes: number;
  /** Bytes of image answers kept in memory per process (IMAGE_MEMORY_CACHE_MB). */
  imageMemoryCacheBytes: number;
  /** Bytes of static answers and landing pages kept in memory per process (STATIC_CACHE_MB). */
  staticCacheBytes: number;
  /** The operators' console's build (apps/admin/dist), served at /admin. */
  adminDist: string;
  /** HMAC-SHA256 key the sandbox gateway signs its notifications with, 32 bytes. */
  sandboxPayKey: Buffer;
  /**
   * Whether the built-in sandbox gateway takes payments: it gives coins away, so only on a local origin unless the
   * operator says SANDBOX_PAY=true (docs/api.md section 4).
   */
  sandboxPay: boolean;
  /**
   * Whether the sandbox takes payments from any client: only when SANDBOX_PAY=true says so. On by default (a local
   * origin), it takes them from this machine's loopback only (docs/security.md).
   */
  sandboxPayAnyClient: boolean;
  /** Our merchant id at the sandbox gateway; a notification for another merchant is refused. */
  sandboxMerchantId: string;
  /** Where gateways send notifications; empty means this server's own loopback address once it listens. */
  payNotifyBase: string;
  /** How long an unpaid order stays 'created' before the sweeper expires it. */
  payOrderMinutes: number;
  /** Seconds between two passes of the order sweeper. */
  paySweepSeconds: number;
  /** On SIGTERM/SIGINT, how long requests in flight may take before their connections are closed. */
  drainSeconds: number;
  /** The bearer token of GET /metrics; undefined: /metrics answers 404. */
  metricsToken: string | undefined;
}

interface SchemaError {
  instancePath: string;
  message?: string;
}

/** The ajv that env-schema takes. */
type Ajv = Extract<NonNullable<EnvSchemaOpt['ajv']>, { compile: unknown }>;
// The first load's ajv (env-schema's defaults and our keywords) is kept with the schema it compiled: a new
// one would take some 25 ms, and the tests load many configurations.
let ajv: Ajv | undefined;

/** The environment checked against the schema, defaults filled in; a bad value names its variable. */
function validEnv(env: NodeJS.ProcessEnv): Env {
  try {
    return envSchema<Env>({
      schema: configSchema,
      data: env,
      // Only `env` is read, never process.env behind the caller's back.
      env: false,
      ajv: ajv ?? {
        customOptions: (fresh) => (ajv = EXTRA_KEYWORDS.reduce((a, k) => a.addKeyword(k), fresh)),
      },
    });
  } catch (err) {
    const errors = (err as { errors?: SchemaError[] }).errors;
    if (!errors) throw err;
    const first = new Map<string, SchemaError>();
    for (const e of errors) if (!first.has(e.instancePath)) first.set(e.instancePath, e);
    const messages = [...first.values()].map((e) => badValue(e.instancePath.slice(1), env, e));
    throw new ConfigError(messages.join('; '));
  }
}

type Annotations = { expected?: string; writeOnly?: boolean };

/** What a bad value should have been, in the schema's words (`expected`), else in ajv's. */
function badValue(name: string, env: NodeJS.ProcessEnv, error: SchemaError): string {
  const variable: Annotations | undefined = Object.hasOwn(configSchema.properties, name)
    ? (configSchema.properties[name as keyof Env] as Annotations)
    : undefined;
  const expected = variable?.expected ? `must be ${variable.expected}` : error.message;
  // A secret is not repeated into the logs.
  return `${name} ${expected}${variable?.writeOnly ? '' : `, got "${env[name]}"`}`;
}

const isTrue = (value: string) => FLAG_TRUE.includes(value.toLowerCase());

/** A 32-byte key from the variable `name`, or generated once and kept in the data directory. */
function storedKey(raw: string | undefined, dataDir: string, name: keyof typeof KEY_FILES): Buffer {
  if (raw !== undefined) return Buffer.from(raw, 'hex');
  const file = path.join(dataDir, KEY_FILES[name]);
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex'), { mode: 0o600 });
  return key;
}

/** The S3 bucket of the images (STORAGE=s3). */
export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/** With STORAGE=s3 every S3 setting but the path style is required: a missing one is named. */
function s3Settings(env: Env): S3Settings | undefined {
  if (env.STORAGE !== 's3') return undefined;
  const need = (name: keyof Env) => {
    const value = String(env[name] ?? '').trim();
    if (value === '') throw new ConfigError(`${name} is required with STORAGE=s3`);
    return value;
  };
  return {
    endpoint: need('S3_ENDPOINT'),
    bucket: need('S3_BUCKET'),
    region: need('S3_REGION'),
    accessKeyId: need('S3_ACCESS_KEY_ID'),
    secretAccessKey: need('S3_SECRET_ACCESS_KEY'),
    forcePathStyle: isTrue(env.S3_FORCE_PATH_STYLE),
  };
}

/**
 * WEB_CONCURRENCY: server processes on the port, unset means every core. With PostgreSQL each is a whole server; the
 * embedded database is one process's, so main.ts runs one server whatever this says.
 */
function webConcurrency(raw: string | undefined): number {
  return raw?.trim() ? Number(raw.trim()) : availableParallelism();
}

export function loadConfig(raw: NodeJS.ProcessEnv = process.env): Config {
  const env = validEnv(raw);
  const dataDir = path.resolve(env.DATA_DIR);
  const publicOrigin = publicOriginOf(env.PUBLIC_ORIGIN, env.PORT);
  const staticApiBase = apiBase('STATIC_API_BASE', env.STATIC_API_BASE);
  const dynamicApiBase = apiBase('DYNAMIC_API_BASE', env.DYNAMIC_API_BASE);
  return {
    port: env.PORT,
    host: env.HOST,
    dataDir,
    databaseUrl: env.DATABASE_URL?.trim() || undefined,
    databasePooler: env.DATABASE_POOLER === 'pgbouncer' ? 'pgbouncer' : 'none',
    webConcurrency: webConcurrency(env.WEB_CONCURRENCY),
    redisUrl: env.REDIS_URL?.trim() || undefined,
    imageRoot: path.resolve(env.IMAGE_ROOT ?? path.join(dataDir, 'images')),
    imageCacheDir: path.resolve(env.IMAGE_CACHE_DIR ?? path.join(dataDir, 'image-cache')),
    storage: env.STORAGE === 's3' ? 's3' : 'local',
    s3: s3Settings(env),
    alipay: alipaySettings(env),
    wechatPay: wechatPaySettings(env),
    notices: noticeSettings(env),
    payReconcileSeconds: env.PAY_RECONCILE_SECONDS,
    coverKey: storedKey(env.COVER_KEY, dataDir, 'COVER_KEY'),
    pageGrantKey: storedKey(env.PAGE_GRANT_KEY, dataDir, 'PAGE_GRANT_KEY'),
    publicOrigin,
    staticApiBase,
    dynamicApiBase,
    trustedOrigins: trustedOrigins(
      publicOrigin,
      [staticApiBase, dynamicApiBase],
      allowedOrigins(env.ALLOWED_ORIGINS),
    ),
    imageBase: apiBase('IMAGE_BASE', env.IMAGE_BASE),
    demoLibrary: isTrue(env.DEMO_LIBRARY),
    logLevel: env.LOG_LEVEL,
    trustProxy: trustProxy(env.TRUST_PROXY),
    registerPerHour: env.REGISTER_PER_HOUR,
    loginFailuresPerAccount: env.LOGIN_FAILURES_PER_ACCOUNT,
    loginFailuresPerAddress: env.LOGIN_FAILURES_PER_ADDRESS,
    findAccountPerHour: env.FIND_ACCOUNT_PER_HOUR,
    findAccountPerOrderPerHour: env.FIND_ACCOUNT_PER_ORDER_PER_HOUR,
    webDist: path.resolve(env.WEB_DIST ?? fileURLToPath(new URL('../../web/dist', import.meta.url))),
    importUploadBytes: env.IMPORT_UPLOAD_MB * 1024 * 1024,
    diskMarginBytes: env.DISK_MARGIN_MB * 1024 * 1024,
    memoryBoundBytes: env.MEMORY_BOUND_MB * 1024 * 1024,
    imageMemoryCacheBytes: env.IMAGE_MEMORY_CACHE_MB * 1024 * 1024,
    staticCacheBytes: env.STATIC_CACHE_MB * 1024 * 1024,
    adminDist: path.resolve(env.ADMIN_DIST ?? fileURLToPath(new URL('../../admin/dist', import.meta.url))),
    sandboxPayKey: storedKey(env.SANDBOX_PAY_KEY, dataDir, 'SANDBOX_PAY_KEY'),
    sandboxPay: env.SANDBOX_PAY ? isTrue(env.SANDBOX_PAY) : isLocalOrigin(publicOrigin),
    sandboxPayAnyClient: env.SANDBOX_PAY ? isTrue(env.SANDBOX_PAY) : false,
    sandboxMerchantId: env.SANDBOX_MERCHANT_ID,
    payNotifyBase: apiBase('PAY_NOTIFY_BASE', env.PAY_NOTIFY_BASE),
    payOrderMinutes: env.PAY_ORDER_MINUTES,
    paySweepSeconds: env.PAY_SWEEP_SECONDS,
    drainSeconds: env.DRAIN_SECONDS,
    metricsToken: env.METRICS_TOKEN || undefined,
  };
}
