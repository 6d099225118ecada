import type { Book, ChapterItem } from '@yueman/contract';
import { Dialog } from 'antd-mobile';
import { useCallback } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { BookTile, publishStatusLabel } from '../../components/book-list.tsx';
import { Cover } from '../../components/cover.tsx';
import { ServiceLinks } from '../../components/service-links.tsx';
import { TopBar } from '../../components/top-bar.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useShelfStore } from '../../lib/shelf-store.ts';
import { useBookDetail } from './api/get-book-detail.ts';
import { catalogPath, positiveId, priceLabel, readCountLabel, readerPath } from './book-helpers.ts';
import './book.css';

const PREVIEW_SIZE = 6;

export default function BookPage() {
  const bookId = positiveId(useParams().id);
  const detail = useBookDetail(bookId ?? 0, bookId !== null);

  if (bookId === null || (detail.isError && detail.error instanceof ApiError && detail.error.code === 404)) {
    return <BookMissing />;
  }
  if (detail.isError) {
    return (
      <main className="page book-page">
        <TopBar title="漫画详情" />
        <div className="book-message" role="alert">
          <p>信息获取失败，请稍后重试</p>
          <button type="button" className="book-link-button" onClick={() => void detail.refetch()}>
            重新加载
          </button>
        </div>
      </main>
    );
  }
  if (!detail.data) {
    return (
      <main className="page book-page" aria-busy="true">
        <TopBar title="漫画详情" />
        <div className="book-skeleton" />
      </main>
    );
  }
  const { book, chapterList, lastChapter, recommendList } = detail.data;
  return (
    <main className="page book-page">
      <TopBar title={book.title} />
      <BookHeader book={book} />
      <BookActions book={book} lastNumber={lastChapter?.number ?? 0} />
      <section className="book-section">
        <p className="book-abstract">{book.abstractContent}</p>
      </section>
      <ChapterPreview book={book} chapters={chapterList} />
      {recommendList.length > 0 && (
        <section className="book-section">
          <h2 className="book-section-title">猜你喜欢</h2>
          <div className="book-recommend-grid">
            {recommendList.map((b) => (
              <BookTile key={b.bookId} book={b} />
            ))}
          </div>
        </section>
      )}
      <ServiceLinks />
    </main>
  );
}

function BookMissing() {
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

function BookHeader({ book }: { book: Book }) {
  return (
    <header className="book-header">
      <Cover path={book.horiCover} width={500} shape="horizontal" alt="" eager className="book-hero" />
      <div className="book-hero-shade" />
      <div className="book-header-body">
        <Cover path={book.cover} width={200} alt={book.title} eager className="book-header-cover" />
        <div className="book-header-text">
          <h1 className="book-title">{book.title}</h1>
          <p className="book-author">{book.author}</p>
          <p className="book-meta">
            <span
              className={`book-status book-status-${book.publishStatus === 'finish' ? 'finish' : 'serialize'}`}
            >
              {publishStatusLabel(book.publishStatus)}
            </span>
            <span>{book.categoryName}</span>
            <span>{book.chapterCount}话</span>
          </p>
          <p className="book-reads">
            <strong>{readCountLabel(book.readCount)}</strong> 人气
          </p>
        </div>
      </div>
    </header>
  );
}

/**
 * 开始阅读 goes to the chapter read last (asking first, with 确定 / 取消) or to chapter 1. The prompt shows when
 * 开始阅读 is tapped rather than on arrival: a reader who came for the catalogue or the recommendations is not
 * interrupted by a modal (docs in the feature report).
 */
function BookActions({ book, lastNumber }: { book: Book; lastNumber: number }) {
  const navigate = useNavigate();
  const favourite = useShelfStore((s) => s.favourites.some((b) => b.bookId === book.bookId));
  const toggleFavourite = useShelfStore((s) => s.toggleFavourite);
  const history = useShelfStore((s) => s.history.find((h) => h.bookInfo.bookId === book.bookId));

  const start = useCallback(async () => {
    if (!history) return navigate(readerPath(book.bookId, 1, book.title));
    const goOn = await Dialog.confirm({
      content: `上次阅读到第${history.number}话，是否继续阅读？`,
      confirmText: '确定',
      cancelText: '取消',
      bodyClassName: 'book-dialog',
    });
    if (goOn) navigate(readerPath(book.bookId, history.number, book.title));
  }, [book, history, navigate]);

  return (
    <section className="book-actions">
      <button
        type="button"
        className={`book-fav ${favourite ? 'is-on' : ''}`}
        aria-pressed={favourite}
        onClick={() => toggleFavourite(book)}
      >
        <span className="book-fav-icon" aria-hidden />
        {favourite ? '取消收藏' : '加入收藏'}
      </button>
      <button type="button" className="book-start" onClick={() => void start()}>
        开始阅读
        {history && <small>续看第{history.number}话</small>}
      </button>
      <button
        type="button"
        className="book-latest"
        disabled={lastNumber === 0}
        onClick={() => navigate(readerPath(book.bookId, lastNumber, book.title))}
      >
        最新
      </button>
    </section>
  );
}

function ChapterPreview({ book, chapters }: { book: Book; chapters: ChapterItem[] }) {
  return (
    <section className="book-section">
      <div className="book-section-head">
        <h2 className="book-section-title">
          目录{' '}
          <span className="book-section-sub">
            {book.publishStatus === 'finish' ? '已完结' : `更新至${chapters.length}话`}
          </span>
        </h2>
        <Link to={catalogPath(book.bookId, book.title)} className="book-more">
          查看目录
        </Link>
      </div>
      <ul className="book-chapter-grid">
        {chapters.slice(0, PREVIEW_SIZE).map((c) => (
          <li key={c.chapterId}>
            <Link to={readerPath(book.bookId, c.number, book.title, c.title)} className="book-chapter-chip">
              <span className="book-chapter-chip-title">{c.title}</span>
              <span className={c.price === 0 ? 'chip-free' : 'chip-price'}>{priceLabel(c.price)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
