import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { operators } from './operators.ts';

export const IMPORT_STATES = ['running', 'done', 'failed'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

// An import uploaded in the console (modules/catalog/import/import-jobs.ts): its progress while it runs, on any
// server (the browser may ask another one), and what it did. updated_at is its heartbeat: a running import whose
// server died stops beating and is reported failed.
export const importJobs = pgTable(
  'import_jobs',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    operatorId: integer().references(() => operators.id, { onDelete: 'set null' }),
    actor: text().notNull(),
    fileName: text().notNull(),
    dryRun: boolean().notNull().default(false),
    // What was asked: bookId, freeChapters, price, vipFree, replace.
    options: jsonb().notNull(),
    state: text().$type<ImportState>().notNull().default('running'),
    pagesDone: integer().notNull().default(0),
    pagesTotal: integer().notNull().default(0),
    message: text(),
    bookId: integer(),
    title: text(),
    // The report's chapters: number, title, pages, price, outcome.
    chapters: jsonb().notNull().default(sql`'[]'::jsonb`),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check('import_jobs_state', sql`${t.state} in ('running', 'done', 'failed')`),
    index('import_jobs_created').on(t.createdAt),
  ],
);
