// Addresses that come from outside the code (a query parameter, an ad's url) are followed only when they are
// what they claim to be: no open redirect, and no javascript: or data: address run under the site's name.

/**
 * A path on this site: '/' followed by anything but a second '/' or '\' (which browsers read as another host),
 * and still on this origin once the browser's parser has read it (it drops tabs and newlines and reads '\' as
 * '/', so a hidden '//' shows as another origin). Null for anything else.
 */
export function sitePath(raw: string | null | undefined, origin = location.origin): string | null {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  try {
    const url = new URL(raw, origin);
    return url.origin === origin ? url.pathname + url.search + url.hash : null;
  } catch {
    return null;
  }
}

/** A web address (http or https, relative ones read against `base`) the browser may leave for, or null. */
export function webAddress(raw: string | null | undefined, base = location.href): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
