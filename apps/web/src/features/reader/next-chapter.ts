// Paywall-aware prefetch, the pure part: how many of the next chapter's first pages to fetch ahead on this
// connection. The hook (hooks/use-next-chapter-prefetch.ts) asks the server whether the reader may open it.

/** What the browser says of the connection (the Network Information API; absent in some browsers). */
export interface ConnectionHints {
  saveData?: boolean;
  effectiveType?: string;
  type?: string;
}

/** Pages fetched ahead on a good connection: the first screens of the next chapter. */
export const AHEAD_PAGES = 3;

/**
 * Fewer pages ahead where data costs or is slow: save-data asks for none beyond the first, a cellular or slow
 * connection gets one; offline gets none.
 */
export function pagesAhead(connection: ConnectionHints | undefined, online = true): number {
  if (!online) return 0;
  if (!connection) return AHEAD_PAGES;
  if (connection.saveData) return 1;
  if (connection.effectiveType && /(^|-)2g$|^3g$/.test(connection.effectiveType)) return 1;
  if (connection.type === 'cellular') return 1;
  return AHEAD_PAGES;
}
