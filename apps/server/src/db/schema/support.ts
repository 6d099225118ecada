import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { books } from './catalog.ts';
import { operators } from './operators.ts';
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
export const reports = pgTable(
  'reports',
  {
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
    // Handling in the console: new → handling (an operator has it) → done; the operator who last moved it.
    state: text().$type<ComplaintState>().notNull().default('new'),
    handlerId: integer().references(() => operators.id, { onDelete: 'set null' }),
    stateAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check('reports_state', sql`${t.state} in ('new', 'handling', 'done')`),
    index('reports_by_state').on(t.state, t.id),
  ],
);

export const COMPLAINT_STATES = ['new', 'handling', 'done'] as const;
export type ComplaintState = (typeof COMPLAINT_STATES)[number];

// An operator's notes on a complaint, oldest first; a reply sent through the reader's contact is one (kind reply).
export const reportNotes = pgTable(
  'report_notes',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    reportId: integer()
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    operatorId: integer().references(() => operators.id, { onDelete: 'set null' }),
    operatorName: text().notNull(),
    kind: text().$type<'note' | 'reply'>().notNull().default('note'),
    text: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('report_notes_kind', sql`${t.kind} in ('note', 'reply')`),
    index('report_notes_by_report').on(t.reportId, t.id),
  ],
);
