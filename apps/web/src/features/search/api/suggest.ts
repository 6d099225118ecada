import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { SEARCH_MAX_LENGTH } from '@yueman/contract';
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

/**
 * GET /api/book/suggest: up to 8 titles for what is typed, each with why it matched. Asked once typing pauses; a
 * request whose text is no longer the field's is aborted (react-query aborts a query nobody observes any more).
 */
export function useSuggestions(typed: string) {
  const keyword = useSettled(typed.trim());
  const wanted = keyword !== '' && [...keyword].length <= SEARCH_MAX_LENGTH && keyword === typed.trim();
  return useQuery({
    queryKey: ['book', 'suggest', keyword],
    queryFn: ({ signal }) => data(routes.suggest, { query: { content: keyword }, signal }),
    enabled: wanted,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}
