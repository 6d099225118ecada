import { DotLoading, InfiniteScroll, Toast } from 'antd-mobile';
import { type FormEvent, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { BookRow, EmptyList, ListEnd } from '../../components/book-list.tsx';
import { ServiceLinks } from '../../components/service-links.tsx';
import { TopBar } from '../../components/top-bar.tsx';
import { useInitSearch } from './api/init-search.ts';
import { useSearchBooks } from './api/search-books.ts';
import { useSearchHistory } from './search-history.ts';
import './search.css';

const MAX_KEYWORD = 20;

/** Spec section 5: empty and over-long keywords are refused before any call. */
function validate(keyword: string): string | null {
  if (keyword === '') return '请输入搜索关键字';
  if ([...keyword].length > MAX_KEYWORD) return '搜索关键字最长不超过20个字';
  return null;
}

function WordChips({
  words,
  onPick,
  hot = false,
}: {
  words: string[];
  onPick(w: string): void;
  hot?: boolean;
}) {
  return (
    <div className="search-chips">
      {words.map((w, i) => (
        <button
          key={w}
          type="button"
          className={`search-chip ${hot && i < 3 ? 'search-chip-hot' : ''}`}
          onClick={() => onPick(w)}
        >
          {w}
        </button>
      ))}
    </div>
  );
}

function Idle({ onPick }: { onPick(w: string): void }) {
  const hot = useInitSearch();
  const history = useSearchHistory();
  return (
    <>
      <section className="search-section" aria-labelledby="search-hot">
        <h2 id="search-hot" className="search-section-title">
          <span className="search-section-icon search-section-icon-hot" aria-hidden />
          热门搜索
        </h2>
        {hot.isPending ? (
          <DotLoading color="primary" />
        ) : (
          <WordChips words={hot.data?.hotWords ?? []} onPick={onPick} hot />
        )}
      </section>
      <section className="search-section" aria-labelledby="search-history">
        <h2 id="search-history" className="search-section-title">
          <span className="search-section-icon search-section-icon-history" aria-hidden />
          搜索历史
          {history.words.length > 0 && (
            <button type="button" className="search-clear" onClick={history.clear}>
              清空
            </button>
          )}
        </h2>
        {history.words.length > 0 ? (
          <WordChips words={history.words} onPick={onPick} />
        ) : (
          <p className="search-none">还没有搜索过</p>
        )}
      </section>
    </>
  );
}

function Results({ keyword }: { keyword: string }) {
  const result = useSearchBooks(keyword);
  if (result.isPending)
    return (
      <div className="search-loading">
        <DotLoading color="primary" />
      </div>
    );
  if (result.isError)
    return (
      <div className="search-failed">
        <p>搜索失败，请稍后重试</p>
        <button type="button" onClick={() => void result.refetch()}>
          重试
        </button>
      </div>
    );
  const books = result.data.pages.flat();
  if (books.length === 0) return <EmptyList />;
  return (
    <section aria-label="搜索结果">
      <p className="search-count">
        “<em>{keyword}</em>”的搜索结果
      </p>
      <div className="search-results">
        {books.map((book, i) => (
          <BookRow key={book.bookId} book={book} eager={i < 4} />
        ))}
      </div>
      <InfiniteScroll
        hasMore={result.hasNextPage}
        loadMore={async () => {
          if (!result.isFetchingNextPage) await result.fetchNextPage({ throwOnError: true });
        }}
      >
        {result.hasNextPage ? <DotLoading color="primary" /> : <ListEnd />}
      </InfiniteScroll>
    </section>
  );
}

/** /search: not-searched state (hot words, history) and results state (spec sections 2 and 4). */
export default function SearchPage() {
  const [params, setParams] = useSearchParams();
  const searched = params.get('content') ?? '';
  const [input, setInput] = useState(searched);
  const { add } = useSearchHistory();

  // Going back to this screen keeps the keyword of its results in the address.
  useEffect(() => setInput(searched), [searched]);

  const search = (raw: string) => {
    const keyword = raw.trim();
    const problem = validate(keyword);
    if (problem) {
      Toast.show({ content: problem, duration: 1500 });
      return;
    }
    setInput(keyword);
    add(keyword);
    setParams({ content: keyword }, { replace: true });
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    search(input);
  };

  return (
    <main className="page search-page">
      <TopBar title="搜索" />
      <search className="search-bar">
        <form className="search-form" onSubmit={onSubmit}>
          <label className="search-field">
            <span className="icon-search search-field-icon" aria-hidden />
            <input
              type="search"
              enterKeyHint="search"
              placeholder="书名或作者"
              aria-label="书名或作者"
              value={input}
              onChange={(e) => {
                setInput(e.target.value);
                // Emptying the field returns to hot words and history.
                if (e.target.value === '' && searched) setParams({}, { replace: true });
              }}
            />
          </label>
          <button type="submit" className="search-submit">
            搜索
          </button>
        </form>
      </search>
      {searched ? <Results keyword={searched} /> : <Idle onPick={search} />}
      <ServiceLinks />
    </main>
  );
}
