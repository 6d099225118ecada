import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    account: text().notNull().unique(),
    // argon2id PHC string, self-describing (see users/password.ts); never the plaintext.
    passwordHash: text().notNull(),
    visitorId: text().notNull(),
    branchId: integer().notNull().default(-2),
    fromDomain: text().notNull().default(''),
    mobile: text().unique(),
    vipEnd: timestamp({ withTimezone: true }),
    registerIp: text().notNull().default(''),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // When a session of theirs last answered a call (kept to the hour: written at most once an hour).
    lastSeenAt: timestamp({ withTimezone: true }),
    // Set by an operator (the console's 读者): a blocked reader reads what is free and what they own, and can
    // neither pay nor buy. The reason is the operator's, for the console and the audit log; the reader is told a
    // fixed sentence.
    blockedAt: timestamp({ withTimezone: true }),
    blockReason: text(),
    // Made by the reader app opened from the console (staff following a complaint's page link, x-opened-from):
    // staff's own visitor, not a reader, so the dashboard's new readers leave it out.
    madeFromConsole: boolean().notNull().default(false),
  },
  (t) => [
    index('users_by_visitor').on(t.visitorId),
    // The dashboard's new readers of a range of days.
    index('users_by_created_at').on(t.createdAt),
    check('users_mobile', sql`${t.mobile} is null or ${t.mobile} ~ '^1[0-9]{10}$'`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    // SHA-256 of the cookie token, hex; the token itself is never stored.
    tokenHash: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_by_user').on(t.userId)],
);

// One-time links that carry an account out of a chat app's browser into the system browser (issue: hand-off out of
// WeChat). Only the token's SHA-256 is kept; a token is good for ten minutes and one use.
export const handoffTokens = pgTable(
  'handoff_tokens',
  {
    tokenHash: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('handoff_tokens_by_user').on(t.userId, t.createdAt)],
);

// First visit per (branch, visitor), reported by user_from_mark.
export const visitMarks = pgTable(
  'visit_marks',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    branchId: integer().notNull(),
    visitorId: text().notNull(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    referUrl: text().notNull().default(''),
    clientIp: text().notNull().default(''),
    userAgent: text().notNull().default(''),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('visit_marks_once').on(t.branchId, t.visitorId),
    // The dashboard's funnel: the first visits of a range of days.
    index('visit_marks_by_created_at').on(t.createdAt),
    // The funnel's summary: the visits of an account made, or of an account's order paid, on a day.
    index('visit_marks_by_visitor').on(t.visitorId),
    index('visit_marks_by_user').on(t.userId).where(sql`${t.userId} is not null`),
  ],
);
