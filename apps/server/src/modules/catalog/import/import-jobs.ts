import { desc, eq, sql } from 'drizzle-orm';
import pLimit from 'p-limit';
import type { Database } from '../../../db/client.ts';
import { importJobs } from '../../../db/schema/index.ts';
import type { ImportOptions, ImportReport } from './import-book.ts';
import type { ImportActor } from './import-runner.ts';

/** A running import's row is rewritten this often (its progress, and its heartbeat). */
const BEAT_MS = 500;
/** A running import not heard of for this long died with its server. */
const DEAD_AFTER_SECONDS = 60;
const INTERRUPTED = '导入已中断（服务器退出），请重新上传';

type Row = typeof importJobs.$inferSelect;

/** An uploaded import as the console shows it (docs/api.md section 9). */
export const publicImportJob = (row: Row & { operatorName?: string | null }) => ({
  id: row.id,
  fileName: row.fileName,
  state: row.state,
  pagesDone: row.pagesDone,
  pagesTotal: row.pagesTotal,
  message: row.message,
  bookId: row.bookId,
  title: row.title,
  dryRun: row.dryRun,
  chapters: row.chapters as ImportReport['chapters'],
  operatorName: row.actor,
  createdAt: row.createdAt.toISOString(),
  finishedAt: row.finishedAt?.toISOString() ?? null,
});
export type ImportJob = ReturnType<typeof publicImportJob>;

/** A running row whose heartbeat stopped reads as failed (and is written so the first time it is read). */
const reportedState = sql<string>`case when ${importJobs.state} = 'running'
  and ${importJobs.updatedAt} < now() - make_interval(secs => ${DEAD_AFTER_SECONDS}) then 'failed'
  else ${importJobs.state} end`;

export function createImportJobs(db: Database) {
  async function markDead() {
    await db
      .update(importJobs)
      .set({ state: 'failed', message: INTERRUPTED, finishedAt: sql`now()` })
      .where(sql`${importJobs.state} = 'running' and ${reportedState} = 'failed'`);
  }

  return {
    async create(input: { fileName: string; options: ImportOptions; by: ImportActor }) {
      const [row] = await db
        .insert(importJobs)
        .values({
          operatorId: input.by.operatorId,
          actor: input.by.actor,
          fileName: input.fileName,
          dryRun: input.options.dryRun === true,
          options: input.options,
        })
        .returning();
      return row as Row;
    },

    /** The latest progress; also the heartbeat that keeps the row from reading as dead. */
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

    async get(id: number) {
      await markDead();
      const [row] = await db.select().from(importJobs).where(eq(importJobs.id, id));
      return row ? publicImportJob(row) : undefined;
    },

    async list(window: { limit: number; offset: number }) {
      await markDead();
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

/**
 * Runs uploaded imports in this process, one at a time (each keeps the cores busy decoding pages), writing their
 * progress to their row every BEAT_MS so that any server can answer the console's polling.
 */
export function createImportQueue(
  jobs: ImportJobs,
  opts: {
    /** What the operator is told of a failure, and the chapters imported before it. */
    describe(err: unknown): { message: string; report?: ImportReport };
    log: { error(obj: object, msg: string): void };
  },
) {
  const one = pLimit(1);
  return {
    /** Starts `work` for the job `id`; `work` gets a progress function and answers the report. */
    start(id: number, work: (progress: (done: number, total: number) => void) => Promise<ImportReport>) {
      return one(async () => {
        let latest: [number, number] = [0, 0];
        let written: Promise<unknown> = jobs.progress(id, 0, 0);
        const beat = setInterval(() => {
          written = written.then(() => jobs.progress(id, ...latest)).catch(() => undefined);
        }, BEAT_MS);
        try {
          const report = await work((done, total) => {
            latest = [done, total];
          });
          clearInterval(beat);
          await written.catch(() => undefined);
          await jobs.progress(id, ...latest);
          await jobs.finish(id, { report });
        } catch (err) {
          clearInterval(beat);
          await written.catch(() => undefined);
          await jobs
            .finish(id, opts.describe(err))
            .catch((e) => opts.log.error({ err: e }, 'import job: could not record the failure'));
        }
      });
    },
  };
}
