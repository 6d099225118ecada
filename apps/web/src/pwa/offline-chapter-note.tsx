import type { ReactNode } from 'react';
import { useBookDetail } from '../lib/api/book-detail.ts';
import { useOffline } from './network-status.ts';
import './pwa.css';

export const NEEDS_NETWORK = {
  title: '暂时无法离线阅读',
  priced: '本话为付费章节，需要联网阅读',
  notKept: '本话还没有保存到本机，需要联网阅读',
  hint: '联网读过的章节，断网后也能重读',
} as const;

/**
 * What the reader shows for a chapter it could not get while the device is offline: a chapter never read here
 * (a priced one never opened while owned included) is not on the phone, so it needs the network. Online it is
 * `online`, the reader's own note. Whether the chapter is priced comes from the book detail kept offline, if any.
 */
export function OfflineChapterNote({
  bookId,
  number,
  onRetry,
  online,
}: {
  bookId: number;
  number: number;
  onRetry: () => void;
  online: ReactNode;
}) {
  const offline = useOffline();
  const detail = useBookDetail(bookId, offline);
  if (!offline) return online;
  const chapter = detail.data?.chapterList.find((c) => c.number === number);
  return (
    <div className="offline-chapter-note" role="alert">
      <h2>{NEEDS_NETWORK.title}</h2>
      <p>{chapter && chapter.price > 0 ? NEEDS_NETWORK.priced : NEEDS_NETWORK.notKept}</p>
      <p className="offline-chapter-hint">{NEEDS_NETWORK.hint}</p>
      <button type="button" onClick={onRetry}>
        重试
      </button>
    </div>
  );
}
