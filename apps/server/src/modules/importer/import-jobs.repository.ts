import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { importJobs } from '../../db/schema/index.ts';
import type { ImportActor, ImportOptions, ImportReport } from './importer.port.ts';

/** A running import not heard of for this long (30 missed beats) died with its server: it is claimed again. */
const DEAD_AFTER_SECONDS = 15;
/**
 * An upload whose runs ended with their server this many times is given up: an archive that kills (or freezes) its
 * server the same way twice is not run a third time.
 */
export const MAX_ATTEMPTS = 2;
/** An import still unfinished after a day (its data directory gone) is given up. */
const GIVE_UP_HOURS = 24;

const RESUMING = '服务器中断，恢复运行后自动继续';
const GIVEN_UP = '导入未能完成，请重新上传';
const TOO_MANY = '导入多次中断服务器，请检查文件后重新上传';

export type ImportJobRow = typeof importJobs.$inferSelect;

/** An uploaded import as the console shows it (docs/api.md section 9). */
export const publicImportJob = (row: ImportJobRow) => {
  const stale = row.state === 'running' && Date.now() - row.updatedAt.getTime() > DEAD_AFTER_SECONDS * 1000;
  return {
    id: row.id,
    fileName: row.fileName,
    // A running import whose server stopped waits to be claimed again: it is queued, and says why.
    state: stale ? ('queued' as const) : row.state,
    pagesDone: row.pagesDone,
    pagesTotal: row.pagesTotal,
    message: stale ? RESUMING : row.message,
    bookId: row.bookId,
    title: row.title,
    dryRun: row.dryRun,
    chapters: row.chapters as ImportReport['chapters'],
    operatorName: row.actor,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
};
export type ImportJob = ReturnType<typeof publicImportJob>;

export function createImportJobs(db: Database) {
  return {
    async create(input: {
      fileName: string;
      options: ImportOptions;
      by: ImportActor;
      place: string;
      folder: string;
      source: string;
    }) {
      const [row] = await db
        .insert(importJobs)
        .values({
          operatorId: input.by.operatorId,
          actor: input.by.actor,
          fileName: input.fileName,
          dryRun: input.options.dryRun === true,
          options: input.options,
          place: input.place,
          folder: input.folder,
          source: input.source,
        })
        .returning();
      return row as ImportJobRow;
    },

    /**
     * The next import of this data directory to run: queued, or running with a silent heartbeat (its server died;
     * imports are idempotent, so running it again finishes it). Marked running with one more attempt, or failed
     * when it has had its attempts. Two servers never claim one row (FOR UPDATE SKIP LOCKED).
     */
    async claim(place: string): Promise<ImportJobRow | undefined> {
      const [row] = await db
        .execute<Record<string, unknown>>(sql`
        update ${importJobs} set
          state = case when ${importJobs.attempts} >= ${MAX_ATTEMPTS} then 'failed' else 'running' end,
          message = case when ${importJobs.attempts} >= ${MAX_ATTEMPTS} then ${TOO_MANY} else null end,
          finished_at = case when ${importJobs.attempts} >= ${MAX_ATTEMPTS} then now() end,
          attempts = ${importJobs.attempts} + 1,
          updated_at = now()
        where ${importJobs.id} = (
          select id from ${importJobs}
          where place = ${place} and (state = 'queued'
            or (state = 'running' and updated_at < now() - make_interval(secs => ${DEAD_AFTER_SECONDS})))
          order by id limit 1 for update skip locked)
        returning id`)
        .then((r) => (r as unknown as { rows: { id: number }[] }).rows);
      if (!row) return undefined;
      const [claimed] = await db
        .select()
        .from(importJobs)
        .where(eq(importJobs.id, row.id as number));
      return claimed;
    },

    /** The latest progress; also the heartbeat that keeps the row from being claimed again. */
    async progress(id: number, done: number, total: number) {
      await db
        .update(importJobs)
        .set({ pagesDone: done, pagesTotal: total, updatedAt: sql`now()` })
        .where(eq(importJobs.id, id));
    },

    async finish(id: number, outcome: { report?: ImportReport; message?: string }) {
      const { report, message } = outcome;
      await db
        .update(importJobs)
        .set({
          state: message === undefined ? 'done' : 'failed',
          message: message ?? null,
          ...(report ? { bookId: report.bookId, title: report.title, chapters: report.chapters } : {}),
          updatedAt: sql`now()`,
          finishedAt: sql`now()`,
        })
        .where(eq(importJobs.id, id));
    },

    /** Imports no server has finished within a day: their data directory is gone; they are given up. */
    async giveUpOld() {
      await db
        .update(importJobs)
        .set({ state: 'failed', message: GIVEN_UP, finishedAt: sql`now()` })
        .where(
          sql`${importJobs.state} in ('queued', 'running') and ${importJobs.createdAt} < now() - make_interval(hours => ${GIVE_UP_HOURS})`,
        );
    },

    async get(id: number) {
      const [row] = await db.select().from(importJobs).where(eq(importJobs.id, id));
      return row ? publicImportJob(row) : undefined;
    },

    async list(window: { limit: number; offset: number }) {
      const rows = await db
        .select()
        .from(importJobs)
        .orderBy(desc(importJobs.createdAt), desc(importJobs.id))
        .limit(window.limit)
        .offset(window.offset);
      return { rows: rows.map(publicImportJob), total: (await db.$count(importJobs)) as number };
    },
  };
}
export type ImportJobs = ReturnType<typeof createImportJobs>;
