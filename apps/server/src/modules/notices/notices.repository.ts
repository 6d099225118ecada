import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { NoticeKind } from '../../config-notices.ts';
import type { Database } from '../../db/client.ts';
import {
  books,
  follows,
  noticeConsents,
  noticeOutbox,
  noticePushEvents,
  readingProgress,
  readingTickets,
  unlockWaitClocks,
  wechatOpenids,
} from '../../db/schema/index.ts';
import { rowsOf } from '../../shared/rows.ts';

/** A notice owed, as the entry point takes it: one per (eventKey, userId), whatever calls it twice. */
export interface NoticeToEnqueue {
  userId: number;
  kind: NoticeKind;
  /** Names the event, the same from every server and retry: `new_chapter:{bookId}:{number}`, `wait_free:…`. */
  eventKey: string;
  bookId?: number | null;
  chapterNumber?: number | null;
  data: Record<string, string>;
  dueAt?: Date;
}

/** A notice claimed for sending: its reader's openid and the template already checked, one consent taken. */
export interface ClaimedNotice {
  id: number;
  userId: number;
  kind: NoticeKind;
  openid: string;
  templateId: string;
  bookId: number | null;
  chapterNumber: number | null;
  data: Record<string, string>;
  attempts: number;
}

export type NoticesRepository = ReturnType<typeof createNoticesRepository>;

export function createNoticesRepository(db: Database) {
  return {
    async openidOf(userId: number) {
      const [row] = await db.select().from(wechatOpenids).where(eq(wechatOpenids.userId, userId));
      return row?.openid;
    },

    async userOfOpenid(openid: string) {
      const [row] = await db.select().from(wechatOpenids).where(eq(wechatOpenids.openid, openid));
      return row?.userId;
    },

    /**
     * Binds the openid to the account: a WeChat bound before to another account moves here (its consents stay
     * with the old account, which no longer receives notices).
     */
    async bind(userId: number, openid: string, now: Date) {
      await db.transaction(async (tx) => {
        await tx.delete(wechatOpenids).where(eq(wechatOpenids.openid, openid));
        await tx
          .insert(wechatOpenids)
          .values({ userId, openid, boundAt: now })
          .onConflictDoUpdate({ target: wechatOpenids.userId, set: { openid, boundAt: now } });
      });
    },

    async consents(userId: number) {
      return db
        .select({ templateId: noticeConsents.templateId, remaining: noticeConsents.remaining })
        .from(noticeConsents)
        .where(eq(noticeConsents.userId, userId));
    },

    /** One more notice allowed (WeChat pushed an accept). */
    async accept(userId: number, templateId: string, now: Date) {
      await db
        .insert(noticeConsents)
        .values({ userId, templateId, remaining: 1, updatedAt: now })
        .onConflictDoUpdate({
          target: [noticeConsents.userId, noticeConsents.templateId],
          set: { remaining: sql`${noticeConsents.remaining} + 1`, updatedAt: now },
        });
    },

    /** No more notices of this template (a reject, an unsubscribe, or WeChat's 43101). */
    async noneLeft(userId: number, templateId: string, now: Date) {
      await db
        .insert(noticeConsents)
        .values({ userId, templateId, remaining: 0, updatedAt: now })
        .onConflictDoUpdate({
          target: [noticeConsents.userId, noticeConsents.templateId],
          set: { remaining: 0, updatedAt: now },
        });
    },

    /** Whether this push is new (true once per key, whatever WeChat pushes again). */
    async firstPush(key: string, now: Date) {
      const made = await db
        .insert(noticePushEvents)
        .values({ key, receivedAt: now })
        .onConflictDoNothing()
        .returning({ key: noticePushEvents.key });
      return made.length === 1;
    },

    /** Inserts what is not there yet; answers how many were new. */
    async enqueue(rows: NoticeToEnqueue[]) {
      if (rows.length === 0) return 0;
      const made = await db
        .insert(noticeOutbox)
        .values(
          rows.map((r) => ({
            userId: r.userId,
            kind: r.kind,
            eventKey: r.eventKey,
            bookId: r.bookId ?? null,
            chapterNumber: r.chapterNumber ?? null,
            data: r.data,
            ...(r.dueAt ? { dueAt: r.dueAt } : {}),
          })),
        )
        .onConflictDoNothing({ target: [noticeOutbox.eventKey, noticeOutbox.userId] })
        .returning({ id: noticeOutbox.id });
      return made.length;
    },

    /**
     * Claims up to `limit` due notices, each in its own transaction that commits before anything is sent: the row
     * (FOR UPDATE SKIP LOCKED: two runners never take the same one) and its reader's openid row (FOR UPDATE: one
     * runner at a time counts a reader's day) are locked, then the notice is either claimed (status sending, one
     * consent taken), put off to the next China day (the reader's daily limit), or dropped (no openid, no
     * template, no consent left).
     */
    async claimDue(o: {
      now: Date;
      limit: number;
      perDay: number;
      dayStart: Date;
      nextDay: Date;
      templateOf: (kind: NoticeKind) => string | undefined;
    }): Promise<ClaimedNotice[]> {
      const claimed: ClaimedNotice[] = [];
      for (let i = 0; i < o.limit; i++) {
        const outcome = await db.transaction(async (tx) => {
          const [row] = await tx
            .select()
            .from(noticeOutbox)
            .where(and(eq(noticeOutbox.status, 'pending'), lte(noticeOutbox.dueAt, o.now)))
            .orderBy(noticeOutbox.dueAt, noticeOutbox.id)
            .limit(1)
            .for('update', { skipLocked: true });
          if (!row) return 'none' as const;
          const drop = async (why: string) => {
            await tx
              .update(noticeOutbox)
              .set({ status: 'dropped', lastError: why })
              .where(eq(noticeOutbox.id, row.id));
            return 'dropped' as const;
          };
          const kind = row.kind as NoticeKind;
          const templateId = o.templateOf(kind);
          if (!templateId) return drop('no template for this kind');
          const [bound] = await tx
            .select()
            .from(wechatOpenids)
            .where(eq(wechatOpenids.userId, row.userId))
            .for('update');
          if (!bound) return drop('no openid');
          const [today] = await tx
            .select({ n: sql<number>`count(*)::int` })
            .from(noticeOutbox)
            .where(
              and(
                eq(noticeOutbox.userId, row.userId),
                sql`${noticeOutbox.claimedAt} >= ${o.dayStart.toISOString()}`,
                sql`${noticeOutbox.status} in ('sending', 'sent')`,
              ),
            );
          if ((today?.n ?? 0) >= o.perDay) {
            await tx.update(noticeOutbox).set({ dueAt: o.nextDay }).where(eq(noticeOutbox.id, row.id));
            return 'later' as const;
          }
          const [consent] = await tx
            .update(noticeConsents)
            .set({ remaining: sql`${noticeConsents.remaining} - 1`, updatedAt: o.now })
            .where(
              and(
                eq(noticeConsents.userId, row.userId),
                eq(noticeConsents.templateId, templateId),
                gt(noticeConsents.remaining, 0),
              ),
            )
            .returning({ remaining: noticeConsents.remaining });
          if (!consent) return drop('no consent left');
          await tx
            .update(noticeOutbox)
            .set({ status: 'sending', claimedAt: o.now, attempts: row.attempts + 1 })
            .where(eq(noticeOutbox.id, row.id));
          claimed.push({
            id: row.id,
            userId: row.userId,
            kind,
            openid: bound.openid,
            templateId,
            bookId: row.bookId,
            chapterNumber: row.chapterNumber,
            data: row.data as Record<string, string>,
            attempts: row.attempts + 1,
          });
          return 'claimed' as const;
        });
        if (outcome === 'none') break;
      }
      return claimed;
    },

    async markSent(id: number, now: Date) {
      await db.update(noticeOutbox).set({ status: 'sent', sentAt: now }).where(eq(noticeOutbox.id, id));
    },

    /** WeChat answered no for good, or gave no answer (it may have sent it: never asked again). */
    async markFailed(id: number, why: string) {
      await db.update(noticeOutbox).set({ status: 'failed', lastError: why }).where(eq(noticeOutbox.id, id));
    },

    /** WeChat refused this time and sent nothing: pending again at `dueAt`, the consent given back. */
    async retryLater(n: ClaimedNotice, dueAt: Date, why: string, now: Date) {
      await db.transaction(async (tx) => {
        await tx
          .update(noticeOutbox)
          .set({ status: 'pending', dueAt, claimedAt: null, lastError: why })
          .where(and(eq(noticeOutbox.id, n.id), eq(noticeOutbox.status, 'sending')));
        await tx
          .update(noticeConsents)
          .set({ remaining: sql`${noticeConsents.remaining} + 1`, updatedAt: now })
          .where(and(eq(noticeConsents.userId, n.userId), eq(noticeConsents.templateId, n.templateId)));
      });
    },

    /**
     * Notices claimed long ago and never marked: the server died between claiming and marking. WeChat may have
     * sent them, so they are never sent again (at most once): marked failed.
     */
    async abandonStale(before: Date) {
      const rows = await db
        .update(noticeOutbox)
        .set({ status: 'failed', lastError: 'claimed and never marked: the outcome is unknown' })
        .where(and(eq(noticeOutbox.status, 'sending'), lte(noticeOutbox.claimedAt, before)))
        .returning({ id: noticeOutbox.id });
      return rows.length;
    },

    /** Waits for free that ended in (since, now], of bound readers who still allow a notice of the template. */
    async waitsEnded(since: Date, now: Date, templateId: string) {
      return db
        .select({
          userId: unlockWaitClocks.userId,
          bookId: unlockWaitClocks.bookId,
          readyAt: unlockWaitClocks.readyAt,
          title: books.title,
          chapterNumber: readingProgress.chapterNumber,
        })
        .from(unlockWaitClocks)
        .innerJoin(books, eq(books.id, unlockWaitClocks.bookId))
        .innerJoin(wechatOpenids, eq(wechatOpenids.userId, unlockWaitClocks.userId))
        .innerJoin(
          noticeConsents,
          and(
            eq(noticeConsents.userId, unlockWaitClocks.userId),
            eq(noticeConsents.templateId, templateId),
            gt(noticeConsents.remaining, 0),
          ),
        )
        .leftJoin(
          readingProgress,
          and(
            eq(readingProgress.userId, unlockWaitClocks.userId),
            eq(readingProgress.bookId, unlockWaitClocks.bookId),
          ),
        )
        .where(and(gt(unlockWaitClocks.readyAt, since), lte(unlockWaitClocks.readyAt, now)));
    },

    /** Unspent tickets ending in (now, until], per bound reader who still allows the template: the soonest. */
    async ticketsEnding(now: Date, until: Date, templateId: string) {
      return db
        .select({
          userId: readingTickets.userId,
          count: sql<number>`count(*)::int`,
          soonest: sql<Date>`min(${readingTickets.expiresAt})`,
        })
        .from(readingTickets)
        .innerJoin(wechatOpenids, eq(wechatOpenids.userId, readingTickets.userId))
        .innerJoin(
          noticeConsents,
          and(
            eq(noticeConsents.userId, readingTickets.userId),
            eq(noticeConsents.templateId, templateId),
            gt(noticeConsents.remaining, 0),
          ),
        )
        .where(
          and(
            sql`${readingTickets.spentAt} is null`,
            gt(readingTickets.expiresAt, now),
            lte(readingTickets.expiresAt, until),
          ),
        )
        .groupBy(readingTickets.userId);
    },

    /**
     * Followed books with a released chapter newer than the follow has seen, of bound readers who still allow the
     * template and did not ask for 攒更 instead (a pile's readers are told by `pilesReached`): the newest chapter.
     */
    async followedReleases(templateId: string, limit: number) {
      return rowsOf<{
        userId: number;
        bookId: number;
        title: string;
        latest: number;
      }>(
        await db.execute(sql`
        select f.user_id as "userId", f.book_id as "bookId", b.title, n.latest
        from ${follows} f
        join ${books} b on b.id = f.book_id and b.published
        join ${wechatOpenids} o on o.user_id = f.user_id
        join ${noticeConsents} k on k.user_id = f.user_id and k.template_id = ${templateId} and k.remaining > 0
        cross join lateral (
          select max(c.number) as latest from chapters c where c.book_id = f.book_id and c.publish_at is null
        ) n
        where f.pile_up = 0 and n.latest > f.seen_chapter
          and not exists (
            select 1 from ${noticeOutbox} x
            where x.user_id = f.user_id and x.event_key = 'new_chapter:' || f.book_id || ':' || n.latest)
        order by f.user_id, f.book_id limit ${limit}`),
      );
    },

    /**
     * Follows whose 攒更 is reached (at least `pile_up` released chapters after both the chapter read and the newest
     * one the reader was last told of), of bound readers who still allow the template.
     */
    async pilesReached(templateId: string, limit: number) {
      return rowsOf<{
        userId: number;
        bookId: number;
        title: string;
        latest: number;
        piled: number;
      }>(
        await db.execute(sql`
        select f.user_id as "userId", f.book_id as "bookId", b.title, n.latest, n.piled
        from ${follows} f
        join ${books} b on b.id = f.book_id and b.published
        join ${wechatOpenids} o on o.user_id = f.user_id
        join ${noticeConsents} k on k.user_id = f.user_id and k.template_id = ${templateId} and k.remaining > 0
        left join ${readingProgress} p on p.user_id = f.user_id and p.book_id = f.book_id
        cross join lateral (
          select count(*)::int as piled, coalesce(max(c.number), 0) as latest from chapters c
          where c.book_id = f.book_id and c.publish_at is null
            and c.number > greatest(f.pile_told_chapter, coalesce(p.chapter_number, 0))
        ) n
        where f.pile_up > 0 and n.piled >= f.pile_up
        order by f.user_id, f.book_id limit ${limit}`),
      );
    },
  };
}
