import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { bookPinyinKeys, books } from '../../db/schema/index.ts';
import { rowsOf } from '../../shared/rows.ts';
import { type PinyinKey, type SearchKeys, searchKeysOf } from './search-keys.ts';

/** The text search keys are computed from, as it was read: the keys are written only if it is still the same. */
export interface KeyedText {
  id: number;
  title: string;
  author: string;
  aliases: string[];
}

/** Aliases compared as one string (a unit separator between them: no alias holds one after the console's checks). */
const joined = (aliases: readonly string[]) => aliases.join('\u001f');

/**
 * Writes books' search keys and pinyin keys, in one statement each, for the books whose text is still what the keys
 * were computed from and that have no keys (an edit meanwhile wrote its own, or nulled them for the job again).
 * Answers the ids written.
 */
export async function writeSearchKeys(q: Queryable, rows: { text: KeyedText; keys: SearchKeys }[]) {
  if (rows.length === 0) return [];
  // One JSON parameter of rows: drizzle would send an array as a list of parameters.
  const values = rows.map(({ text, keys }) => ({
    id: text.id,
    title: text.title,
    author: text.author,
    aliases: joined(text.aliases),
    title_key: keys.searchTitle,
    author_key: keys.searchAuthor,
    aliases_key: keys.searchAliases,
    readings: keys.searchPinyin,
  }));
  const written = rowsOf<{ id: number }>(
    await q.execute(sql`
      update ${books} as b set search_title = v.title_key, search_author = v.author_key,
        search_aliases = v.aliases_key, search_pinyin = v.readings
      from json_to_recordset(${JSON.stringify(values)}::json) as v (id int, title text, author text, aliases text,
        title_key text, author_key text, aliases_key text, readings text)
      where b.id = v.id and b.search_title is null and b.title = v.title and b.author = v.author
        and array_to_string(b.aliases, chr(31)) = v.aliases
      returning b.id`),
  ).map((r) => Number(r.id));
  if (written.length === 0) return written;
  const done = new Set(written);
  const keys = rows
    .filter((r) => done.has(r.text.id))
    .flatMap((r) => r.keys.pinyinKeys.map((k) => ({ id: r.text.id, ...k })));
  await q.execute(
    sql`delete from ${bookPinyinKeys} where ${bookPinyinKeys.bookId} = any(${`{${written.join(',')}}`}::int[])`,
  );
  await insertPinyinKeys(q, keys);
  return written;
}

/**
 * Adds books' pinyin keys, in one statement, each with its book's bucket while the book is published (the books'
 * triggers keep it after): what a pinyin search ranks by. The books are written already.
 */
export async function insertPinyinKeys(q: Queryable, keys: ({ id: number } & PinyinKey)[]) {
  if (keys.length === 0) return;
  await q.execute(sql`
    insert into ${bookPinyinKeys} (key, book_id, tier, bucket)
    select k.key, k.id, k.tier, case when b.published then b.indexed_bucket end
    from json_to_recordset(${JSON.stringify(keys)}::json) as k (key text, id int, tier smallint)
      join ${books} as b on b.id = k.id
    on conflict do nothing`);
}

/**
 * Computes and writes the keys of up to `batch` books that have none, of ids above `after` (lowest first); answers
 * how many it read and the last id read (where the next batch starts).
 */
export async function fillSearchKeys(q: Queryable, batch: number, after = 0) {
  const missing = await q
    .select({ id: books.id, title: books.title, author: books.author, aliases: books.aliases })
    .from(books)
    .where(sql`${books.searchTitle} is null and ${books.id} > ${after}`)
    .orderBy(books.id)
    .limit(batch);
  await writeSearchKeys(
    q,
    missing.map((text) => ({ text, keys: searchKeysOf(text) })),
  );
  return { read: missing.length, last: missing.at(-1)?.id ?? after };
}

/** Fills every book's missing keys, a batch a transaction (seeds, the bench, tests). */
export async function fillAllSearchKeys(q: Queryable, batch = 1000): Promise<void> {
  let after = 0;
  for (;;) {
    const { read, last } = await q.transaction((tx) => fillSearchKeys(tx, batch, after));
    if (read < batch) return;
    after = last;
  }
}
