import { asc, eq } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { payChannels, payConfigs } from '../../db/schema/index.ts';

export type PackRow = typeof payConfigs.$inferSelect;
export type ChannelRow = typeof payChannels.$inferSelect;
export type PackChange = Omit<typeof payConfigs.$inferInsert, 'id' | 'type' | 'isDefault'>;
export type ChannelChange = Pick<ChannelRow, 'active' | 'discountPercent' | 'initiatorCode' | 'sort'>;

/** The console's packs and channels: read in order; each change in one transaction with its audit entry. */
export function createPacksConsoleRepository(db: Database) {
  return {
    async all() {
      const [packs, channels] = await Promise.all([
        db.select().from(payConfigs).orderBy(asc(payConfigs.type), asc(payConfigs.sort), asc(payConfigs.id)),
        db.select().from(payChannels).orderBy(asc(payChannels.sort), asc(payChannels.subTypeCode)),
      ]);
      return { packs, channels };
    },

    addPack(row: PackChange & { type: string }, audit: (tx: Queryable, after: PackRow) => Promise<unknown>) {
      return db.transaction(async (tx) => {
        const [added] = await tx.insert(payConfigs).values(row).returning();
        if (!added) throw new Error('pack not added');
        await audit(tx, added);
        return added;
      });
    },

    /** The pack changed, and what it was (locked first, so two operators take turns); undefined when none. */
    editPack(
      id: number,
      change: PackChange,
      audit: (tx: Queryable, before: PackRow, after: PackRow) => Promise<unknown>,
    ) {
      return db.transaction(async (tx) => {
        const [before] = await tx.select().from(payConfigs).where(eq(payConfigs.id, id)).for('update');
        if (!before) return undefined;
        const [after] = await tx.update(payConfigs).set(change).where(eq(payConfigs.id, id)).returning();
        if (!after) return undefined;
        await audit(tx, before, after);
        return { before, after };
      });
    },

    editChannel(
      code: string,
      change: ChannelChange,
      audit: (tx: Queryable, before: ChannelRow, after: ChannelRow) => Promise<unknown>,
    ) {
      return db.transaction(async (tx) => {
        const [before] = await tx
          .select()
          .from(payChannels)
          .where(eq(payChannels.subTypeCode, code))
          .for('update');
        if (!before) return undefined;
        const [after] = await tx
          .update(payChannels)
          .set(change)
          .where(eq(payChannels.subTypeCode, code))
          .returning();
        if (!after) return undefined;
        await audit(tx, before, after);
        return { before, after };
      });
    },
  };
}
export type PacksConsoleRepository = ReturnType<typeof createPacksConsoleRepository>;
