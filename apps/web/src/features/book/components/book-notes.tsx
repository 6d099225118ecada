import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { BookBodySkeleton } from '../../../components/skeletons/parts.tsx';
import { TopBar } from '../../../components/top-bar.tsx';
import { homePath } from '../../../lib/paths.ts';

/** Said in place of a book's content, with the way on: loading again when `onRetry` is given, else home. */
export function BookMessage({ text, onRetry }: { text: string; onRetry?: () => void }) {
  return (
    <div className="book-message" role="alert">
      <p>{text}</p>
      {onRetry ? (
        <button type="button" className="book-link-button" onClick={onRetry}>
          重新加载
        </button>
      ) : (
        <Link to={homePath()} className="book-link-button">
          返回首页
        </Link>
      )}
    </div>
  );
}

/** The detail screen's frame while it has no book to show. */
function DetailFrame({ busy, children }: { busy?: boolean; children: ReactNode }) {
  return (
    <main className="page book-page" aria-busy={busy ? 'true' : undefined}>
      <TopBar title="漫画详情" />
      {children}
    </main>
  );
}

/** No such book, or it was taken down. */
export const BookMissing = () => (
  <DetailFrame>
    <BookMessage text="这本漫画不存在或已下架" />
  </DetailFrame>
);

/** The detail call failed: say so and offer to load again. */
export const BookFailed = ({ onRetry }: { onRetry(): void }) => (
  <DetailFrame>
    <BookMessage text="信息获取失败，请稍后重试" onRetry={onRetry} />
  </DetailFrame>
);

/** While the detail loads: the top bar and placeholders shaped like the page. */
export const BookLoading = () => (
  <DetailFrame busy>
    <BookBodySkeleton />
  </DetailFrame>
);
