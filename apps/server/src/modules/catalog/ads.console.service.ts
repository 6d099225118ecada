import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { ads, books, imageAssets } from '../../db/schema/index.ts';
import { badRequest } from '../../shared/errors.ts';
import { adNotFound } from './catalog.errors.ts';
import type { ConsoleDeps, Editor } from './books.console.service.ts';
import type { UploadedImage } from './uploaded-image.ts';

/** The spec's four jumps of a carousel ad: a link here (-1) or in a new window (-2), a book (2), the recharge centre (3). */
export const JUMP_TYPES = [-1, -2, 2, 3] as const;
export type JumpType = (typeof JUMP_TYPES)[number];
export const MAX_ADS = 20;

/** What an operator sets of an ad (all of it when adding, any part when editing). */
export interface AdFields {
  jumpType: JumpType;
  bizId: number | null;
  url: string;
  active: boolean;
  startsAt: string | null;
  endsAt: string | null;
}

type AdRow = typeof ads.$inferSelect;
export const adView = (a: AdRow) => ({
  id: a.id,
  jumpType: a.jumpType as JumpType,
  bizId: a.bizId,
  url: a.url,
  imgPath: a.imgPath,
  sort: a.sort,
  active: a.active,
  startsAt: a.startsAt?.toISOString() ?? null,
  endsAt: a.endsAt?.toISOString() ?? null,
});
export type AdView = ReturnType<typeof adView>;

const LINK = /^(https?:\/\/[^\s]+|\/[^\s]*)$/;

/** An ad that can be shown: its target fits its jump, its window runs forwards. 400 naming the field otherwise. */
async function checkAd(q: Pick<Database, 'select'>, ad: AdFields) {
  if (ad.jumpType === 2) {
    if (!ad.bizId) throw badRequest('请填写要打开的书籍编号', 'bizId');
    const [book] = await q.select({ id: books.id }).from(books).where(eq(books.id, ad.bizId));
    if (!book) throw badRequest('这本书不存在', 'bizId');
  }
  if ((ad.jumpType === -1 || ad.jumpType === -2) && !LINK.test(ad.url))
    throw badRequest('请填写以 http(s):// 或 / 开头的链接', 'url');
  if (ad.startsAt && ad.endsAt && Date.parse(ad.startsAt) >= Date.parse(ad.endsAt))
    throw badRequest('结束时间须晚于开始时间', 'endsAt');
}

const stored = (ad: AdFields) => ({
  jumpType: ad.jumpType,
  bizId: ad.jumpType === 2 ? ad.bizId : null,
  url: ad.jumpType === -1 || ad.jumpType === -2 ? ad.url : '',
  active: ad.active,
  startsAt: ad.startsAt ? new Date(ad.startsAt) : null,
  endsAt: ad.endsAt ? new Date(ad.endsAt) : null,
});

/**
 * The home page's ad carousel as operators keep it: pictures uploaded (kept as originals under ads/uploads/),
 * where each ad leads, its order, whether it shows and when. Readers see the active ones inside their window.
 */
export function createAdsConsole(
  db: Database,
  deps: Pick<ConsoleDeps, 'audit' | 'changed'> & {
    putOriginal(imagePath: string, bytes: Buffer): Promise<unknown>;
  },
) {
  const all = (q: Pick<Database, 'select'> = db) => q.select().from(ads).orderBy(asc(ads.sort), asc(ads.id));
  const one = async (q: Pick<Database, 'select'>, id: number) => {
    const [row] = await q.select().from(ads).where(eq(ads.id, id)).for('update');
    if (!row) throw adNotFound();
    return row;
  };

  return {
    list: async () => (await all()).map(adView),

    async add(input: { image: UploadedImage; fields: AdFields; editor: Editor }) {
      const { image } = input;
      await checkAd(db, input.fields);
      const imgPath = `ads/uploads/${image.hash}.${image.ext}`;
      await deps.putOriginal(imgPath, image.bytes);
      const saved = await db.transaction(async (tx) => {
        if (((await tx.$count(ads)) as number) >= MAX_ADS)
          throw badRequest(`最多 ${MAX_ADS} 个广告`, 'image');
        await tx
          .insert(imageAssets)
          .values({ path: imgPath, width: image.width, height: image.height })
          .onConflictDoNothing();
        const [row] = await tx
          .insert(ads)
          .values({
            ...stored(input.fields),
            imgPath,
            sort: sql`(select coalesce(max(${ads.sort}), 0) + 1 from ${ads})`,
          })
          .returning();
        const ad = adView(row as AdRow);
        await deps.audit(tx, {
          ...input.editor,
          action: 'ad.add',
          target: `ad:${ad.id}`,
          before: null,
          after: ad,
        });
        return ad;
      });
      deps.changed();
      return saved;
    },

    async edit(input: { id: number; changes: Partial<AdFields>; editor: Editor }) {
      const saved = await db.transaction(async (tx) => {
        const before = adView(await one(tx, input.id));
        const merged = { ...before, ...input.changes };
        await checkAd(tx, merged);
        const [row] = await tx.update(ads).set(stored(merged)).where(eq(ads.id, input.id)).returning();
        const after = adView(row as AdRow);
        await deps.audit(tx, { ...input.editor, action: 'ad.edit', target: `ad:${input.id}`, before, after });
        return after;
      });
      deps.changed();
      return saved;
    },

    async remove(input: { id: number; editor: Editor }) {
      await db.transaction(async (tx) => {
        const before = adView(await one(tx, input.id));
        await tx.delete(ads).where(eq(ads.id, input.id));
        await deps.audit(tx, {
          ...input.editor,
          action: 'ad.delete',
          target: `ad:${input.id}`,
          before,
          after: null,
        });
      });
      deps.changed();
    },

    /** The carousel's order: `ids` must be every ad once, first shown first. */
    async arrange(input: { ids: number[]; editor: Editor }) {
      const saved = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('ads:order'))`);
        const before = (await all(tx)).map((a) => a.id);
        const same =
          before.length === input.ids.length && new Set([...before, ...input.ids]).size === before.length;
        if (!same) throw badRequest('请给出全部广告，每个一次', 'ids');
        for (const [i, id] of input.ids.entries())
          await tx
            .update(ads)
            .set({ sort: i + 1 })
            .where(eq(ads.id, id));
        const after = await all(tx);
        await deps.audit(tx, {
          ...input.editor,
          action: 'ad.order',
          target: 'ads',
          before,
          after: after.map((a) => a.id),
        });
        return after.map(adView);
      });
      deps.changed();
      return saved;
    },
  };
}
export type AdsConsole = ReturnType<typeof createAdsConsole>;
