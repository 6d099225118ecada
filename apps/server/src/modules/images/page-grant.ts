import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Grants on the page images of priced chapters (docs/api.md section 5): `g/<expiry>/<mac>/<path>`, where mac is an
 * HMAC-SHA256, under a server key, of the expiry and the path. read_chapter hands a granted path only to a reader
 * who may read the chapter; the image host serves a priced page only with a valid, unexpired grant.
 *
 * The expiry is rounded up to a window, so every reader of a chapter gets the same URL for hours and a CDN
 * caches one copy; a grant handed out is valid for at least one whole window and at most two.
 */
export const GRANT_PREFIX = 'g/';
export const DEFAULT_GRANT_WINDOW_SECONDS = 6 * 3600;
const MAC_LENGTH = 22; // base64url characters: 132 bits

export interface PageGrants {
  /** The path with a grant in front, e.g. `g/1700006400/Xy…/pages/…`. */
  grant(path: string, nowMs?: number): string;
  /** True when mac is the grant of (expiry, path) and the expiry has not passed. */
  verify(grant: { expiry: number; mac: string }, path: string, nowMs?: number): boolean;
  /** Seconds from now until the expiry: how long a cache may keep the granted answer. */
  secondsLeft(expiry: number, nowMs?: number): number;
}

export function createPageGrants(key: Buffer, windowSeconds = DEFAULT_GRANT_WINDOW_SECONDS): PageGrants {
  const macOf = (expiry: number, path: string) =>
    createHmac('sha256', key).update(`${expiry}/${path}`).digest('base64url').slice(0, MAC_LENGTH);
  // Readers fetch the same granted URLs over and over: a grant found good is remembered until it expires (an HMAC
  // per request was a fifth of the image host's time). Bounded: a full map is emptied.
  const good = new Map<string, number>();

  return {
    grant(path, nowMs = Date.now()) {
      const window = Math.floor(nowMs / 1000 / windowSeconds);
      const expiry = (window + 2) * windowSeconds;
      return `${GRANT_PREFIX}${expiry}/${macOf(expiry, path)}/${path}`;
    },
    verify({ expiry, mac }, path, nowMs = Date.now()) {
      if (!Number.isSafeInteger(expiry) || expiry * 1000 <= nowMs) return false;
      const known = `${expiry}/${mac}/${path}`;
      if (good.has(known)) return true;
      const expected = Buffer.from(macOf(expiry, path));
      const given = Buffer.from(mac);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
      if (good.size >= 50_000) good.clear();
      good.set(known, expiry);
      return true;
    },
    secondsLeft(expiry, nowMs = Date.now()) {
      return Math.max(0, Math.floor(expiry - nowMs / 1000));
    },
  };
}
