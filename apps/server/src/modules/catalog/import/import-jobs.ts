import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { desc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../db/client.ts';
import { importJobs } from '../../../db/schema/index.ts';
import { backgroundLoop } from '../../../shared/background-loop.ts';
import type { ImportOptions, ImportReport } from './import-book.ts';
import type { ImportActor } from './import-runner.ts';

/** A running import's row is rewritten this often (its progress, and its heartbeat). */
const BEAT_MS = 500;
/** A running import not heard of for this long (30 missed beats) died with its server: it is claimed again. */
const DEAD_AFTER_SECONDS = 15;
/**
 * An upload whose runs ended with their server this many times is given up: an archive that kills (or freezes) its
 * server the same way twice is not run a third time.
 */
export const MAX_ATTEMPTS = 2;
/** An import still unfinished after a day (its data directory gone) is given up. */
const GIVE_UP_HOURS = 24;
/** How often a server looks for imports queued on its data directory (an upload wakes it at once). */
const POLL_MS = 5000;

const RESUMING = '服务器中断，恢复运行后自动继续';
const GIVEN_UP = '导入未能完成，请重新上传';
const TOO_MANY = '导入多次中断服务器，请检查文件后重新上传';
const FILE_GONE = '上传的文件已不在服务器上，请重新上传';

type Row = typeof importJobs.$inferSelect;

/** An uploaded import as the console shows it (docs/api.md section 9). */
export const publicImportJob = (row: Row) => {
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

/** The data directory's id for the queue: the imports whose archives are in its uploads folder are its own. */
export async function uploadPlace(uploadDir: string): Promise<string> {
  await mkdir(uploadDir, { recursive: true, mode: 0o700 });
  const file = path.join(uploadDir, '.place');
  const existing = await readFile(file, 'utf8').catch(() => '');
  if (existing.trim()) return existing.trim();
  const id = randomUUID();
  // wx: two processes starting at once on one data directory agree on the first one's id.
  await writeFile(file, id, { flag: 'wx', mode: 0o600 }).catch(() => undefined);
  return (await readFile(file, 'utf8')).trim();
}

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
      return row as Row;
    },

    /**
     * The next import of this data directory to run: queued, or running with a silent heartbeat (its server died;
     * imports are idempotent, so running it again finishes it). Marked running with one more attempt, or failed
     * when it has had its attempts. Two servers never claim one row (FOR UPDATE SKIP LOCKED).
     */
    async claim(place: string): Promise<Row | undefined> {
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

/**
 * The import queue's worker in this process: a background loop (`import-jobs`, every POLL_MS, and at once when an
 * upload arrives) that claims the next import of this data directory and runs it, one at a time per process; the
 * pass itself only claims, so it holds the job lock for milliseconds while the import runs on. The row is rewritten
 * every BEAT_MS with the progress; the upload's folder is removed once the import is done or failed.
 */
export function createImportWorker(opts: {
  jobs: ImportJobs;
  place: string;
  /** Imports `source` with `options`, telling its progress; answers the report. */
  run(job: Row, progress: (done: number, total: number) => void): Promise<ImportReport>;
  /** What the operator is told of a failure, and the chapters imported before it. */
  describe(err: unknown): { message: string; report?: ImportReport };
  log: FastifyBaseLogger;
}) {
  const { jobs } = opts;
  let current: Promise<void> | undefined;
  let closing = false;

  async function work(job: Row) {
    if (job.state !== 'running') return; // given up at the claim
    if (!existsSync(job.source)) {
      await jobs.finish(job.id, { message: FILE_GONE });
      return;
    }
    let latest: [number, number] = [job.pagesDone, job.pagesTotal];
    let written: Promise<unknown> = Promise.resolve();
    const beat = setInterval(() => {
      written = written.then(() => jobs.progress(job.id, ...latest)).catch(() => undefined);
    }, BEAT_MS);
    let outcome: { report?: ImportReport; message?: string };
    try {
      outcome = {
        report: await opts.run(job, (done, total) => {
          latest = [done, total];
        }),
      };
    } catch (err) {
      outcome = opts.describe(err);
    } finally {
      clearInterval(beat);
      await written;
    }
    if (outcome.message === undefined) await jobs.progress(job.id, ...latest);
    await jobs.finish(job.id, outcome);
    await rm(job.folder, { recursive: true, force: true });
  }

  const loop = backgroundLoop({
    name: 'import-jobs',
    intervalMs: POLL_MS,
    run: async () => {
      if (current || closing) return false; // one import at a time here; the loop looks again when it ends
      await jobs.giveUpOld();
      const job = await jobs.claim(opts.place);
      if (!job) return false;
      current = work(job)
        .catch((err) => opts.log.error({ err, importJob: job.id }, 'import job: could not finish'))
        .finally(() => {
          current = undefined;
          if (!closing) kick(); // the next one queued here, if any
        });
      return false;
    },
    log: opts.log,
  });

  /** Looks for an import to run now (also when the loop is not started, as in tests). */
  function kick() {
    loop.runOnce().catch((err) => opts.log.error({ err }, 'import job: could not claim'));
  }

  return {
    loop,
    /** An upload arrived. */
    kick,
    /** The server is closing: no new import starts here (one in progress ends with the process, to be resumed). */
    close() {
      closing = true;
    },
  };
}
