import type { Ad } from '@yueman/contract';
import { bookPath, purchasePath } from '../lib/paths.ts';
import { sitePath, webAddress } from '../lib/safe-links.ts';

/** What tapping an ad does: a screen of the app, the browser leaving for an address, a new window, or nothing. */
export type AdLink = { route: string } | { leave: string } | { open: string } | null;

/**
 * An ad's jump type (spec sections 3 and 9): -1 its url, in the app when it is a path and in this window
 * otherwise; -2 its url in a new window; 2 the book bizId; 3 the recharge centre. The url comes from the
 * operators' data, so only a path on this site or a web address is followed: never a javascript: address or
 * another host dressed as a path ('//evil.example').
 */
export function adLink(ad: Pick<Ad, 'jumpType' | 'url' | 'bizId'>): AdLink {
  switch (ad.jumpType) {
    case -1: {
      if (ad.url.startsWith('/')) {
        const route = sitePath(ad.url);
        return route ? { route } : null;
      }
      const leave = webAddress(ad.url);
      return leave ? { leave } : null;
    }
    case -2: {
      const open = webAddress(ad.url);
      return open ? { open } : null;
    }
    case 2:
      return { route: bookPath(ad.bizId) };
    case 3:
      return { route: purchasePath() };
    default:
      return null;
  }
}
