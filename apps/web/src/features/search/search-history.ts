import { useCallback, useState } from 'react';

/** Search history in local storage: a comma-joined string of recent words (spec section 3). */
export const SEARCH_HISTORY_KEY = 'ym-search-history';
export const SEARCH_HISTORY_MAX = 10;

export function readSearchHistory(): string[] {
  try {
    const raw = localStorage.getItem(SEARCH_HISTORY_KEY) ?? '';
    return raw
      .split(',')
      .filter((w) => w !== '')
      .slice(0, SEARCH_HISTORY_MAX);
  } catch {
    return [];
  }
}

/** Newest first, a repeated word moves to the front, at most 10 (spec section 9). */
export function addToHistory(words: string[], word: string): string[] {
  return [word, ...words.filter((w) => w !== word)].slice(0, SEARCH_HISTORY_MAX);
}

function write(words: string[]) {
  try {
    if (words.length) localStorage.setItem(SEARCH_HISTORY_KEY, words.join(','));
    else localStorage.removeItem(SEARCH_HISTORY_KEY);
  } catch {
    // Private mode or full storage: the history just is not kept.
  }
}

export function useSearchHistory() {
  const [words, setWords] = useState(readSearchHistory);
  const add = useCallback((word: string) => {
    // A comma would split the word on the next read; it is stored as a space.
    const next = addToHistory(readSearchHistory(), word.replaceAll(',', ' '));
    write(next);
    setWords(next);
  }, []);
  const clear = useCallback(() => {
    write([]);
    setWords([]);
  }, []);
  return { words, add, clear };
}
