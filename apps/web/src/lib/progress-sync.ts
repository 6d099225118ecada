import type { ReadingProgress } from '@yueman/contract';
import { data, fieldsOf, routes, routeUrl } from './api-client.ts';
import { useProgressStore } from './progress-store.ts';

// The account's copy of the reading positions: pushed while reading (at most every few seconds per book, and once
// more when the page is hidden), pulled at start and when a book opens. The later position wins on both sides.

const PUSH_EVERY_MS = 5_000;
const owed = new Map<number, ReadingProgress>();
let timer: ReturnType<typeof setTimeout> | undefined;

async function flush() {
  timer = undefined;
  const batch = [...owed.values()];
  owed.clear();
  for (const p of batch) await data(routes.saveProgress, { form: p }).catch(() => owed.set(p.bookId, p));
}

/** Records a position on this device at once, and on the account soon. */
export function savePosition(p: ReadingProgress) {
  useProgressStore.getState().record(p);
  owed.set(p.bookId, p);
  timer ??= setTimeout(() => void flush(), PUSH_EVERY_MS);
}

/** The page is going away (closed, another app): what is owed goes by beacon, which outlives the page. */
export function flushPositionsNow() {
  if (timer) clearTimeout(timer);
  timer = undefined;
  for (const p of owed.values()) {
    const sent =
      typeof navigator.sendBeacon === 'function' &&
      navigator.sendBeacon(routeUrl(routes.saveProgress), fieldsOf({ ...p }));
    if (!sent) void data(routes.saveProgress, { form: p }).catch(() => undefined);
  }
  owed.clear();
}

/** The account's positions (one book's, or the latest of all) merged into this device's. */
export async function pullPositions(bookId?: number) {
  const list = await data(routes.readingProgress, { query: bookId ? { bookId } : {} });
  useProgressStore.getState().merge(list);
}

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', flushPositionsNow);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushPositionsNow();
  });
}
