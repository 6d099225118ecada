import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { operators } from './operators.ts';

export const IMPORT_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

// An import uploaded in the console (modules/importer/import-jobs.ts), a job on a queue: queued with the
// archive saved in a data directory (`place`, `folder`), claimed and run by a server on that data directory, its
// progress rewritten while it runs (the browser may ask any server), and what it did. updated_at is its heartbeat:
// a running import whose server died stops beating and is claimed again (imports are idempotent) when a server
// on its data directory runs.
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
    state: text().$type<ImportState>().notNull().default('queued'),
    // The data directory holding the upload (its uploads/.place id), the upload's folder, and the path imported.
    place: text().notNull().default(''),
    folder: text().notNull().default(''),
    source: text().notNull().default(''),
    // Runs started: an archive that kills its server every time is given up after a few.
    attempts: integer().notNull().default(0),
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
    check('import_jobs_state', sql`${t.state} in ('queued', 'running', 'done', 'failed')`),
    index('import_jobs_created').on(t.createdAt),
    // The queue: the unfinished imports of a data directory.
    index('import_jobs_waiting').on(t.place, t.id).where(sql`${t.state} in ('queued', 'running')`),
  ],
);
