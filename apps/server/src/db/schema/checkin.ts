import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Daily check-in (签到)'s rewards, one row per day of the streak's seven-day cycle (day 8 of a streak pays day 1's
 * reward again). A day pays coins, reading tickets, both or nothing (a day without a row pays nothing).
 */
export const checkinRewards = pgTable(
  'checkin_rewards',
  {
    day: integer().primaryKey(),
    coins: integer().notNull().default(0),
    tickets: integer().notNull().default(0),
    ticketKind: text().notNull().default('read'),
    // How many days a ticket of this reward stays usable.
    ticketDays: integer().notNull().default(7),
    // null: any book; else the books the tickets may be spent on.
    ticketScope: integer().array(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('checkin_rewards_day', sql`${t.day} between 1 and 7`),
    check('checkin_rewards_coins', sql`${t.coins} between 0 and 100000`),
    check('checkin_rewards_tickets', sql`${t.tickets} between 0 and 10`),
    check('checkin_rewards_kind', sql`${t.ticketKind} in ('read', 'presale')`),
    check('checkin_rewards_ticket_days', sql`${t.ticketDays} between 1 and 365`),
  ],
);

/**
 * One reader's check-in on one China-time day: unique (user, day), so two tabs or two servers claiming at once make
 * one row, and the reward is paid in the same transaction as the row (coins under the transfer id
 * `checkin:{id}`, tickets under the grant ids `checkin:{id}:{n}`, made from this row's id).
 */
export const checkinClaims = pgTable(
  'checkin_claims',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    // The China-time (Asia/Shanghai) calendar day of the claim.
    day: date({ mode: 'string' }).notNull(),
    // The streak this claim makes (1 when the reader did not check in the China day before).
    streak: integer().notNull(),
    // The day of the seven-day cycle whose reward it paid.
    cycleDay: integer().notNull(),
    coins: integer().notNull().default(0),
    tickets: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('checkin_claims_user_day').on(t.userId, t.day),
    check('checkin_claims_streak', sql`${t.streak} >= 1`),
    check('checkin_claims_cycle_day', sql`${t.cycleDay} between 1 and 7`),
    // The console's claims per day.
    index('checkin_claims_by_day').on(t.day),
  ],
);
