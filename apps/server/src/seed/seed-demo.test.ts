import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dbKind, describeDb, type TestDatabase } from '../../test/test-database.ts';
import type { Database } from '../db/client.ts';
import {
  ads,
  books,
  branchSettings,
  categories,
  chapters,
  hotWords,
  payChannels,
  payConfigs,
} from '../db/schema/index.ts';
import { DEMO_SIZES, PAGE_WIDTH } from './demo-geometry.ts';
import { demoLibrary, demoLookup } from './demo-library.ts';
import { AD_WORDS } from './drawings/ad.ts';
import { seedDemoLibrary } from './seed-demo.ts';

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

async function tableCounts(db: Database) {
  const tables = ['categories', 'books', 'chapters', 'showcase_entries', 'ads', 'hot_words', 'image_assets'];
  const out: Record<string, number> = {};
  for (const t of tables) {
    const [r] = await rows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(t)}`);
    out[t] = r?.n ?? -1;
  }
  return out;
}

describe('demoLibrary', () => {
  const lib = demoLibrary();

  it('is deterministic', () => {
    expect(demoLibrary()).toEqual(lib);
    expect(demoLibrary(7)).not.toEqual(lib);
  });

  it('has varied, unique Chinese titles and abstracts of 2 to 4 sentences', () => {
    const titles = lib.books.map((b) => b.title);
    expect(new Set(titles).size).toBe(titles.length);
    for (const b of lib.books) {
      expect(b.title).toMatch(/^[\u4e00-\u9fff]{2,8}$/);
      expect(b.author).toMatch(/^[\u4e00-\u9fff]{2,6}$/);
      const sentences = b.abstractContent.split(/[。！？]/).filter(Boolean).length;
      expect(sentences).toBeGreaterThanOrEqual(2);
      expect(sentences).toBeLessThanOrEqual(4);
    }
  });

  it('numbers chapters 1..n with titles, free openings and priced later chapters', () => {
    for (const b of lib.books) {
      expect(b.chapters.length).toBeGreaterThanOrEqual(15);
      expect(b.chapters.length).toBeLessThanOrEqual(40);
      b.chapters.forEach((c, i) => {
        expect(c.number).toBe(i + 1);
        expect(c.title).toMatch(new RegExp(`^第${i + 1}话 [\\u4e00-\\u9fff]{2,3}$`));
      });
      const free = b.chapters.findIndex((c) => c.price > 0);
      expect(free).toBeGreaterThanOrEqual(3);
      expect(free).toBeLessThanOrEqual(5);
      for (const c of b.chapters.slice(free)) {
        expect(Number.isInteger(c.price) && c.price >= 20 && c.price <= 60).toBe(true);
      }
    }
  });

  it('spreads dates over the 90 days before the epoch so new and updated lists differ', () => {
    const epoch = Date.parse('2026-11-01T00:00:00+08:00');
    for (const b of lib.books) {
      expect(b.createdAt.getTime()).toBeGreaterThanOrEqual(epoch - 90 * 86_400_000);
      expect(b.updatedAt.getTime()).toBeGreaterThanOrEqual(b.createdAt.getTime());
      expect(b.updatedAt.getTime()).toBeLessThanOrEqual(epoch);
    }
    const newest = (key: 'createdAt' | 'updatedAt') =>
      [...lib.books]
        .sort((a, b) => b[key].getTime() - a[key].getTime())
        .slice(0, 10)
        .map((b) => b.id);
    expect(newest('createdAt')).not.toEqual(newest('updatedAt'));
  });

  it('lays split pages out as ordered slices of 800/n', () => {
    const split = lib.books.filter((b) => b.picSplitCount === 2);
    expect(split.length).toBeGreaterThanOrEqual(3);
    expect(split.length).toBeLessThanOrEqual(4);
    const [book] = split;
    const pics = book?.chapters[0]?.pics ?? [];
    expect(pics.slice(0, 2)).toEqual([
      `pages/demo/${book?.id}/1/1-1.png`,
      `pages/demo/${book?.id}/1/1-2.png`,
    ]);
    const sizes = new Map(lib.images.map((i) => [i.path, i]));
    expect(sizes.get(pics[0] ?? '')?.width).toBe(PAGE_WIDTH / 2);
    expect(sizes.get(pics[1] ?? '')?.height).toBe(sizes.get(pics[0] ?? '')?.height);
  });

  it('answers the image drawer by demo book index', () => {
    const lookup = demoLookup(lib);
    const split = lib.books.find((b) => b.picSplitCount === 2);
    expect(lookup.bookTitle(1)).toBe(lib.books[0]?.title);
    expect(lookup.picSplitCount(split?.id ?? 0)).toBe(2);
    expect(lookup.bookTitle(65)).toBeUndefined();
    expect(lookup.picSplitCount(65)).toBe(1);
  });
});

describeDb(`seedDemoLibrary (${dbKind})`, () => {
  let test: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    test = await createTestDatabase();
    db = test.db;
    expect(await seedDemoLibrary(db)).toEqual({ seeded: true });
  });
  afterAll(async () => {
    await test?.close();
  });

  it('seeds a full catalogue', async () => {
    expect((await db.select().from(books)).length).toBeGreaterThanOrEqual(60);
    expect((await db.select().from(categories)).length).toBeGreaterThanOrEqual(8);
    const statuses = await rows<{ s: string }>(
      db,
      sql`select distinct publish_status as s from books order by 1`,
    );
    expect(statuses.map((r) => r.s)).toEqual(['finish', 'serialize']);
    const vip = await rows<{ v: boolean }>(db, sql`select distinct vip_free as v from books order by 1`);
    expect(vip.map((r) => r.v)).toEqual([false, true]);
    expect(await db.$count(chapters)).toBeGreaterThanOrEqual(1500);
  });

  it('keeps chapter_count equal to the chapter rows of every book', async () => {
    const wrong = await rows(
      db,
      sql`select b.id from books b left join chapters c on c.book_id = b.id
          group by b.id having b.chapter_count <> count(c.id)`,
    );
    expect(wrong).toEqual([]);
  });

  it('prices chapters: the first three free, priced ones 20 to 60 coins', async () => {
    const [r] = await rows<{ freeOpening: number; badPrice: number }>(
      db,
      sql`select count(*) filter (where number <= 3 and price <> 0)::int as "freeOpening",
                 count(*) filter (where price <> 0 and price not between 20 and 60)::int as "badPrice"
          from chapters`,
    );
    expect(r).toEqual({ freeOpening: 0, badPrice: 0 });
  });

  it('stores slice paths for picSplitCount 2 books', async () => {
    const split = await rows<{ pics: string[] }>(
      db,
      sql`select c.pics from chapters c join books b on b.id = c.book_id
          where b.pic_split_count = 2 and c.number = 1`,
    );
    expect(split.length).toBeGreaterThanOrEqual(3);
    for (const { pics } of split) {
      expect(pics.length % 2).toBe(0);
      expect(pics[0]).toMatch(/^pages\/demo\/\d+\/1\/1-1\.png$/);
    }
  });

  it('fills every showcase, all ad jump types, hot words, packs and channels', async () => {
    const types = await rows<{ type: string; n: number }>(
      db,
      sql`select type, count(*)::int as n from showcase_entries group by type order by type`,
    );
    expect(types.map((t) => t.type)).toEqual(['e_recommend', 'hot', 'kkbg', 'new', 'new_on']);
    for (const t of types) expect(t.n).toBeGreaterThanOrEqual(8);
    const hot = await rows<{ book_id: number }>(
      db,
      sql`select s.book_id from showcase_entries s join books b on b.id = s.book_id
          where s.type = 'hot' order by s.sort`,
    );
    const byReads = await rows<{ id: number }>(
      db,
      sql`select id from books order by read_count desc, id limit 30`,
    );
    expect(hot.map((h) => h.book_id)).toEqual(byReads.slice(0, hot.length).map((b) => b.id));

    const jumpTypes = new Set((await db.select().from(ads)).map((a) => a.jumpType));
    expect([...jumpTypes].sort()).toEqual([-1, -2, 2, 3].sort());
    expect((await db.select().from(hotWords)).length).toBeGreaterThanOrEqual(10);

    const packs = await db.select().from(payConfigs);
    expect(new Set(packs.map((p) => p.type))).toEqual(new Set(['coin', 'vip', 'card']));
    expect(packs.filter((p) => p.isDefault)).toHaveLength(1);
    expect(packs.filter((p) => p.type === 'vip').map((p) => p.itemCount)).toEqual([30, 90, 365]);
    expect(packs.filter((p) => p.type === 'card').map((p) => p.itemCount)).toEqual([30]);
    const channels = await db.select().from(payChannels);
    expect(new Set(channels.map((c) => c.superiorCode))).toEqual(new Set(['alipay', 'wechat_pay', 'bank']));
    expect(channels.some((c) => c.discountPercent < 100)).toBe(true);
  });

  it('promises nothing the demo does not give: ad words match their ads, no app to download', async () => {
    const packs = await db.select().from(payConfigs);
    const shown = await db.select().from(ads).orderBy(ads.sort);
    expect(shown.length).toBe(AD_WORDS.length);
    for (const [i, ad] of shown.entries()) {
      const words = AD_WORDS[ad.id - 1] ?? AD_WORDS[0];
      const said = `${words.headline} ${words.sub} ${words.cta}`;
      // No sign-in reward or recharge discount exists.
      expect(said).not.toMatch(/签到|折|限时|领取/);
      // A first-recharge offer named is one every coin pack gives, running now, on the ad that opens the recharge centre.
      for (const [, bonus] of said.matchAll(/首充送 ?(\d+) ?阅币/g)) {
        expect(ad.jumpType, `ad ${i + 1}`).toBe(3);
        const now = new Date();
        for (const p of packs.filter((p) => p.type === 'coin')) {
          expect(p.firstPayBonus).toBe(Number(bonus));
          expect(
            p.firstPayStartsAt && p.firstPayStartsAt <= now && p.firstPayEndsAt && now < p.firstPayEndsAt,
          ).toBe(true);
        }
      }
      if (!/首充送/.test(said)) expect(said).not.toMatch(/首充|新用户/);
      // A bonus named is one a pack gives, on the ad that opens the recharge centre.
      for (const [, yuan, bonus] of said.matchAll(/充(\d+)元加赠(\d+)阅币/g)) {
        expect(ad.jumpType, `ad ${i + 1}`).toBe(3);
        expect(
          packs.some((p) => p.amountLevel === Number(yuan) * 100 && p.presentCount === Number(bonus)),
        ).toBe(true);
      }
      if (ad.jumpType === 3) expect(said).toMatch(/充值/);
    }
    // No app exists: an empty download address hides 下载APP (and common info answers it empty).
    const settings = await db.select().from(branchSettings);
    expect(settings.map((s) => [s.appDownloadUrl, s.appDownloadHome])).toEqual([['', '']]);
  });

  it('records a size for every image path it refers to', async () => {
    const missing = await rows<{ path: string }>(
      db,
      sql`select p.path from (
            select unnest(pics) as path from chapters
            union select cover from chapters
            union select cover from books union select hori_cover from books
            union select img_path from ads
          ) p left join image_assets i on i.path = p.path where i.path is null limit 5`,
    );
    expect(missing).toEqual([]);
    const [cover] = await rows<{ width: number; height: number }>(
      db,
      sql`select width, height from image_assets where path = 'covers/demo/1-v.png'`,
    );
    expect(cover).toEqual(DEMO_SIZES.verticalCover);
  });

  it('keeps identity sequences past the seeded ids', async () => {
    const [category] = await db.insert(categories).values({ name: '测试分类' }).returning();
    expect(category?.id).toBe(demoLibrary().categories.length + 1);
  });

  it('does nothing the second time', async () => {
    const before = await tableCounts(db);
    expect(await seedDemoLibrary(db)).toEqual({ seeded: false });
    expect(await tableCounts(db)).toEqual(before);
  });
});
