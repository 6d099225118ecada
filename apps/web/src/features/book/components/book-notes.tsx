import { Link } from 'react-router';
import { TopBar } from '../../../components/top-bar.tsx';

/** No such book, or it was taken down. */
export function BookMissing() {
  return (
    <main className="page book-page">
      <TopBar title="漫画详情" />
      <div className="book-message" role="alert">
        <p>这本漫画不存在或已下架</p>
        <Link to="/home" className="book-link-button">
          返回首页
        </Link>
      </div>
    </main>
  );
}

/** The detail call failed: say so and offer to load again. */
export function BookFailed({ onRetry }: { onRetry(): void }) {
  return (
    <main className="page book-page">
      <TopBar title="漫画详情" />
      <div className="book-message" role="alert">
        <p>信息获取失败，请稍后重试</p>
        <button type="button" className="book-link-button" onClick={onRetry}>
          重新加载
        </button>
      </div>
    </main>
  );
}

/** While the detail loads: the top bar and a skeleton of the header. */
export function BookLoading() {
  return (
    <main className="page book-page" aria-busy="true">
      <TopBar title="漫画详情" />
      <div className="book-skeleton" />
    </main>
  );
}
