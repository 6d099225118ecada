/**
 * Where the report page may send the reader back to: only a path on this site ('/' followed by anything but
 * a second '/' or '\', which browsers read as another host), else /home. No open redirect.
 */
export function safeReturnPath(raw: string | null | undefined): string {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/home';
  // The parser drops tabs and newlines and reads '\' as '/', so a hidden '//' shows as another origin.
  try {
    const url = new URL(raw, location.origin);
    if (url.origin !== location.origin) return '/home';
    return url.pathname + url.search + url.hash;
  } catch {
    return '/home';
  }
}
