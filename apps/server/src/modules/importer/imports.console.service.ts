import { rm } from 'node:fs/promises';
import { BOOK_TEXT_LIMITS } from '@yueman/contract';
import { badRequest, notFound } from '../../shared/errors.ts';
import { consoleWindow } from '../../shared/pagination.ts';
import { ImportRefused, partialReportOf } from './import-book.ts';
import { type ImportJobs, publicImportJob } from './import-jobs.repository.ts';
import { UnreadablePage } from './import-pages.ts';
import { ImportSourceError } from './import-source.ts';
import type { ImportOptions } from './importer.port.ts';

export interface ImportsConsoleDeps {
  jobs: ImportJobs;
  /** Wakes this server's worker. */
  kick(): void;
  uploadDir: string;
  place: string;
  maxBytes: number;
}

const ARCHIVE = /\.(cbz|zip)$/i;

/** A whole number form field in [min, max], or undefined when absent or empty. */
function wholeField(fields: Record<string, string>, name: string, min: number, max: number) {
  const raw = fields[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw badRequest(`表单字段 ${name} 不正确`, name);
  return Number(raw);
}
function textField(fields: Record<string, string>, name: string, max: number) {
  const value = fields[name]?.trim();
  if (value === undefined || value === '') return undefined;
  if (value.length > max) throw badRequest(`表单字段 ${name} 不正确`, name);
  return value;
}
const flagField = (fields: Record<string, string>, name: string) =>
  ['true', 'on', '1'].includes(fields[name]?.trim().toLowerCase() ?? '');

/** The import's options from the upload form's fields (the same as the command line's flags). */
export function importOptionsOf(fields: Record<string, string>): ImportOptions {
  const freeChapters = wholeField(fields, 'freeChapters', 0, 1_000_000);
  const price = wholeField(fields, 'price', 1, 100_000);
  if (freeChapters !== undefined && price === undefined)
    throw badRequest('设置免费章节数时须同时设置价格', 'price');
  return {
    bookId: wholeField(fields, 'bookId', 1, 2_147_483_647),
    title: textField(fields, 'title', BOOK_TEXT_LIMITS.title),
    freeChapters,
    price,
    vipFree: flagField(fields, 'vipFree'),
    replace: flagField(fields, 'replace'),
    dryRun: flagField(fields, 'dryRun'),
  };
}

const isRefusal = (err: unknown): err is Error =>
  err instanceof ImportRefused || err instanceof UnreadablePage || err instanceof ImportSourceError;

/** What the operator is told of a failed import: a refusal as it is (without this server's paths), else nothing. */
export function describeImportFailure(err: unknown, log: { error(obj: object, msg: string): void }) {
  if (!isRefusal(err)) log.error({ err }, 'import job failed');
  const message = isRefusal(err)
    ? err.message.replaceAll(/\/[^\s:：]*\/uploads\/[0-9a-f-]{36}\//g, '')
    : '导入失败：服务器出错，请稍后再试';
  return { message, report: partialReportOf(err) };
}

/**
 * Queues an uploaded archive (saved under DATA_DIR/uploads by the route) for a server on this data directory, which
 * runs it with runImport, the code `npm run import` runs (import-jobs.ts). A refused upload's folder is removed.
 */
export async function startImport(
  deps: ImportsConsoleDeps,
  input: {
    upload: { fileName: string; file: string; folder: string; fields: Record<string, string> };
    by: { operatorId: number; actor: string };
  },
) {
  const { upload } = input;
  let options: ImportOptions;
  try {
    if (!ARCHIVE.test(upload.fileName)) throw badRequest('请上传 .cbz 或 .zip 文件', 'file');
    options = importOptionsOf(upload.fields);
  } catch (err) {
    await rm(upload.folder, { recursive: true, force: true });
    throw err;
  }
  const job = await deps.jobs.create({
    fileName: upload.fileName,
    options,
    by: input.by,
    place: deps.place,
    folder: upload.folder,
    source: upload.file,
  });
  deps.kick();
  return { import: publicImportJob(job) };
}

/** A page of the import records, newest first. */
export async function listImports(deps: ImportsConsoleDeps, input: { page: number; size: number }) {
  const { rows, total } = await deps.jobs.list(consoleWindow(input));
  return { ...input, total, list: rows };
}

/** One import's progress and result, from any server. */
export async function importJob(deps: ImportsConsoleDeps, id: number) {
  const job = await deps.jobs.get(id);
  if (!job) throw notFound('导入记录不存在');
  return { import: job };
}
