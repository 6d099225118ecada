import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Protective headers (docs/api.md section 2), chosen by helmet: nosniff, a referrer policy, no framing, and a content
 * security policy. JSON and images get the strictest policy (they load nothing); the web app's page and the
 * sandbox cashier set their own, fitted to what they load (appPolicy, cashierPolicy).
 *
 * helmet's middleware sets a dozen headers one call at a time on every response, which cost a third of the image
 * host's throughput (bench/page-images.mjs). The headers never change, so helmet runs once at start and every
 * response gets the same object in one call.
 */
export const REFERRER_POLICY = 'strict-origin-when-cross-origin';

export function securityHeaders(opts: { https: boolean }): Record<string, string> {
  const headers: Record<string, string> = {};
  const collect = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"] },
    },
    // Images and covers may be fetched from the page of another origin (IMAGE_BASE on a CDN).
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: REFERRER_POLICY },
    strictTransportSecurity: opts.https ? { maxAge: 31_536_000 } : false,
    xFrameOptions: { action: 'deny' },
  })({} as IncomingMessage, collect as unknown as ServerResponse, () => undefined);
  return headers;
}

/** Every answer starts with these: an onRequest hook, so kept static answers and kept images carry them too. */
export function registerSecurityHeaders(app: FastifyInstance, headers: Record<string, string>) {
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
}

const originsOf = (...bases: string[]) => [...new Set(bases.filter(Boolean).map((b) => new URL(b).origin))];

/** The sha256 sources of every inline <script> of a page, so exactly those run (no 'unsafe-inline'). */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (m) =>
      `'sha256-${createHash('sha256')
        .update(m[1] ?? '')
        .digest('base64')}'`,
  );
}

/**
 * The web app's policy: its own scripts and the page's inline ones by hash; styles inline too (antd-mobile sets
 * style attributes); pictures from the image host (covers decrypt to blob: URLs); calls to the API bases and the
 * image host; the pay page frames the cashier, on the dynamic API's origin or ours.
 */
export function appPolicy(
  html: string,
  bases: { staticApiBase: string; dynamicApiBase: string; imageBase: string },
  /** Other script origins: WeChat's JS-SDK host when WeChat notices are on. */
  scriptOrigins: readonly string[] = [],
): string {
  const connect = originsOf(bases.staticApiBase, bases.dynamicApiBase, bases.imageBase);
  return [
    "default-src 'self'",
    `script-src 'self' ${[...scriptOrigins, ...inlineScriptHashes(html)].join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${originsOf(bases.imageBase).join(' ')}`,
    `connect-src 'self' ${connect.join(' ')}`,
    `frame-src 'self' ${originsOf(bases.dynamicApiBase).join(' ')}`,
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ]
    .map((d) => d.trim())
    .join('; ');
}

/**
 * The operators' console: only its own scripts (no inline one), inline styles (antd writes its styles at run time),
 * pictures from itself (previews come from /api/admin/image), calls to itself, never framed.
 */
export const consolePolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The sandbox cashier: inline styles only; framed by our pages, posting to itself, then back to our pages. */
export function cashierPolicy(trustedOrigins: readonly string[]): string {
  // CSP host sources cannot name an IPv6 literal (the [::1] alias of a local origin): browsers warn and drop it.
  const ours = ["'self'", ...trustedOrigins.filter((o) => !o.includes('['))].join(' ');
  return `default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action ${ours}; frame-ancestors ${ours}`;
}
