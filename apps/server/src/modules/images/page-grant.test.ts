import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPageGrants } from './page-grant.ts';

const HOUR = 3600 * 1000;
const parts = (granted: string) => {
  const [, expiry, mac, ...rest] = granted.split('/');
  return { expiry: Number(expiry), mac: mac ?? '', path: rest.join('/') };
};

describe('page grants', () => {
  const grants = createPageGrants(randomBytes(32), 6 * 3600);
  const path = 'pages/demo/1/5/1.png';
  const windowStart = Math.floor(Date.UTC(2026, 10, 24, 6) / (6 * HOUR)) * 6 * HOUR;

  it('gives every reader within one window the same URL, valid for one to two windows', () => {
    const early = grants.grant(path, windowStart + 1000);
    const late = grants.grant(path, windowStart + 6 * HOUR - 1000);
    expect(early).toBe(late);
    expect(early).toMatch(/^g\/\d+\/[A-Za-z0-9_-]{22}\/pages\/demo\/1\/5\/1\.png$/);
    const { expiry, mac } = parts(early);
    expect(expiry * 1000).toBe(windowStart + 12 * HOUR);
    expect(grants.verify({ expiry, mac }, path, windowStart + 12 * HOUR - 1)).toBe(true);
    expect(grants.verify({ expiry, mac }, path, windowStart + 12 * HOUR)).toBe(false);
    expect(grants.grant(path, windowStart + 6 * HOUR)).not.toBe(early);
  });

  it('refuses another path, another expiry, another key and a changed mac', () => {
    const now = windowStart + HOUR;
    const { expiry, mac } = parts(grants.grant(path, now));
    expect(grants.verify({ expiry, mac }, path, now)).toBe(true);
    expect(grants.verify({ expiry, mac }, 'pages/demo/1/6/1.png', now)).toBe(false);
    expect(grants.verify({ expiry: expiry + 6 * 3600, mac }, path, now)).toBe(false);
    expect(
      grants.verify(
        { expiry, mac: `${mac.slice(0, -1)}A` === mac ? `${mac.slice(0, -1)}B` : `${mac.slice(0, -1)}A` },
        path,
        now,
      ),
    ).toBe(false);
    expect(createPageGrants(randomBytes(32)).verify({ expiry, mac }, path, now)).toBe(false);
    expect(grants.verify({ expiry: Number.NaN, mac }, path, now)).toBe(false);
  });
});
