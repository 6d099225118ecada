import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from './errors.ts';

/**
 * Characters a name shows nothing of, or that change how the rest reads: controls (Cc), format characters (Cf: the
 * bidi overrides and isolates such as U+202E, zero-width U+200B-U+200D, U+2060, the BOM, soft hyphens), and line
 * and paragraph separators.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** A name (a file's, a folder's) without its invisible characters: what an operator sees is what is kept. */
export const withoutInvisible = (name: string) => name.replace(INVISIBLE, '');

/** A file name as the operator's machine had it, fit to be one name on ours: no folders, no invisible characters. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = withoutInvisible(base).trim().slice(-200);
  return clean === '' || clean === '.' || clean === '..' ? 'upload' : clean;
}

const tooLarge = (maxBytes: number) =>
  new AppError(413, 413, `文件过大，最大 ${Math.floor(maxBytes / 1024 / 1024)} MB`, { field: 'file' });

/**
 * Fastify's multipart limits, as our envelope: an over-large file is 413 naming the limit. A form the parser cannot
 * read (cut short, a boundary that never comes) is the sender's: 400. Our own refusals and the machine's failures
 * (a full disk: a system error with its syscall) stay as they are.
 */
function uploadError(err: unknown, maxBytes: number, field: string): unknown {
  if (err instanceof AppError) return err;
  const { code, statusCode, syscall } = err as { code?: string; statusCode?: number; syscall?: string };
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(maxBytes);
  if (code?.startsWith('FST_') && statusCode === 413) return badRequest('一次只能上传一个文件');
  if (syscall !== undefined || (statusCode !== undefined && statusCode >= 500)) return err;
  return badRequest('上传的表单不完整或格式不正确', field);
}

export interface ReceivedFile<T> {
  fileName: string;
  file: T;
  /** The form's text fields, each once. */
  fields: Record<string, string>;
}

/**
 * Reads a multipart form with exactly one file, in the field `fileField`, through `keep` (to disk or to memory),
 * and its text fields. 400 when the form is not multipart or has no such file, 413 past `maxBytes`.
 */
async function receive<T>(
  req: FastifyRequest,
  opts: {
    fileField: string;
    maxBytes: number;
    keep(stream: NodeJS.ReadableStream, name: string, fields: Record<string, string>): Promise<T>;
  },
): Promise<ReceivedFile<T>> {
  if (!req.isMultipart()) throw badRequest('请以表单上传文件（multipart/form-data）', opts.fileField);
  const fields: Record<string, string> = {};
  let received: { fileName: string; file: T } | undefined;
  try {
    for await (const part of req.parts({ limits: { fileSize: opts.maxBytes, files: 1, fields: 20 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== opts.fileField || received) {
          part.file.resume();
          throw badRequest(`表单字段 ${part.fieldname} 不正确`, part.fieldname);
        }
        const fileName = safeFileName(part.filename);
        received = { fileName, file: await opts.keep(part.file, fileName, fields) };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    throw uploadError(err, opts.maxBytes, opts.fileField);
  }
  if (!received) throw badRequest(`缺少表单字段 ${opts.fileField}`, opts.fileField);
  return { ...received, fields };
}

/** An image, into memory (covers and ads: a few MB at most). */
export const receiveImage = (req: FastifyRequest, opts: { fileField: string; maxBytes: number }) =>
  receive(req, {
    ...opts,
    async keep(stream) {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
  });

/**
 * A large file (an archive of a book), onto disk: `<dir>/<random>/<subfolder(name)>/<name>`, the folder made
 * only for it, so the importer sees the file under its own name. Answers the folder to remove when done; a
 * failed upload removes it at once.
 */
export async function receiveToDisk(
  req: FastifyRequest,
  opts: {
    fileField: string;
    maxBytes: number;
    dir: string;
    /** The folder the file sits in, from its name and the text fields sent before it. */
    subfolder(fileName: string, fields: Record<string, string>): string;
  },
) {
  const folder = path.join(opts.dir, randomUUID());
  try {
    const got = await receive(req, {
      ...opts,
      async keep(stream, name, fields) {
        const inner = path.join(folder, safeFileName(opts.subfolder(name, fields)));
        await mkdir(inner, { recursive: true, mode: 0o700 });
        const file = path.join(inner, name);
        await pipeline(stream, createWriteStream(file, { mode: 0o600 }));
        return file;
      },
    });
    return { ...got, folder };
  } catch (err) {
    await rm(folder, { recursive: true, force: true });
    throw err;
  }
}
