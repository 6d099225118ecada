import { SEARCH_MAX_LENGTH } from '@yueman/contract';
import { type FormEvent, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { showAlert } from '../../components/alert.ts';
import { ServiceLinks } from '../../components/service-links.tsx';
import { TopBar } from '../../components/top-bar.tsx';
import { useSuggestions } from './api/suggest.ts';
import { SearchResults } from './components/search-results.tsx';
import { SearchStart } from './components/search-start.tsx';
import { Suggestions } from './components/suggestions.tsx';
import { useSearchHistory } from './search-history.ts';
import './search.css';

/** Spec section 5: empty and over-long keywords are refused before any call. */
function validate(keyword: string): string | null {
  if (keyword === '') return '请输入搜索关键字';
  if ([...keyword].length > SEARCH_MAX_LENGTH) return `搜索关键字最长不超过${SEARCH_MAX_LENGTH}个字`;
  return null;
}

/** /search: not-searched state (hot words, history) and results state (spec sections 2 and 4). */
export default function SearchPage() {
  const [params, setParams] = useSearchParams();
  const searched = params.get('content') ?? '';
  const [input, setInput] = useState(searched);
  const { add } = useSearchHistory();
  // Suggestions while the field holds something other than the searched keyword.
  const typing = input.trim() !== '' && input.trim() !== searched;
  const suggestions = useSuggestions(typing ? input : '');

  // Going back to this screen keeps the keyword of its results in the address.
  useEffect(() => setInput(searched), [searched]);

  const search = (raw: string) => {
    const keyword = raw.trim();
    const problem = validate(keyword);
    if (problem) return showAlert(problem);
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
      {typing && <Suggestions items={suggestions} />}
      {searched ? <SearchResults keyword={searched} /> : !typing && <SearchStart onPick={search} />}
      <ServiceLinks />
    </main>
  );
}
