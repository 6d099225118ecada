import { type Book, PILE_UP_CHOICES, type PileUp } from '@yueman/contract';
import { Tabs } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { showAlert } from '../../components/alert.ts';
import { StatusBadge } from '../../components/book-list.tsx';
import { Cover } from '../../components/cover.tsx';
import { ServiceLinks } from '../../components/service-links.tsx';
import { chinaTimeFormat } from '../../lib/china-time.ts';
import { markShelfSeen, pullFollows, setPileUp } from '../../lib/follow-sync.ts';
import { bookPath, calendarPath, homePath, readerPath, searchPath } from '../../lib/paths.ts';
import { type FollowMeta, type HistoryEntry, useShelfStore } from '../../lib/shelf-store.ts';
import './shelf.css';

type TabKey = 'favourites' | 'history';

const dateFormat = chinaTimeFormat({
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

/** China time (docs/api.md section 6), as 2026-11-22 12:30. */
export function formatReadDate(ms: number) {
  const p = Object.fromEntries(
    dateFormat()
      .formatToParts(new Date(ms))
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

function Empty({ text, link }: { text: string; link: string }) {
  return (
    <div className="shelf-empty">
      <div className="shelf-empty-art" aria-hidden />
      <p>暂时没有记录</p>
      <Link to={homePath()} className="shelf-empty-link">
        {text} {link}
      </Link>
    </div>
  );
}

/** 更新至第N话 · 3话未读: the newest released chapter and those after the one last read. */
export function followLine(meta: FollowMeta | undefined, lastReadNumber: number | undefined) {
  if (!meta || meta.latestChapter === 0) return undefined;
  const unread =
    meta.unread ?? (lastReadNumber === undefined ? null : Math.max(0, meta.latestChapter - lastReadNumber));
  // Not started: the line below already says 还未开始阅读.
  if (unread === null) return `更新至第${meta.latestChapter}话`;
  return `更新至第${meta.latestChapter}话 · ${unread === 0 ? '已读到最新' : `${unread}话未读`}`;
}

const PILE_UP_TEXT: Record<PileUp, string> = {
  0: '攒更提醒：关',
  3: '攒够3话提醒',
  5: '攒够5话提醒',
  10: '攒够10话提醒',
};

function FavouriteRow({ book, isNew }: { book: Book; isNew: boolean }) {
  const toggle = useShelfStore((s) => s.toggleFavourite);
  const lastRead = useShelfStore((s) => s.history.find((h) => h.bookInfo.bookId === book.bookId));
  const meta = useShelfStore((s) => s.follows[book.bookId]);
  const line = followLine(meta, lastRead?.number);
  return (
    <li className="shelf-row">
      <Link to={bookPath(book.bookId)} className="shelf-row-main">
        <Cover path={book.cover} width={200} alt={book.title} />
        <div className="shelf-row-text">
          <span className="shelf-row-title">
            {book.title}
            {isNew && <span className="shelf-row-new">有更新</span>}
          </span>
          <span className="shelf-row-sub">{book.author}</span>
          <span className="shelf-row-meta">
            <StatusBadge status={book.publishStatus} />
            <span>共{book.chapterCount}话</span>
          </span>
          {line && <span className="shelf-row-follow">{line}</span>}
          <span className="shelf-row-progress">
            {lastRead ? `读到第${lastRead.number}话` : '还未开始阅读'}
          </span>
        </div>
      </Link>
      <div className="shelf-row-side">
        <select
          className="shelf-row-pile"
          aria-label={`攒更提醒 ${book.title}`}
          value={meta?.pileUp ?? 0}
          onChange={(e) => setPileUp(book.bookId, Number(e.target.value) as PileUp)}
        >
          {PILE_UP_CHOICES.map((n) => (
            <option key={n} value={n}>
              {PILE_UP_TEXT[n]}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="shelf-row-action"
          aria-label={`取消收藏 ${book.title}`}
          onClick={() => {
            toggle(book);
            showAlert('已取消收藏');
          }}
        >
          取消收藏
        </button>
      </div>
    </li>
  );
}

function HistoryRow({ entry }: { entry: HistoryEntry }) {
  const book = entry.bookInfo;
  return (
    <li className="shelf-row">
      <Link to={readerPath(book.bookId, entry.number)} className="shelf-row-main">
        <Cover path={book.cover} width={200} alt={book.title} />
        <div className="shelf-row-text">
          <span className="shelf-row-title">{book.title}</span>
          <span className="shelf-row-sub">{book.author}</span>
          <span className="shelf-row-progress">读到第{entry.number}话</span>
          <time className="shelf-row-date" dateTime={new Date(entry.date).toISOString()}>
            {formatReadDate(entry.date)}
          </time>
        </div>
      </Link>
      <Link
        to={readerPath(book.bookId, entry.number)}
        className="shelf-row-action shelf-row-continue"
        aria-hidden
        tabIndex={-1}
      >
        继续阅读
      </Link>
    </li>
  );
}

function newFollowIds(): ReadonlySet<number> {
  const { favourites, follows } = useShelfStore.getState();
  return new Set(
    favourites
      .filter((b) => {
        const f = follows[b.bookId];
        return !!f && f.latestChapter > f.seenChapter;
      })
      .map((b) => b.bookId),
  );
}

/** /shelf: favourites and reading history, kept on this device (spec sections 2, 3, 4). */
export default function ShelfPage() {
  const [params, setParams] = useSearchParams();
  const active: TabKey = params.get('active') === 'history' ? 'history' : 'favourites';
  const favourites = useShelfStore((s) => s.favourites);
  const history = useShelfStore((s) => s.history);
  // The books with chapters out since the shelf was last looked at, as it opened: marked 有更新 while it is open.
  const [newIds, setNewIds] = useState<ReadonlySet<number>>(() => newFollowIds());
  useEffect(() => {
    let live = true;
    // The account's newest chapters, then everything listed counts as seen (the tab's dot goes out).
    void pullFollows()
      .catch(() => undefined)
      .then(() => {
        if (!live) return;
        setNewIds((was) => new Set([...was, ...newFollowIds()]));
        markShelfSeen();
      });
    return () => {
      live = false;
    };
  }, []);

  return (
    <main className="page page-grey shelf-page">
      <header className="shelf-header">
        <h1>我的书架</h1>
        <Link to={calendarPath()} className="shelf-calendar">
          更新日历
        </Link>
        <Link to={searchPath()} className="shelf-search" aria-label="搜索">
          <span className="icon-search" aria-hidden />
        </Link>
      </header>
      <Tabs
        className="shelf-tabs"
        activeKey={active}
        onChange={(key) => setParams(key === 'history' ? { active: 'history' } : {}, { replace: true })}
      >
        <Tabs.Tab title="我的收藏" key="favourites" destroyOnClose>
          {favourites.length === 0 ? (
            <Empty text="去首页" link="发现好看的漫画 ›" />
          ) : (
            <ul className="shelf-list" aria-label="我的收藏">
              {favourites.map((book) => (
                <FavouriteRow key={book.bookId} book={book} isNew={newIds.has(book.bookId)} />
              ))}
            </ul>
          )}
        </Tabs.Tab>
        <Tabs.Tab title="阅读历史" key="history" destroyOnClose>
          {history.length === 0 ? (
            <Empty text="去首页" link="开始阅读 ›" />
          ) : (
            <ul className="shelf-list" aria-label="阅读历史">
              {history.map((entry) => (
                <HistoryRow key={entry.bookInfo.bookId} entry={entry} />
              ))}
            </ul>
          )}
        </Tabs.Tab>
      </Tabs>
      <ServiceLinks />
    </main>
  );
}
