import { SEARCH_MAX_LENGTH, type SearchSuggestion, SUGGESTION_LIMIT } from '@yueman/contract';
import { pageWindow } from '../../shared/pagination.ts';
import { emptyKeyword, keywordTooLong } from './catalog.errors.ts';
import { SEARCH_TIERS, type SearchHit } from './catalog.repository.ts';
import type { CatalogDeps } from './catalog.service.ts';
import { foldKeyword, mayBePinyin } from './search-keys.ts';
import { suggestionOf, withinOneTypo } from './search-match.ts';

/** Keyword rules and messages from the spec's section 5: 1 to 20 characters after trimming. */
export function searchKeyword(raw: string): string {
  const keyword = raw.trim();
  if (keyword.length === 0) throw emptyKeyword();
  if ([...keyword].length > SEARCH_MAX_LENGTH) throw keywordTooLong();
  return keyword;
}

/** One typo is tried only for keywords this long: shorter ones are too easily another word. */
const TYPO_MIN_LENGTH = 3;

/** The grams whose title and alias lists hold every book a keyword with one typo could mean. */
function typoGrams(keyword: string): string[] {
  const k = [...keyword];
  const grams = k.slice(0, -1).map((c, i) => c + (k[i + 1] ?? ''));
  // Three characters with the middle one wrong share no pair with the title: its first and last characters.
  if (k.length === 3) grams.push(k[0] ?? '', k[2] ?? '');
  return grams;
}

/** Books whose title or an alias holds the keyword with one character wrong, added or missing; most read first. */
async function typoMatches({ repo }: CatalogDeps, keyword: string, end: number): Promise<SearchHit[]> {
  const candidates = await repo.typoCandidates(typoGrams(keyword));
  return candidates
    .filter(
      (b) =>
        withinOneTypo(keyword, b.searchTitle) ||
        b.searchAliases.split(' ').some((a) => withinOneTypo(keyword, a)),
    )
    .sort((a, b) => b.indexedBucket - a.indexedBucket || b.readCount - a.readCount || a.bookId - b.bookId)
    .slice(0, end)
    .map((b) => ({ ...b, tier: SEARCH_TIERS.typo }));
}

/**
 * The books a keyword finds, `limit` from `offset`, in the search's tiers; when nothing matches exactly, the books
 * one typo away (only on the first page: a typo search is one short list).
 */
async function find(deps: CatalogDeps, keyword: string, limit: number, offset: number) {
  if (keyword === '') return [];
  const hits = await deps.repo.searchBooks(keyword, limit, offset, { pinyin: mayBePinyin(keyword) });
  if (hits.length > 0 || offset > 0 || [...keyword].length < TYPO_MIN_LENGTH) return hits;
  return typoMatches(deps, keyword, limit);
}

/** What a search reports to the searches' counts (the console's top and zero-result searches). */
export type SearchCounted = (keyword: string, found: boolean) => void;

export async function search(
  deps: CatalogDeps & { counted?: SearchCounted },
  { content, page }: { content: string; page: number },
) {
  const keyword = foldKeyword(searchKeyword(content));
  const { limit, offset } = pageWindow(page);
  const hits = await find(deps, keyword, limit, offset);
  if (page === 1 && keyword !== '') deps.counted?.(keyword, hits.length > 0);
  return hits.map(({ tier: _t, aliases: _a, readings: _r, ...book }) => book);
}

/** Up to 8 titles for what the reader has typed so far, each with why it matched. */
export async function suggest(
  deps: CatalogDeps,
  { content }: { content: string },
): Promise<SearchSuggestion[]> {
  const keyword = foldKeyword(searchKeyword(content));
  const hits = await find(deps, keyword, SUGGESTION_LIMIT, 0);
  return hits.map((hit) => suggestionOf(hit, keyword));
}
