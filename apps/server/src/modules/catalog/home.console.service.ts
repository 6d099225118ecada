import { ShowcaseType } from '@yueman/contract';
import { chinaDate } from '../../shared/china-time.ts';
import { badRequest } from '../../shared/errors.ts';
import type { ConsoleDeps, Editor } from './books.console.service.ts';
import type { HomeConsoleRepository } from './home.console.repository.ts';
import type { SearchTermsRepository } from './search-terms.repository.ts';

/** The home page's sections (the spec's showcase types), in the order the console shows them. */
export const SHOWCASE_TYPES = ShowcaseType.anyOf.map((t) => t.const) as ShowcaseType[];

export interface HomeConsoleDeps extends Pick<ConsoleDeps, 'audit' | 'changed'> {
  repo: HomeConsoleRepository;
  terms: Pick<SearchTermsRepository, 'top'>;
}

/** Keywords shown per list on the hot-words screen. */
const TERMS_SHOWN = 50;

/** What readers searched most in the last `days` China-time days (today included), and what found nothing. */
export const searchTerms = (deps: HomeConsoleDeps, { days }: { days: number }) =>
  deps.terms.top(chinaDate(new Date(), 1 - days), TERMS_SHOWN);

const duplicates = <T>(items: T[]) => items.length !== new Set(items).size;

// The home page as operators arrange it: the books of each section in order, and the hot words.

export const sections = (deps: HomeConsoleDeps) =>
  Promise.all(SHOWCASE_TYPES.map(async (type) => ({ type, books: await deps.repo.section(type) })));

/** Replaces a section's books with `bookIds`, in that order (the console's drag order). */
export async function arrangeSection(
  deps: HomeConsoleDeps,
  input: { type: ShowcaseType; bookIds: number[]; editor: Editor },
) {
  if (duplicates(input.bookIds)) throw badRequest('同一本书只能出现一次', 'bookIds');
  const saved = await deps.repo.transaction(async (tx) => {
    if ((await deps.repo.existingBooks(tx, input.bookIds)) !== input.bookIds.length)
      throw badRequest('有书籍不存在', 'bookIds');
    await deps.repo.lockSection(tx, input.type);
    const before = await deps.repo.section(input.type, tx);
    await deps.repo.replaceSection(tx, input.type, input.bookIds);
    const after = await deps.repo.section(input.type, tx);
    await deps.audit(tx, {
      ...input.editor,
      action: 'home.section',
      target: `showcase:${input.type}`,
      before: before.map((b) => b.bookId),
      after: after.map((b) => b.bookId),
    });
    return after;
  });
  deps.changed();
  return { type: input.type, books: saved };
}

export const hotWords = (deps: HomeConsoleDeps) => deps.repo.words();

/** Replaces the hot words with `list`, in that order. */
export async function setHotWords(deps: HomeConsoleDeps, input: { list: string[]; editor: Editor }) {
  const list = input.list.map((w) => w.trim());
  if (list.some((w) => w === '')) throw badRequest('热词不能为空', 'words');
  if (duplicates(list)) throw badRequest('热词不能重复', 'words');
  const saved = await deps.repo.transaction(async (tx) => {
    await deps.repo.lockWords(tx);
    const before = await deps.repo.words(tx);
    await deps.repo.replaceWords(tx, list);
    await deps.audit(tx, {
      ...input.editor,
      action: 'home.hot_words',
      target: 'hot_words',
      before,
      after: list,
    });
    return list;
  });
  deps.changed();
  return saved;
}
