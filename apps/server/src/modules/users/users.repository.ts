import { and, count, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import { type Database, type Queryable, statementName } from '../../db/client.ts';
import { handoffTokens, sessions, users, visitMarks } from '../../db/schema/index.ts';

const isUniqueViolation = (err: unknown) => (err as { cause?: { code?: string } }).cause?.code === '23505';
const MOBILE = /^1[0-9]{10}$/;

export function createUsersRepository(db: Database) {
  // Every signed-in request starts here (the identity plugin's session lookup): built once, and named on PostgreSQL,
  // so neither the query builder nor PostgreSQL's parser and planner work on it again per request (statementName).
  const sessionUserStatement = db
    .select({
      userId: users.id,
      account: users.account,
      vipEnd: users.vipEnd,
      blockedAt: users.blockedAt,
      lastSeenAt: users.lastSeenAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .prepare(statementName(db, 'users_session_user'));

  return {
    /** Returns undefined when the account name is taken (unique violation), so the caller can retry. */
    async insertUser(row: typeof users.$inferInsert) {
      try {
        // Registering is the reader's first moment seen: the console's 最近活跃 is never empty for a live account.
        const [created] = await db
          .insert(users)
          .values({ ...row, lastSeenAt: row.lastSeenAt ?? row.createdAt ?? new Date() })
          .returning();
        return created;
      } catch (err) {
        if (isUniqueViolation(err)) return undefined;
        throw err;
      }
    },

    /** The user a login name means: a bound mobile number, or else an account name. */
    async userByLoginName(name: string) {
      const [row] = await db
        .select()
        .from(users)
        .where(MOBILE.test(name) ? eq(users.mobile, name) : eq(users.account, name));
      return row;
    },

    /** False when another user has this number (unique violation, also under a concurrent bind). */
    async setMobile(userId: number, mobile: string) {
      try {
        await db.update(users).set({ mobile }).where(eq(users.id, userId));
        return true;
      } catch (err) {
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    },

    /** Replaces the password hash and, in the same transaction, ends every session of the user but `keep`. */
    async setPassword(userId: number, passwordHash: string, keepTokenHash: string | null) {
      await db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash }).where(eq(users.id, userId));
        await tx
          .delete(sessions)
          .where(
            keepTokenHash === null
              ? eq(sessions.userId, userId)
              : and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash)),
          );
      });
    },

    /**
     * An operator's reset (the console): the new hash, every session of the reader ends, and the audit entry, in one
     * transaction. Undefined when there is no such reader.
     */
    async resetPassword(userId: number, passwordHash: string, audit: (tx: Queryable) => Promise<unknown>) {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(users)
          .set({ passwordHash })
          .where(eq(users.id, userId))
          .returning({ id: users.id, account: users.account });
        if (!row) return undefined;
        await tx.delete(sessions).where(eq(sessions.userId, userId));
        await audit(tx);
        return row;
      });
    },

    async userById(id: number) {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },

    async deleteSession(tokenHash: string) {
      await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    },

    /** Ends the request's old session (if any) and starts the new one, in one transaction. */
    async replaceSession(oldTokenHash: string | null, row: typeof sessions.$inferInsert) {
      await db.transaction(async (tx) => {
        if (oldTokenHash !== null) await tx.delete(sessions).where(eq(sessions.tokenHash, oldTokenHash));
        await tx.insert(sessions).values(row);
      });
    },

    async sessionUser(tokenHash: string, now: Date) {
      // A placeholder's value goes to the driver as it is (no column to map it): the time as ISO text.
      const [row] = await sessionUserStatement.execute({ tokenHash, now: now.toISOString() });
      return row;
    },

    /** Removes sessions that ended before `now`; answers how many. */
    async deleteExpiredSessions(now: Date) {
      const gone = await db
        .delete(sessions)
        .where(lt(sessions.expiresAt, now))
        .returning({ tokenHash: sessions.tokenHash });
      return gone.length;
    },

    /** Marks the user seen now (the session resolver calls it at most once an hour per user). */
    /**
     * The reader was seen at `now`: last-seen to now and, with `day` (a China day maybe not yet recorded for them),
     * that day in reader_days with its distance from the account's first China day, in one statement. The day is
     * written once: a second write of it (two requests at once, a second login) changes nothing.
     */
    async touchLastSeen(userId: number, now: Date, day?: string) {
      if (day === undefined) {
        await db.update(users).set({ lastSeenAt: now }).where(eq(users.id, userId));
        return;
      }
      await db.execute(sql`
        with touched as (
          update users set last_seen_at = ${now.toISOString()}::timestamptz where id = ${userId}::int
          returning id, branch_id, created_at
        )
        insert into reader_days (user_id, day, age, branch_id)
        select id, ${day}::date, ${day}::date - (created_at at time zone 'Asia/Shanghai')::date, branch_id
        from touched
        on conflict do nothing`);
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

    /** How many hand-off links this user asked for since `since`. */
    async handoffsSince(userId: number, since: Date) {
      const [recent] = await db
        .select({ n: count() })
        .from(handoffTokens)
        .where(and(eq(handoffTokens.userId, userId), gt(handoffTokens.createdAt, since)));
      return recent?.n ?? 0;
    },

    async insertHandoff(row: typeof handoffTokens.$inferInsert) {
      await db.insert(handoffTokens).values(row);
    },

    /** Spends an unused, unexpired hand-off link in one conditional update; answers its user, or undefined. */
    async spendHandoff(tokenHash: string, now: Date) {
      const [spent] = await db
        .update(handoffTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(handoffTokens.tokenHash, tokenHash),
            isNull(handoffTokens.usedAt),
            gt(handoffTokens.expiresAt, now),
          ),
        )
        .returning({ userId: handoffTokens.userId });
      return spent;
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
