import type { AuditEntry } from '../operators/operators.port.ts';
import { importBook, partialReportOf, planAgainst } from './import-book.ts';
import { readBookSource } from './import-source.ts';
import type { ImportActor, ImportReport, ImportRun } from './importer.port.ts';
import type { ImporterRepository } from './importer.repository.ts';

export interface ImportRunnerDeps {
  repo: ImporterRepository;
  putOriginal(imagePath: string, bytes: Buffer): Promise<unknown>;
  /** Records one write in the audit log (the operators' port). */
  audit(entry: AuditEntry): Promise<unknown>;
  /** Readers must see the new chapters: the kept answers go (a no-op for the command line on its own). */
  changed(): void;
}

/**
 * One import, whoever asks: `npm run import` on its own, the running server for it (the control socket), and the
 * console's upload all come here. Reads PATH, imports it (or plans it, with dryRun), and records what changed in the
 * audit log. Errors are the importer's (ImportSourceError, ImportRefused, UnreadablePage); the chapters before the
 * one that failed stay imported and are audited all the same (the error carries them: partialReportOf).
 */
export async function runImport(deps: ImportRunnerDeps, run: ImportRun): Promise<ImportReport> {
  const read = await readBookSource(run.source);
  try {
    if (run.options.dryRun) return await planAgainst(deps.repo, read.book, run.options);
    let report: ImportReport;
    try {
      report = await importBook(
        { repo: deps.repo, putOriginal: deps.putOriginal, progress: run.progress },
        read.book,
        run.options,
      );
    } catch (err) {
      const partial = partialReportOf(err);
      if (partial) await recordImport(deps, run.by, partial);
      throw err;
    }
    await recordImport(deps, run.by, report);
    return report;
  } finally {
    read.close();
  }
}

/** The audit entry of what an import wrote (nothing when every chapter was already there). */
async function recordImport(deps: ImportRunnerDeps, by: ImportActor, report: ImportReport) {
  const changed = report.chapters.filter((c) => c.outcome !== 'unchanged');
  if (!report.created && changed.length === 0) return;
  await deps.audit({
    ...by,
    action: 'book.import',
    target: `book:${report.bookId}`,
    before: null,
    after: { title: report.title, created: report.created, chapters: changed },
  });
  deps.changed();
}
