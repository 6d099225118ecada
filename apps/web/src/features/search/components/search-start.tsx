import { ChipsSkeleton } from '../../../components/skeletons/parts.tsx';
import { useInitSearch } from '../api/init-search.ts';
import { useSearchHistory } from '../search-history.ts';
import { WordChips } from './word-chips.tsx';

/** The not-searched state (spec section 4): 热门搜索 and 搜索历史; tapping a word searches for it. */
export function SearchStart({ onPick }: { onPick(w: string): void }) {
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
          <ChipsSkeleton />
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
