import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * The monthly card (月卡)'s daily reward, one row (id 1): what each claimed China day pays, in check-in's shape
 * (coins through the ledger, reading tickets of a kind usable ticketDays days, on any book or on the scope's).
 */
export const cardRewards = pgTable(
  'card_rewards',
  {
    id: integer().primaryKey().default(1),
    coins: integer().notNull().default(0),
    tickets: integer().notNull().default(0),
    ticketKind: text().notNull().default('read'),
    ticketDays: integer().notNull().default(7),
    // null: any book; else the books the tickets may be spent on.
    ticketScope: integer().array(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('card_rewards_one', sql`${t.id} = 1`),
    check('card_rewards_coins', sql`${t.coins} between 0 and 100000`),
    check('card_rewards_tickets', sql`${t.tickets} between 0 and 10`),
    check('card_rewards_kind', sql`${t.ticketKind} in ('read', 'presale')`),
    check('card_rewards_ticket_days', sql`${t.ticketDays} between 1 and 365`),
  ],
);

/**
 * A reader's monthly card: the last China day it may be claimed on (the card runs through that day). Only the
 * card's days (card_days) move it, so its history is there.
 */
export const monthlyCards = pgTable('monthly_cards', {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: 'restrict' }),
  // YYYY-MM-DD, China time: the card's last day.
  lastDay: date({ mode: 'string' }).notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every change of a reader's card, once under its id: `order:{orderNo}` gives a paid order's days, `refund:{orderNo}`
 * takes back the unclaimed ones of a refunded order. The id is the key, so a notification that comes three times
 * or a refund settled twice moves the card once.
 */
export const cardDays = pgTable(
  'card_days',
  {
    id: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    // Days given (positive) or taken back (negative or 0).
    days: integer().notNull(),
    lastDayBefore: date({ mode: 'string' }),
    lastDayAfter: date({ mode: 'string' }).notNull(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('card_days_by_user').on(t.userId, t.at)],
);

/**
 * One reader's claim of the card on one China day: unique (user, day), so two tabs or two servers claiming at once
 * make one row; the reward is paid in the row's transaction (coins `card:{id}`, tickets `card:{id}:{n}`).
 */
export const cardClaims = pgTable(
  'card_claims',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    day: date({ mode: 'string' }).notNull(),
    coins: integer().notNull().default(0),
    tickets: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('card_claims_user_day').on(t.userId, t.day),
    // The console's claims per day.
    index('card_claims_by_day').on(t.day),
  ],
);
