import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { chapters } from './catalog.ts';
import { payOrders } from './payments.ts';
import { users } from './users.ts';

/**
 * Coins (阅币) in a double-entry ledger (docs/api.md section 3). Every movement is one transfer with a
 * deterministic id and entries that sum to zero. A user's account keeps its balance in `balance`, updated in
 * the same transaction as its entries, and a CHECK keeps it from going below zero whatever the code does.
 * System accounts (`code` set: where bought coins come from, where spent coins go) keep no stored balance:
 * their balance is the sum of their entries. A stored one would be a single row every purchase of every
 * reader updates, which would serialise all purchases behind one row lock.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    // Exactly one of userId (a reader's coins) and code (a system account) is set.
    userId: integer()
      .unique()
      .references(() => users.id, { onDelete: 'restrict' }),
    code: text().unique(),
    balance: bigint({ mode: 'number' }).notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('ledger_accounts_owner', sql`(${t.userId} is null) <> (${t.code} is null)`),
    check('ledger_accounts_user_not_negative', sql`${t.userId} is null or ${t.balance} >= 0`),
    check('ledger_accounts_system_unstored', sql`${t.code} is null or ${t.balance} = 0`),
  ],
);

/**
 * One movement of coins. The id is deterministic, so doing the same thing twice collides on the primary key
 * instead of moving coins twice: `purchase:{userId}:{chapterId}`, `order:{orderNo}:coins`,
 * `order:{orderNo}:bonus`.
 */
export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    id: text().primaryKey(),
    // recharge (bought coins), bonus (presentCount of a pack), purchase (a chapter bought), grant and revoke (an
    // operator's adjustment from or to system:adjustments, `adjust:{userId}:{requestId}`)
    kind: text().notNull(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    amount: integer().notNull(),
    chapterId: integer().references(() => chapters.id, { onDelete: 'restrict' }),
    orderId: integer().references(() => payOrders.id, { onDelete: 'restrict' }),
    memo: text().notNull().default(''),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('ledger_transfers_kind', sql`${t.kind} in ('recharge', 'bonus', 'purchase', 'grant', 'revoke')`),
    check('ledger_transfers_amount', sql`${t.amount} > 0`),
    // The consumption records page reads a user's transfers newest first.
    index('ledger_transfers_by_user').on(t.userId, t.createdAt.desc(), t.id),
  ],
);

/** The two sides of a transfer: negative leaves an account, positive arrives. They sum to zero per transfer. */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    transferId: text()
      .notNull()
      .references(() => ledgerTransfers.id, { onDelete: 'restrict' }),
    accountId: integer()
      .notNull()
      .references(() => ledgerAccounts.id, { onDelete: 'restrict' }),
    amount: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('ledger_entries_amount', sql`${t.amount} <> 0`),
    index('ledger_entries_by_transfer').on(t.transferId),
    index('ledger_entries_by_account').on(t.accountId),
  ],
);

/**
 * A chapter a reader owns. The primary key is the entitlement claim: a purchase inserts it first, so two
 * concurrent buys of one chapter cannot both charge (docs/api.md section 3).
 */
export const chapterPurchases = pgTable(
  'chapter_purchases',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    chapterId: integer()
      .notNull()
      .references(() => chapters.id, { onDelete: 'restrict' }),
    // What was charged (0 when the chapter was free for this reader); the transfer is purchase:{userId}:{chapterId},
    // or, for a chapter bought in a bundle, bundleId (its share of the bundle's one transfer).
    price: integer().notNull(),
    bundleId: text().references(() => ledgerTransfers.id, { onDelete: 'restrict' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.chapterId] }),
    check('chapter_purchases_price', sql`${t.price} >= 0`),
    // The dashboard's coins per book and chapter over a range of days.
    index('chapter_purchases_by_created_at').on(t.createdAt),
  ],
);

/**
 * An operator's change of a reader's VIP days (the console's 读者), one row per request: the id
 * `vip:{userId}:{requestId}` makes a double-clicked or retried change happen once. Days are signed (a grant adds,
 * a shortening takes away); before and after are the reader's vip_end around it.
 */
export const vipAdjustments = pgTable(
  'vip_adjustments',
  {
    id: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    days: integer().notNull(),
    vipEndBefore: timestamp({ withTimezone: true }),
    vipEndAfter: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('vip_adjustments_days', sql`${t.days} <> 0`),
    index('vip_adjustments_by_user').on(t.userId, t.createdAt),
  ],
);
