// The search index (book_postings) and the list totals (book_counts) that triggers on books keep: after every
// kind of write they equal what the books say, and search pages equal a brute-force search of the books.
import { BOOK_TEXT_LIMITS } from '@yueman/contract';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeDb, type TestDatabase } from '../../../test/test-database.ts';
import type { Database } from '../../db/client.ts';
import { books, categories, chapters } from '../../db/schema/index.ts';
import { seedScale } from '../../seed/seed-scale.ts';
import { rowsOf } from '../../shared/rows.ts';
import { createCatalogRepository } from './catalog.repository.ts';
import { createSearchBuckets } from './search-buckets.ts';
import { fillAllSearchKeys } from './search-keys.repository.ts';
import { foldKeyword, mayBePinyin, searchKeysOf } from './search-keys.ts';
import { createSearchKeysJob } from './search-keys-job.ts';

const silent = pino({ level: 'silent' });

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}

/**
 * Postings that should be there and are not, and postings that are there and should not be (at most 5 each). First
 * the search-buckets job's work, as it does it (batches until none is left): books are indexed at their read
 * count's bucket once it has run.
 */
async function postingsDrift(db: Database) {
  while ((await createSearchBuckets(createCatalogRepository(db), { log: silent }).moveBatch()) > 0);
  const expected = sql`select g.gram, g.tier, book_rank_bucket(b.read_count) as bucket, b.id
    from books as b, book_grams_of(b) as g where b.published`;
  const actual = sql`select p.gram, p.tier, p.bucket, unnest(p.book_ids) as id from book_postings as p`;
  return {
    missing: await rows(db, sql`(${expected} except all ${actual}) limit 5`),
    extra: await rows(db, sql`(${actual} except all ${expected}) limit 5`),
  };
}

/** Pinyin keys whose bucket is not their book's (its indexed_bucket while published, null while not), at most 5. */
async function pinyinDrift(db: Database) {
  return rows(
    db,
    sql`select k.key, k.book_id, k.bucket, b.indexed_bucket, b.published from book_pinyin_keys as k
        join books as b on b.id = k.book_id
        where k.bucket is distinct from case when b.published then b.indexed_bucket end limit 5`,
  );
}

/** book_counts rows that disagree with the books (zero rows may stay behind). */
async function countsDrift(db: Database) {
  return rows(
    db,
    sql`select coalesce(c.publish_status, b.publish_status) as status, coalesce(c.category_id, b.category_id) as category,
          c.n as counted, b.n as real
        from book_counts as c
        full join (select publish_status, category_id, count(*)::int as n from books group by 1, 2) as b
          on b.publish_status = c.publish_status and b.category_id = c.category_id
        where coalesce(c.n, 0) <> coalesce(b.n, 0)`,
  );
}

/**
 * The search's order by brute force: every book, checked field by field (its folded title, aliases, author and
 * description, book_search_fields) and its pinyin keys, in the tiers of SEARCH_TIERS.
 */
async function bruteForce(db: Database, keyword: string, limit: number, offset: number) {
  const pinyin = mayBePinyin(keyword);
  const keyed = (tier: number) => sql`(${pinyin} and exists (select 1 from book_pinyin_keys as k
    where k.book_id = b.id and k.tier = ${tier} and starts_with(k.key, ${keyword})))`;
  const found = await rows<{ id: number }>(
    db,
    sql`select b.id from books as b, lateral (select book_search_fields(b) as f) as s, lateral (select case
          when s.f[1] = ${keyword} then 1
          when starts_with(s.f[1], ${keyword}) then 2
          when strpos(s.f[1], ${keyword}) > 0 then 3
          when strpos(s.f[2], ${keyword}) > 0 then 4
          when ${keyed(5)} then 5
          when strpos(s.f[3], ${keyword}) > 0 or ${keyed(6)} then 6
          when strpos(s.f[4], ${keyword}) > 0 then 7 end as tier) as t
        where t.tier is not null and b.published
        order by t.tier, b.read_count desc, b.id limit ${limit} offset ${offset}`,
  );
  return found.map((r) => r.id);
}

/** A repeatable pseudo-random sequence. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0;
    return s / 2 ** 32;
  };
}

describeDb('search index and list totals', () => {
  let test: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    test = await createTestDatabase({ demo: true });
    db = test.db;
    // The seed writes each book's search keys with it: no search-keys job runs before the first test.
    await seedScale(db, { books: 400, chaptersPerBook: 1 });
  });
  afterAll(async () => {
    await test?.close();
  });

  it('keys every book as the seeds write it: its folded text and pinyin keys, with no job run', async () => {
    const [unkeyed] = await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from books where search_title is null`,
    );
    expect(Number(unkeyed?.n)).toBe(0);
    const written = await db
      .select({
        id: books.id,
        title: books.title,
        author: books.author,
        aliases: books.aliases,
        searchTitle: books.searchTitle,
        searchAuthor: books.searchAuthor,
        searchAliases: books.searchAliases,
        searchPinyin: books.searchPinyin,
      })
      .from(books)
      .where(sql`${books.id} % 37 = 0`);
    expect(written.length).toBeGreaterThan(5);
    for (const b of written) {
      const keys = searchKeysOf(b);
      expect(b, b.title).toMatchObject({
        searchTitle: keys.searchTitle,
        searchAuthor: keys.searchAuthor,
        searchAliases: keys.searchAliases,
        searchPinyin: keys.searchPinyin,
      });
      const stored = await rows<{ key: string; tier: number }>(
        db,
        sql`select key, tier from book_pinyin_keys where book_id = ${b.id} order by key`,
      );
      expect(
        stored.map((k) => `${k.key}:${k.tier}`),
        b.title,
      ).toEqual(keys.pinyinKeys.map((k) => `${k.key}:${k.tier}`).sort());
    }
    expect(await pinyinDrift(db)).toEqual([]);
    expect(await postingsDrift(db)).toEqual({ missing: [], extra: [] });
  });

  it('holds every gram of every book after the seeds, and counts every book', async () => {
    expect(await postingsDrift(db)).toEqual({ missing: [], extra: [] });
    expect(await countsDrift(db)).toEqual([]);
    const [posted] = await rows<{ n: number }>(
      db,
      sql`select count(distinct id)::int as n from
      (select unnest(book_ids) as id from book_postings) as p`,
    );
    expect(posted?.n).toBe(await db.$count(books));
  });

  it('follows inserts, edits, reads across buckets, moves between lists and deletes', async () => {
    const [category] = await db.select().from(categories).limit(1);
    const [other] = await db
      .select()
      .from(categories)
      .where(sql`${categories.id} <> ${category?.id}`)
      .limit(1);
    const added = await db
      .insert(books)
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          title: `索引之书${i}`,
          author: i % 2 ? '索引作者' : '别人',
          abstractContent: `第${i}本用来检查索引的书`,
          cover: 'covers/x-v.png',
          horiCover: 'covers/x-h.png',
          categoryId: category?.id ?? 1,
          publishStatus: 'serialize',
          readCount: i * 37,
        })),
      )
      .returning({ id: books.id });
    const ids = added.map((b) => b.id);
    await db.update(books).set({ title: '改过的书名' }).where(sql`${books.id} = ${ids[0]}`);
    await db.update(books).set({ abstractContent: '' }).where(sql`${books.id} = ${ids[1]}`);
    // Reads one at a time (the read path) and in jumps, over several buckets.
    for (let i = 0; i < 40; i++) {
      await db
        .update(books)
        .set({ readCount: sql`${books.readCount} + 1` })
        .where(sql`${books.id} = ${ids[2]}`);
    }
    await db.update(books).set({ readCount: 1_000_000 }).where(sql`${books.id} = ${ids[3]}`);
    await db.update(books).set({ readCount: 0 }).where(sql`${books.id} in (${ids[4]}, ${ids[5]})`);
    await db
      .update(books)
      .set({ publishStatus: 'finish', categoryId: other?.id ?? 2 })
      .where(sql`${books.id} in (${ids[6]}, ${ids[7]}, ${ids[8]})`);
    await db
      .update(books)
      .set({ readCount: sql`${books.readCount} * 3` })
      .where(sql`${books.id} % 5 = 0`);
    await db.delete(books).where(sql`${books.id} in (${ids[9]}, ${ids[10]})`);
    await db
      .transaction(async (tx) => {
        await tx.update(books).set({ author: '事务里的作者' }).where(sql`${books.id} = ${ids[11]}`);
        tx.rollback();
      })
      .catch(() => undefined);

    expect(await postingsDrift(db)).toEqual({ missing: [], extra: [] });
    expect(await countsDrift(db)).toEqual([]);
  });

  it('answers every page as a brute-force search of the books does, for keywords of 1 to 5 characters', async () => {
    const repo = createCatalogRepository(db);
    await fillAllSearchKeys(db);
    const rnd = random(11);
    const texts = (await db.select({ t: books.title, a: books.author, d: books.abstractContent }).from(books))
      .flatMap((b) => [b.t, b.a, b.d])
      .filter((t) => t.length > 0);
    const keywords = new Set<string>(['的', '故事', '一部', 'zz', '不存在的词', 'de', 'gushi', 'zs', 'xian']);
    while (keywords.size < 40) {
      const chars = [...(texts[Math.floor(rnd() * texts.length)] ?? '')];
      const length = 1 + Math.floor(rnd() * 5);
      if (chars.length < length) continue;
      const at = Math.floor(rnd() * (chars.length - length + 1));
      keywords.add(foldKeyword(chars.slice(at, at + length).join('')));
    }
    keywords.delete('');
    for (const keyword of keywords) {
      for (const page of [0, 2]) {
        const got = (await repo.searchBooks(keyword, 20, page * 20, { pinyin: mayBePinyin(keyword) })).map(
          (b) => b.bookId,
        );
        expect(got, `${keyword} page ${page + 1}`).toEqual(await bruteForce(db, keyword, 20, page * 20));
      }
    }
  }, 180_000);

  it('keeps a ready-made chapter list for books of 200 chapters or more, equal to their chapters', async () => {
    const repo = createCatalogRepository(db);
    const [category] = await db.select().from(categories).limit(1);
    const [long] = await db
      .insert(books)
      .values({
        title: '长篇',
        author: '某作者',
        cover: 'covers/x-v.png',
        horiCover: 'covers/x-h.png',
        categoryId: category?.id ?? 1,
        publishStatus: 'serialize',
      })
      .returning({ id: books.id });
    const bookId = long?.id ?? 0;
    const chapter = (number: number) => ({
      bookId,
      number,
      title: `第${number}话 "引号"\\与\u0001`,
      cover: `chapters/x/${number}.png`,
      price: number % 3 === 0 ? 0 : 20,
    });
    const stored = async () =>
      (
        await rows<{ n: number }>(
          db,
          sql`select count(*)::int as n from chapter_lists where book_id = ${bookId}`,
        )
      )[0]?.n;
    const real = async () =>
      (
        await db
          .select({
            number: chapters.number,
            title: chapters.title,
            cover: chapters.cover,
            price: chapters.price,
            chapterId: chapters.id,
          })
          .from(chapters)
          .where(sql`${chapters.bookId} = ${bookId}`)
          .orderBy(chapters.number)
      ).map((c) => ({ bookId, ...c, alreadyBuy: false }));

    // Inserted out of order, in two statements: 150 (built when asked), then 100 more (kept ready-made).
    await db.insert(chapters).values(Array.from({ length: 150 }, (_, i) => chapter(300 - 2 * i)));
    expect(await stored()).toBe(0);
    expect(await repo.chapterList(bookId)).toEqual(await real());
    await db.insert(chapters).values(Array.from({ length: 100 }, (_, i) => chapter(1 + 2 * i)));
    expect(await stored()).toBe(1);
    expect(await repo.chapterList(bookId)).toEqual(await real());
    await db
      .update(chapters)
      .set({ title: '改名', price: 99 })
      .where(sql`${chapters.bookId} = ${bookId} and ${chapters.number} < 10`);
    expect(await repo.chapterList(bookId)).toEqual(await real());
    await db.delete(chapters).where(sql`${chapters.bookId} = ${bookId} and ${chapters.number} > 250`);
    expect(await repo.chapterList(bookId)).toEqual(await real());
    await db.delete(chapters).where(sql`${chapters.bookId} = ${bookId} and ${chapters.number} > 100`);
    expect(await stored()).toBe(0);
    expect(await repo.chapterList(bookId)).toEqual(await real());
    expect(await repo.chapterList(999_999)).toEqual([]);
  });

  it('computes the grams in linear time, bounded by the field limits, equal to every substring of 1 and 2 characters', async () => {
    // Characters of 1 to 4 bytes, one above the BMP: every 1- and 2-character substring, by brute force.
    const title = 'Ab书𠀀名c';
    const author = '作者𠀀';
    const about = '书名 AB 简介𠀀𠀀';
    const expected = new Map<string, number>();
    for (const [tier, text] of [
      [1, title],
      [3, author],
      [4, about],
    ] as const) {
      const chars = [...text.toLowerCase()];
      chars.forEach((c, i) => {
        for (const gram of [c, i + 1 < chars.length ? c + chars[i + 1] : undefined]) {
          // Grams with a space are not kept: a folded keyword never has one.
          if (gram !== undefined && !gram.includes(' ') && !expected.has(gram)) expected.set(gram, tier);
        }
      });
    }
    const got = await rows<{ gram: string; tier: number }>(
      db,
      sql`select gram, tier from book_grams(${title}, '', ${author}, ${about})`,
    );
    expect(new Map(got.map((g) => [g.gram, Number(g.tier)]))).toEqual(expected);

    // A field of millions of multibyte characters (an imported Series once was 60 million): cut to its limit inside
    // the function, in linear time. The gram function of 0006 took minutes on this.
    const started = performance.now();
    const [huge] = await rows<{ n: number; longest: number }>(
      db,
      sql`select count(*)::int as n, max(char_length(gram))::int as longest
          from book_grams(repeat('书名', 1000000), repeat('别', 1000000), repeat('作', 1000000), repeat('简介', 1000000))`,
    );
    expect(performance.now() - started).toBeLessThan(3000);
    expect(huge).toEqual({ n: 12, longest: 2 }); // 书 名 书名 名书, 别 别别, 作 作作, 简 介 简介 介简
  }, 30_000);

  it('refuses text over the limits in the database, whoever writes it', async () => {
    const [category] = await db.select().from(categories).limit(1);
    const book = (over: Partial<typeof books.$inferInsert>) => ({
      title: '限长之书',
      author: '作者',
      cover: '',
      horiCover: '',
      categoryId: category?.id ?? 1,
      publishStatus: 'serialize',
      ...over,
    });
    const violation = (err: unknown) =>
      String((err as { cause?: { message?: string } }).cause?.message ?? err);
    for (const over of [
      { title: 'あ'.repeat(BOOK_TEXT_LIMITS.title + 1) },
      { author: 'a'.repeat(BOOK_TEXT_LIMITS.author + 1) },
      { abstractContent: '简'.repeat(BOOK_TEXT_LIMITS.description + 1) },
    ]) {
      await expect(
        db
          .insert(books)
          .values(book(over))
          .catch((e) => Promise.reject(violation(e))),
      ).rejects.toMatch(/books_text_length/);
    }
    await expect(
      db
        .insert(categories)
        .values({ name: '类'.repeat(BOOK_TEXT_LIMITS.category + 1) })
        .catch((e) => Promise.reject(violation(e))),
    ).rejects.toMatch(/categories_name_length/);
    // At the limits: written (a character above the BMP counts as one).
    const [ok] = await db
      .insert(books)
      .values(
        book({
          title: '𠀀'.repeat(BOOK_TEXT_LIMITS.title),
          author: 'a'.repeat(BOOK_TEXT_LIMITS.author),
          abstractContent: '简'.repeat(BOOK_TEXT_LIMITS.description),
        }),
      )
      .returning({ id: books.id });
    await db.delete(books).where(sql`${books.id} = ${ok?.id}`);
  });

  it('ranks pinyin matches from the key index, whose buckets follow reads, publication and edits', async () => {
    const repo = createCatalogRepository(db);
    const [category] = await db.select().from(categories).limit(1);
    // More books than a page with the same initials (pin yin pai ming), the first the least read.
    const added = await db
      .insert(books)
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          title: `拼音排名${i}`,
          author: '排名作者',
          cover: '',
          horiCover: '',
          categoryId: category?.id ?? 1,
          publishStatus: 'serialize',
          readCount: 1000 + i * 200,
        })),
      )
      .returning({ id: books.id });
    const ids = added.map((b) => b.id);
    await fillAllSearchKeys(db);
    const page = async (offset = 0) =>
      (await repo.searchBooks('pypm', 20, offset, { pinyin: true })).map((b) => b.bookId);
    expect(await page()).not.toContain(ids[0]);
    // Read far more than the others: once the search-buckets job moves it, it comes first.
    await db.update(books).set({ readCount: 5_000_000 }).where(sql`${books.id} = ${ids[0]}`);
    const buckets = createSearchBuckets(createCatalogRepository(db), { log: silent });
    while ((await buckets.moveBatch()) > 0);
    expect((await page())[0]).toBe(ids[0]);
    // Unpublished it is gone; published again it is back where its reads put it.
    await db.update(books).set({ published: false }).where(sql`${books.id} = ${ids[0]}`);
    expect(await page()).not.toContain(ids[0]);
    expect(await pinyinDrift(db)).toEqual([]);
    await db.update(books).set({ published: true }).where(sql`${books.id} = ${ids[0]}`);
    expect((await page())[0]).toBe(ids[0]);
    // An edit through SQL drops its keys; the job keys it again, at its bucket.
    await db.update(books).set({ title: '拼音排名改' }).where(sql`${books.id} = ${ids[1]}`);
    await fillAllSearchKeys(db);
    expect(await pinyinDrift(db)).toEqual([]);
    expect(await page()).toEqual(await bruteForce(db, 'pypm', 20, 0));
    expect(await page(20)).toEqual(await bruteForce(db, 'pypm', 20, 20));
  });

  it('finds a book whose text SQL rewrote, by the database fold field by field, until the job keys it', async () => {
    const repo = createCatalogRepository(db);
    const [category] = await db.select().from(categories).limit(1);
    const added = await db
      .insert(books)
      .values(
        [
          ['无钥之书', '某甲', ''],
          ['某乙之作', '无钥之书迷', ''],
          ['某丙之作', '某丙', '一本关于无钥之书的书'],
        ].map(([title, author, about]) => ({
          title: title as string,
          author: author as string,
          abstractContent: about as string,
          cover: '',
          horiCover: '',
          categoryId: category?.id ?? 1,
          publishStatus: 'serialize',
          readCount: 10,
        })),
      )
      .returning({ id: books.id });
    const [unkeyed] = await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from books where search_title is null and id in (${sql.join(
        added.map((b) => sql`${b.id}`),
        sql`, `,
      )})`,
    );
    expect(Number(unkeyed?.n)).toBe(3);
    const found = async () =>
      (await repo.searchBooks('无钥之书', 20, 0, { pinyin: false })).map((b) => [b.bookId, b.tier]);
    // Title, author, description: each in its tier (the exact title is known as exact once the title is keyed).
    expect(await found()).toEqual([
      [added[0]?.id, 3],
      [added[1]?.id, 6],
      [added[2]?.id, 7],
    ]);
    await fillAllSearchKeys(db);
    expect(await found()).toEqual([
      [added[0]?.id, 1],
      [added[1]?.id, 6],
      [added[2]?.id, 7],
    ]);
  });

  it('the search-keys job keys what others wrote, going on at once while it finds full batches', async () => {
    await fillAllSearchKeys(db);
    // More books than the job's batch of 500 written by SQL, without keys, as another writer would.
    const [category] = await db.select().from(categories).limit(1);
    await db.insert(books).values(
      Array.from({ length: 520 }, (_, i) => ({
        title: `他处写入${i}`,
        author: '别处',
        cover: '',
        horiCover: '',
        categoryId: category?.id ?? 1,
        publishStatus: 'serialize',
      })),
    );
    const unkeyed = async () =>
      Number(
        (
          await rows<{ n: number }>(db, sql`select count(*)::int as n from books where search_title is null`)
        )[0]?.n,
      );
    expect(await unkeyed()).toBe(520);
    const job = createSearchKeysJob(db, { log: silent });
    expect(await job.runOnce()).toEqual({ ran: true, more: true });
    expect(await job.runOnce()).toEqual({ ran: true, more: false });
    expect(await unkeyed()).toBe(0);
    expect((await createCatalogRepository(db).searchBooks('tcxr', 20, 0, { pinyin: true })).length).toBe(20);
    expect(await pinyinDrift(db)).toEqual([]);
    expect(await postingsDrift(db)).toEqual({ missing: [], extra: [] });
  });

  it('never re-indexes a book on a read: the search-buckets job moves it to its new bucket later', async () => {
    const repo = createCatalogRepository(db);
    const [category] = await db.select().from(categories).limit(1);
    const [book] = await db
      .insert(books)
      .values({
        title: '读数之书',
        author: '读数作者',
        abstractContent: '读'.repeat(BOOK_TEXT_LIMITS.description),
        cover: '',
        horiCover: '',
        categoryId: category?.id ?? 1,
        publishStatus: 'serialize',
        readCount: 5,
      })
      .returning({ id: books.id });
    const id = book?.id as number;
    const bucketsOf = async () =>
      (
        await rows<{ bucket: number }>(
          db,
          sql`select distinct bucket from book_postings where ${id} = any (book_ids) order by 1`,
        )
      ).map((r) => Number(r.bucket));
    expect(await bucketsOf()).toEqual([0]);
    // Reads through the read path, across two buckets (10 and 20 reads): the postings stay where they were.
    for (let i = 0; i < 20; i++) await repo.countRead(id);
    expect(await bucketsOf()).toEqual([0]);
    // The search still finds it, ordered by the bucket its postings hold.
    expect((await repo.searchBooks('读数之', 20, 0, { pinyin: false })).map((b) => b.bookId)).toContain(id);
    const jobs = createSearchBuckets(createCatalogRepository(db), { log: silent });
    while ((await jobs.moveBatch(1)) > 0);
    expect(await bucketsOf()).toEqual([2]);
    expect((await repo.searchBooks('读数之', 20, 0, { pinyin: false })).map((b) => b.bookId)).toContain(id);
    // An edit of its text indexes it at its current bucket at once.
    for (let i = 0; i < 10; i++) await repo.countRead(id);
    await db.update(books).set({ author: '新作者' }).where(sql`${books.id} = ${id}`);
    expect(await bucketsOf()).toEqual([3]);
    expect(await postingsDrift(db)).toEqual({ missing: [], extra: [] });
  });

  it('totals each list from the counts, equal to counting the books', async () => {
    const repo = createCatalogRepository(db);
    const cats = await db.select({ id: categories.id }).from(categories);
    for (const publishStatus of [undefined, 'finish', 'serialize'] as const) {
      for (const categoryId of [undefined, ...cats.map((c) => c.id)]) {
        const { total } = await repo.filteredBooks({ publishStatus, categoryId }, 20, 0);
        const [real] = await rows<{ n: number }>(
          db,
          sql`select count(*)::int as n from books
              where (${publishStatus ?? null}::text is null or publish_status = ${publishStatus ?? null})
                and (${categoryId ?? null}::int is null or category_id = ${categoryId ?? null})`,
        );
        expect(total, `${publishStatus} ${categoryId}`).toBe(real?.n);
      }
    }
    expect((await repo.recentlyUpdated(20, 0)).total).toBe(await db.$count(books));
  });
});
