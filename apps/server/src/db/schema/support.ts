import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { books } from './catalog.ts';
import { users } from './users.ts';

// Common info per branch; branch -2 is the default every other branch falls back to.
export const branchSettings = pgTable('branch_settings', {
  branchId: integer().primaryKey(),
  // What operators call the branch (the console's revenue per branch shows it); readers never see it.
  name: text().notNull().default(''),
  appDownloadUrl: text().notNull().default(''),
  appDownloadHome: text().notNull().default(''),
  customerServiceEmail: text().notNull().default(''),
  customerServiceQq: text().notNull().default(''),
});

export const contacts = pgTable(
  'contacts',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    visitorId: text().notNull().default(''),
    contactType: text().notNull(),
    contactPosition: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('contacts_type', sql`${t.contactType} in ('qq', 'email')`)],
);

// Complaints from the report page (/h5/report).
export const reports = pgTable('reports', {
  id: integer().primaryKey().generatedByDefaultAsIdentity(),
  userId: integer().references(() => users.id, { onDelete: 'set null' }),
  visitorId: text().notNull().default(''),
  reason: text().notNull(),
  content: text().notNull().default(''),
  contact: text().notNull().default(''),
  pageUrl: text().notNull().default(''),
  // The page of a chapter the reader reported from the reader's menu (举报此页); null for other complaints.
  bookId: integer().references(() => books.id, { onDelete: 'set null' }),
  chapterNumber: integer(),
  pageNumber: integer(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
