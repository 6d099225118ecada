import { type ChapterInfo, Code } from '@yueman/contract';
import { useEffect, useRef } from 'react';
import { showAlert } from '../../../components/alert.ts';
import { refreshUser } from '../../../lib/api/user-info.ts';
import { useUserStore } from '../../../lib/user-store.ts';
import { isOffline } from '../../../pwa/network-status.ts';
import { useReadChapter } from '../api/read-chapter.ts';
import { MESSAGES } from '../reader-helpers.ts';

/** What the chapter call answered, in the reader's terms (spec sections 4 and 8). */
export type ChapterOutcome =
  | { kind: 'loading' }
  /** Result true: the pages. */
  | { kind: 'pages'; info: ChapterInfo }
  /** Code 999: not bought yet; the info carries the price and no pages (see use-chapter-purchase.ts). */
  | { kind: 'purchase'; info: ChapterInfo }
  /** Code 400: no such chapter in the book. */
  | { kind: 'no-more' }
  /** Code 404: no such book. */
  | { kind: 'missing' }
  /** Code 101, a transport failure or anything unexpected. */
  | { kind: 'failed' };

const ALERTS: Partial<Record<ChapterOutcome['kind'], string>> = {
  'no-more': MESSAGES.noMore,
  missing: MESSAGES.invalid,
  failed: MESSAGES.noUser,
};

/**
 * Reads one chapter and acts on the answer's code: 101 refreshes the user and, once a user is known, asks
 * again; 400, 404 and failures show their alert once per answer. Code 999 is left to the purchase hook.
 */
export function useChapter(bookId: number, number: number) {
  const chapter = useReadChapter(bookId, number, true);
  const envelope = chapter.data;
  const code = envelope?.code;

  let outcome: ChapterOutcome;
  if (envelope?.result && envelope.data) outcome = { kind: 'pages', info: envelope.data };
  // The refusal of an unbought chapter carries its info (price, titles), without pages.
  else if (code === Code.paymentNeeded && envelope?.data)
    outcome = { kind: 'purchase', info: envelope.data as ChapterInfo };
  else if (chapter.isPending) outcome = { kind: 'loading' };
  else if (code === Code.noMoreChapters) outcome = { kind: 'no-more' };
  else if (code === Code.notFound) outcome = { kind: 'missing' };
  else outcome = { kind: 'failed' };

  // Code 101: refresh the user (spec section 8); when a user is established, the chapter is asked again.
  useEffect(() => {
    if (code === Code.userUnknown) void refreshUser();
  }, [code]);
  const userId = useUserStore((s) => s.userInfo?.userId ?? 0);
  const lastUserId = useRef(userId);
  useEffect(() => {
    if (lastUserId.current === userId) return;
    lastUserId.current = userId;
    if (userId && code === Code.userUnknown) void chapter.refetch();
  }, [userId, code, chapter]);

  // One alert per answer, so 重试 that fails again says so again.
  // Offline, the reader's note says the chapter needs the network; no alert on top of it.
  const alert = outcome.kind === 'failed' && isOffline() ? undefined : ALERTS[outcome.kind];
  const answeredAt = Math.max(chapter.dataUpdatedAt, chapter.errorUpdatedAt);
  useEffect(() => {
    if (alert && answeredAt) showAlert(alert);
  }, [alert, answeredAt]);

  const info = outcome.kind === 'pages' || outcome.kind === 'purchase' ? outcome.info : null;
  return { outcome, info, retry: () => void chapter.refetch() };
}
