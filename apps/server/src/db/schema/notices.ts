import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * The reader's openid at our official account, learnt through its web OAuth (snsapi_base) while the reader was signed
 * in: one openid per account and one account per openid (a later binding of the same WeChat moves it).
 */
export const wechatOpenids = pgTable('wechat_openids', {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  openid: text().notNull().unique(),
  boundAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * A reader's consent to one notice template, as WeChat pushed it to us (never as the page reported it): each
 * `accept` allows one message more, a `reject` (popup or later in WeChat's settings) ends them all.
 */
export const noticeConsents = pgTable(
  'notice_consents',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    templateId: text().notNull(),
    remaining: integer().notNull().default(0),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.templateId] }),
    check('notice_consents_remaining', sql`${t.remaining} >= 0`),
  ],
);

/**
 * One notice owed to one reader for one event: unique (event key, reader), so an event enqueued twice (retries, two
 * servers) is one row. status: pending (due at dueAt), sending (claimed, WeChat asked: never asked again),
 * sent, failed (WeChat refused for good), dropped (no consent, no openid, or unsubscribed).
 */
export const noticeOutbox = pgTable(
  'notice_outbox',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    eventKey: text().notNull(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    bookId: integer(),
    chapterNumber: integer(),
    /** The template's data values (thing1, time2…), as WeChat takes them. */
    data: jsonb().notNull().default({}),
    status: text().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    dueAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp({ withTimezone: true }),
    sentAt: timestamp({ withTimezone: true }),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('notice_outbox_event_reader').on(t.eventKey, t.userId),
    check('notice_outbox_status', sql`${t.status} in ('pending', 'sending', 'sent', 'failed', 'dropped')`),
    check(
      'notice_outbox_kind',
      sql`${t.kind} in ('new_chapter', 'wait_free', 'saved_up', 'ticket_expiring')`,
    ),
    index('notice_outbox_due').on(t.dueAt).where(sql`${t.status} = 'pending'`),
    // The daily limit counts a reader's claims per China day.
    index('notice_outbox_by_user_claimed').on(t.userId, t.claimedAt),
  ],
);

/**
 * The event pushes already counted, by WeChat's own identity of an event (the openid, CreateTime and event): WeChat
 * pushes again when our answer is slow, and a consent must count once.
 */
export const noticePushEvents = pgTable('notice_push_events', {
  key: text().primaryKey(),
  receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
