import { type Static, Type } from 'typebox';

/**
 * Every environment variable the server reads, with its default and its meaning: README.md's configuration
 * table is this object written out, and config-readme.test.ts keeps the two equal.
 *
 * Besides JSON Schema's own keywords a variable may carry `expected` (what a bad value should have been, for the
 * message that stops the server) and `defaultText` (a default worked out from other settings, which `default`
 * cannot hold). `writeOnly` marks a secret, which that message does not repeat.
 */

export const EXTRA_KEYWORDS = ['expected', 'defaultText'] as const;

/** Generated 32-byte keys, kept in the data directory so that restarts keep them. */
export const KEY_FILES = {
  COVER_KEY: 'cover-key.hex',
  PAGE_GRANT_KEY: 'page-grant-key.hex',
  SANDBOX_PAY_KEY: 'sandbox-pay-key.hex',
} as const;

export const FLAG_TRUE = ['1', 'true', 'yes'];
const FLAG_WORDS = [...FLAG_TRUE, '0', 'false', 'no'];
// A JSON Schema pattern has no case-insensitive flag, so each letter of a word gets a class of both cases.
const anyCase = (word: string) => word.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);
const FLAG = `^(?:${FLAG_WORDS.map(anyCase).join('|')})$`;

const count = (def: number, minimum: number, maximum: number, description: string) =>
  Type.Integer({
    default: def,
    minimum,
    maximum,
    expected: `a whole number from ${minimum} to ${maximum}`,
    description,
  });
const flag = (description: string, options: { default: string } | { defaultText: string; pattern: string }) =>
  Type.String({ pattern: FLAG, expected: 'true or false', ...options, description });
const text = (def: string, description: string) => Type.String({ default: def, description });
const optional = (defaultText: string, description: string, options: object = {}) =>
  Type.Optional(Type.String({ defaultText, ...options, description }));
const hexKey = (file: string, description: string) =>
  optional(`generated into \`DATA_DIR/${file}\``, description, {
    pattern: '^[0-9a-fA-F]{64}$',
    expected: '64 hexadecimal characters',
    writeOnly: true,
  });
const base = optional(
  'empty (same origin)',
  'bases handed to the web app at run time, e.g. a CDN for static calls and images',
);

export const configSchema = Type.Object(
  {
    PORT: count(8080, 0, 65535, 'HTTP port'),
    HOST: text('0.0.0.0', 'address to listen on'),
    DATA_DIR: text(
      './data',
      'embedded database (`pglite/`), image cache, drawn images, keys; created `0700`, locked to one process',
    ),
    DATABASE_URL: optional(
      'unset',
      '`postgres://…`: use this PostgreSQL server instead of the embedded database',
      {
        // Trimmed before use; empty means unset.
        pattern: '^\\s*(?:postgres(?:ql)?://[\\s\\S]*)?$',
        expected: 'a postgres:// or postgresql:// URL',
        writeOnly: true,
      },
    ),
    WEB_CONCURRENCY: optional(
      'every core',
      "server processes sharing the port (node:cluster workers), each a whole server, with `DATABASE_URL` only: the embedded database is one process's, so without `DATABASE_URL` the server is one process whatever this says; 1: one process, no workers",
      { pattern: '^\\s*(?:[1-9][0-9]?)?\\s*$', expected: 'a whole number from 1 to 99' },
    ),
    DATABASE_POOLER: Type.String({
      default: 'none',
      pattern: '^(?:none|pgbouncer)$',
      expected: 'none or pgbouncer',
      description:
        '`pgbouncer`: `DATABASE_URL` leads to a pooler in transaction mode (pgbouncer `pool_mode = transaction`), so no named prepared statements',
    }),
    REDIS_URL: optional(
      'unset (the database)',
      '`redis://…`: keep the rate limits and attempt counters in this Redis instead of the database',
      {
        // Trimmed before use; empty means unset.
        pattern: '^\\s*(?:rediss?://[\\s\\S]*)?$',
        expected: 'a redis:// or rediss:// URL',
        writeOnly: true,
      },
    ),
    DEMO_LIBRARY: flag('create the demo library when the database has no books', { default: 'true' }),
    PUBLIC_ORIGIN: optional(
      '`http://localhost:$PORT`',
      'the address readers use; `https://` makes the session cookie Secure',
    ),
    STATIC_API_BASE: base,
    DYNAMIC_API_BASE: base,
    IMAGE_BASE: base,
    COVER_KEY: hexKey(KEY_FILES.COVER_KEY, '64 hex characters: AES-256-GCM key of the encrypted covers'),
    PAGE_GRANT_KEY: hexKey(
      KEY_FILES.PAGE_GRANT_KEY,
      "64 hex characters: HMAC key of the grants in priced chapters' page URLs (the same on every server)",
    ),
    IMAGE_ROOT: optional(
      '`DATA_DIR/images`',
      'source images with `STORAGE=local`; with the demo library on, a missing demo picture the database knows is drawn on its first request and kept in the store',
    ),
    IMAGE_CACHE_DIR: optional('`DATA_DIR/image-cache`', 'resized WebP files with `STORAGE=local`'),
    STORAGE: Type.String({
      default: 'local',
      pattern: '^(?:local|s3)$',
      expected: 'local or s3',
      description:
        'where source images and their resized WebP files live: `local` (`IMAGE_ROOT`, `IMAGE_CACHE_DIR`) or `s3`, a bucket every server shares (`originals/<path>`, `variants/<width>/<path>.webp`)',
    }),
    S3_ENDPOINT: optional(
      'unset',
      'with `STORAGE=s3`, required: the S3 API address, e.g. `https://oss-cn-hangzhou.aliyuncs.com`, `https://cos.ap-guangzhou.myqcloud.com`, `https://s3.us-east-1.amazonaws.com`, `http://minio:9000`',
      { pattern: '^(?:https?://[^\\s/]+/?)?$', expected: 'an http(s) URL without a path' },
    ),
    S3_BUCKET: optional('unset', 'with `STORAGE=s3`, required: the bucket of the images'),
    S3_REGION: optional(
      'unset',
      'with `STORAGE=s3`, required: the region requests are signed for, e.g. `oss-cn-hangzhou`, `ap-guangzhou`, `us-east-1` (MinIO)',
    ),
    S3_ACCESS_KEY_ID: optional('unset', 'with `STORAGE=s3`, required: the access key id', {
      writeOnly: true,
    }),
    S3_SECRET_ACCESS_KEY: optional('unset', 'with `STORAGE=s3`, required: the secret access key', {
      writeOnly: true,
    }),
    S3_FORCE_PATH_STYLE: flag(
      'with `STORAGE=s3`: address the bucket as `<endpoint>/<bucket>/<key>` (MinIO) instead of `<bucket>.<host>/<key>` (AWS, OSS, COS)',
      { default: 'false' },
    ),
    TRUST_PROXY: text(
      'false',
      'the proxies in front of the server whose `X-Forwarded-For` entries are believed: a hop count (`1`) or their addresses / CIDR ranges (`10.0.0.0/8,127.0.0.1`); `true` is refused',
    ),
    ALLOWED_ORIGINS: optional(
      'empty',
      "extra origins (comma list) whose pages may send state-changing requests; the public origin and the API bases' origins are always allowed",
    ),
    REGISTER_PER_HOUR: count(30, 1, 100_000, 'visitor registrations per client address per hour'),
    LOGIN_FAILURES_PER_ACCOUNT: count(
      10,
      1,
      10_000,
      'wrong passwords per account from one client address in 15 minutes before login answers 429 there',
    ),
    LOGIN_FAILURES_PER_ADDRESS: count(
      30,
      1,
      100_000,
      'wrong passwords per client address in 15 minutes before login answers 429',
    ),
    FIND_ACCOUNT_PER_HOUR: count(10, 1, 100_000, 'find-account attempts per client address per hour'),
    FIND_ACCOUNT_PER_ORDER_PER_HOUR: count(
      5,
      1,
      1000,
      'find-account attempts per merchant order number per hour, from any address',
    ),
    PAY_ORDER_MINUTES: count(
      15,
      2,
      1440,
      'minutes an unpaid order stays open before the sweeper expires it (a later payment is still credited)',
    ),
    PAY_SWEEP_SECONDS: count(
      60,
      1,
      3600,
      'seconds between two passes of the sweeper that expires unpaid orders (one server at a time runs it)',
    ),
    PAY_NOTIFY_BASE: optional(
      "this server's loopback address",
      'origin gateways send payment notifications to (`/api/pay/notify/{channel}`); set it when that is not reachable or for a real gateway',
    ),
    SANDBOX_PAY_KEY: hexKey(
      KEY_FILES.SANDBOX_PAY_KEY,
      "64 hex characters: HMAC-SHA256 key of the sandbox gateway's notifications (the same on every server)",
    ),
    SANDBOX_PAY: Type.Optional(
      flag(
        'whether the built-in sandbox gateway takes payments (it gives coins away: never `true` on a public site)',
        {
          defaultText: 'on for a local `PUBLIC_ORIGIN` (payments from this machine only), else off',
          // Empty is the same as unset.
          pattern: `^$|${FLAG}`,
        },
      ),
    ),
    SANDBOX_MERCHANT_ID: Type.String({
      default: 'ym-sandbox',
      pattern: '^[A-Za-z0-9_-]{1,64}$',
      expected: '1 to 64 letters, digits, _ or -',
      description: 'our merchant id at the sandbox gateway',
    }),
    PAY_RECONCILE_SECONDS: count(
      120,
      10,
      3600,
      'seconds between two passes of the reconciler, which asks Alipay and WeChat Pay about orders still open after a few minutes and credits what was paid (one server at a time runs it)',
    ),
    ALIPAY_APP_ID: optional(
      'unset (Alipay channels use the sandbox, or are under maintenance)',
      'our application id at Alipay (开放平台 APPID); with it, the Alipay channels go through Alipay and the keys below are required',
    ),
    ALIPAY_PRIVATE_KEY: optional(
      'unset',
      'our application private key (PEM, RSA2) for signing requests to Alipay',
      {
        writeOnly: true,
      },
    ),
    ALIPAY_PRIVATE_KEY_FILE: optional('unset', 'a file holding `ALIPAY_PRIVATE_KEY` instead'),
    ALIPAY_PUBLIC_KEY: optional(
      'unset',
      "Alipay's public key (PEM, 支付宝公钥, not our application public key) for checking what Alipay sends",
    ),
    ALIPAY_PUBLIC_KEY_FILE: optional('unset', 'a file holding `ALIPAY_PUBLIC_KEY` instead'),
    ALIPAY_GATEWAY: text('https://openapi.alipay.com/gateway.do', "Alipay's gateway address"),
    ALIPAY_SELLER_ID: optional(
      'unset (not checked)',
      'our seller id (PID, 2088…): a notification for another seller is refused',
    ),
    WECHATPAY_MCHID: optional(
      'unset (WeChat Pay channels use the sandbox, or are under maintenance)',
      'our merchant id at WeChat Pay (商户号); with it, the WeChat Pay channels go through WeChat Pay and the settings below are required',
    ),
    WECHATPAY_APPID: optional('unset', 'the AppID bound to the merchant (the official account for JSAPI)'),
    WECHATPAY_SERIAL: optional(
      'unset',
      'the serial number of our merchant API certificate (商户API证书序列号)',
    ),
    WECHATPAY_PRIVATE_KEY_FILE: optional('unset', 'our merchant API private key (apiclient_key.pem)'),
    WECHATPAY_APIV3_KEY: optional('unset', 'the APIv3 key (32 characters) that decrypts notifications', {
      writeOnly: true,
    }),
    WECHATPAY_PLATFORM_PUBLIC_KEY_FILE: optional(
      'unset',
      "WeChat Pay's platform public key (微信支付公钥, PEM) for checking its answers and notifications",
    ),
    WECHATPAY_PLATFORM_PUBLIC_KEY_ID: optional(
      'unset',
      "that public key's id (PUB_KEY_ID_…), sent as `Wechatpay-Serial`",
    ),
    WECHATPAY_BASE_URL: text('https://api.mch.weixin.qq.com', "WeChat Pay's API address"),
    WECHATPAY_APPSECRET: optional(
      'unset',
      "the AppSecret of the official account WECHATPAY_APPID names: with it, readers in WeChat's own browser pay by JSAPI (its web OAuth gives the payer's openid)",
      { writeOnly: true },
    ),
    WECHAT_OAUTH_BASE_URL: text('https://open.weixin.qq.com', "the official account's web OAuth address"),
    WECHAT_API_BASE_URL: text(
      'https://api.weixin.qq.com',
      "the official account API's address (OAuth code to openid)",
    ),
    WECHAT_NOTICE_TEMPLATES: optional(
      'unset (no WeChat notices: the reader app offers no 更新提醒)',
      'the official account\'s subscription notice templates per notice kind, `kind=template id` separated by commas (kinds: `new_chapter`, `wait_free`, `saved_up`, `ticket_expiring`); with it, WECHATPAY_APPID, WECHATPAY_APPSECRET and WECHAT_PUSH_TOKEN are required (docs/operations.md, "WeChat notices")',
      {
        pattern:
          '^$|^\\s*(?:new_chapter|wait_free|saved_up|ticket_expiring)=[A-Za-z0-9_-]{1,128}\\s*(?:,\\s*(?:new_chapter|wait_free|saved_up|ticket_expiring)=[A-Za-z0-9_-]{1,128}\\s*)*$',
        expected: 'kind=template id pairs separated by commas',
      },
    ),
    WECHAT_PUSH_TOKEN: optional(
      'unset',
      "the Token set in the official account's server configuration (服务器配置): WeChat signs its event pushes with it",
      { pattern: '^$|^[A-Za-z0-9]{3,32}$', expected: '3 to 32 letters or digits', writeOnly: true },
    ),
    NOTICES_PER_DAY: count(
      3,
      1,
      20,
      'WeChat notices one reader may get in one China day; the rest wait for the next day',
    ),
    NOTICES_PASS_SECONDS: count(
      60,
      1,
      3600,
      'seconds between two passes of the WeChat notices job, which finds new chapters, 攒更 piles, ended waits and ending tickets and sends what is due (one server at a time runs it)',
    ),
    LOG_LEVEL: Type.String({
      default: 'info',
      pattern: '^(?:fatal|error|warn|info|debug|trace|silent)$',
      expected: 'one of fatal, error, warn, info, debug, trace, silent',
      description: 'pino log level; logs are JSON lines with a `reqId` per request',
    }),
    DRAIN_SECONDS: count(
      10,
      1,
      600,
      'on SIGTERM or SIGINT, seconds to let requests in flight finish (`/readyz` answers 503 at once, no new connections) before the connections left are closed; then background jobs stop and the database closes',
    ),
    METRICS_TOKEN: optional(
      'unset (`/metrics` answers 404)',
      'bearer token Prometheus sends for `GET /metrics` (`Authorization: Bearer …`); at least 32 characters',
      {
        // Empty means unset.
        pattern: '^$|^[!-~]{32,}$',
        expected: 'at least 32 printable characters without spaces',
        writeOnly: true,
      },
    ),
    WEB_DIST: optional('`apps/web/dist`', 'built web app to serve'),
    IMPORT_UPLOAD_MB: count(
      512,
      1,
      10_240,
      'largest archive (MB) an operator may upload to import in the console (kept under `DATA_DIR/uploads` while it runs); covers and ads take at most 10 MB',
    ),
    ADMIN_DIST: optional('`apps/admin/dist`', "built operators' console to serve at /admin"),
    DISK_MARGIN_MB: count(
      256,
      0,
      1_048_576,
      'with the embedded database: while the file system of `DATA_DIR` has less free space (MB) than this, requests that write answer 503 (reads still work) and `/readyz` says `disk: low`; 0 turns the check off',
    ),
    MEMORY_BOUND_MB: count(
      768,
      64,
      1_048_576,
      'the resident memory (MB) one server process is expected to stay under (docs/operations.md, "Memory"): shown by `/metrics` as `yueman_memory_bound_bytes`, and a warning is logged when the process goes above it',
    ),
    IMAGE_MEMORY_CACHE_MB: count(
      64,
      0,
      65_536,
      'bytes (MB) of image answers each server process keeps in memory (the most recently used); 0 keeps none',
    ),
    STATIC_CACHE_MB: count(
      32,
      1,
      65_536,
      'bytes (MB) of kept static answers (with their compressed copies) and landing pages each server process keeps in memory',
    ),
  },
  { additionalProperties: false },
);

export type Env = Static<typeof configSchema>;
