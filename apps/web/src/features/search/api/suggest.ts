import { useQuery } from '@tanstack/react-query';
import { SEARCH_MAX_LENGTH, type SearchSuggestion } from '@yueman/contract';
import { useEffect, useState } from 'react';
import { data, routes } from '../../../lib/api-client.ts';

/** How long typing must pause before the suggestions are asked for. */
const DEBOUNCE_MS = 250;

/** The text once it has not changed for DEBOUNCE_MS. */
function useSettled(text: string) {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return settled;
}

const NONE: SearchSuggestion[] = [];

/**
 * GET /api/book/suggest: up to 8 titles for what is typed, each with why it matched. Asked once typing pauses; a
 * request whose text is no longer the field's is aborted (react-query aborts a query nobody observes any more).
 * The titles are only ever the answer for the text in the field now: while typing has not paused, and while the
 * question for the new text is on its way, there are none (the previous text's answer is never shown in its place;
 * docs/decisions.md, "Search the way readers type").
 */
export function useSuggestions(typed: string) {
  const current = typed.trim();
  const keyword = useSettled(current);
  const wanted = keyword !== '' && [...keyword].length <= SEARCH_MAX_LENGTH && keyword === current;
  const query = useQuery({
    queryKey: ['book', 'suggest', keyword],
    queryFn: ({ signal }) => data(routes.suggest, { query: { content: keyword }, signal }),
    enabled: wanted,
    staleTime: 60_000,
  });
  return wanted && query.data ? query.data : NONE;
}
