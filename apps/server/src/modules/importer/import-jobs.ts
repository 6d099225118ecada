import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { backgroundLoop } from '../../shared/background-loop.ts';
import type { ImportJobRow, ImportJobs } from './import-jobs.repository.ts';
import type { ImportReport } from './importer.port.ts';

// The queue's rows, as the console's calls read them.
export { type ImportJobs, publicImportJob } from './import-jobs.repository.ts';

/** A running import's row is rewritten this often (its progress, and its heartbeat). */
const BEAT_MS = 500;
/** How often a server looks for imports queued on its data directory (an upload wakes it at once). */
const POLL_MS = 5000;

const FILE_GONE = '上传的文件已不在服务器上，请重新上传';

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
  run(job: ImportJobRow, progress: (done: number, total: number) => void): Promise<ImportReport>;
  /** What the operator is told of a failure, and the chapters imported before it. */
  describe(err: unknown): { message: string; report?: ImportReport };
  log: FastifyBaseLogger;
}) {
  const { jobs } = opts;
  let current: Promise<void> | undefined;
  let closing = false;

  async function work(job: ImportJobRow) {
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
