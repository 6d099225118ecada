import { and, eq, gt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { sessions, users, visitMarks } from '../../db/schema/index.ts';

export function createUsersRepository(db: Database) {
  return {
    /** Returns undefined when the account name is taken (unique violation), so the caller can retry. */
    async insertUser(row: typeof users.$inferInsert) {
      try {
        const [created] = await db.insert(users).values(row).returning();
        return created;
      } catch (err) {
        if ((err as { cause?: { code?: string } }).cause?.code === '23505') return undefined;
        throw err;
      }
    },

    async userById(id: number) {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },

    async insertSession(row: typeof sessions.$inferInsert) {
      await db.insert(sessions).values(row);
    },

    async deleteSession(tokenHash: string) {
      await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    },

    async sessionUser(tokenHash: string, now: Date) {
      const [row] = await db
        .select({
          userId: users.id,
          account: users.account,
          vipEnd: users.vipEnd,
          expiresAt: sessions.expiresAt,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)));
      return row;
    },

    async extendSession(tokenHash: string, expiresAt: Date) {
      await db.update(sessions).set({ expiresAt }).where(eq(sessions.tokenHash, tokenHash));
    },

    /** True when this (branch, visitor) had not been seen before. */
    async markVisit(row: typeof visitMarks.$inferInsert) {
      const inserted = await db
        .insert(visitMarks)
        .values(row)
        .onConflictDoNothing({ target: [visitMarks.branchId, visitMarks.visitorId] })
        .returning({ id: visitMarks.id });
      return inserted.length > 0;
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
