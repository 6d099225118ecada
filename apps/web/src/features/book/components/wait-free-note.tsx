import { useUserStore } from '../../../lib/user-store.ts';
import { useChapterList } from '../api/get-chapter-list.ts';
import { nextWaitFree, shortLeft, waitEvery } from '../book-helpers.ts';

/**
 * The detail page's 等就免费 line: how often the book opens a chapter free, and when the reader's next one is
 * ready (from the reader's own chapter list; nothing said about it until that list is here).
 */
export function WaitFreeNote({ bookId, waitMinutes }: { bookId: number; waitMinutes: number }) {
  const signedIn = useUserStore((s) => !!s.userInfo);
  const list = useChapterList(bookId, signedIn);
  const next = nextWaitFree(list.data);
  const now = Date.now();
  return (
    <section className="book-section book-wait" aria-label="等就免费">
      <p className="book-wait-rule">
        <b>等就免费</b> · {waitEvery(waitMinutes)}可免费看一话
      </p>
      {next !== null && (
        <p className="book-wait-next">
          {next <= now ? '现在就可以免费看一话' : `${shortLeft(next, now)}后可免费看下一话`}
        </p>
      )}
    </section>
  );
}
