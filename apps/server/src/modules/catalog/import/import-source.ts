import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import yauzl from 'yauzl';
import { withoutInvisible } from '../../../shared/upload.ts';

/**
 * What `npm run import` reads (docs/operations.md, "Importing comics"): a `.cbz`/`.zip` for one chapter, a folder of
 * them (one book), a folder of folders of images (one folder a chapter), or one archive whose top-level folders are
 * chapters. This file only finds the chapters and their pages in order; import-book.ts decodes and stores them.
 */

/** PATH is missing, unreadable, or none of the shapes an import reads: the message names it. */
export class ImportSourceError extends Error {}

export interface PageSource {
  /** Where the page is, as an operator reads it in a message: `第3话.cbz › 012.jpg`. */
  label: string;
  read(): Promise<Buffer>;
}

export interface ChapterSource {
  number: number;
  title: string;
  /** The archive or folder the chapter came from, for messages. */
  label: string;
  pages: PageSource[];
}

export interface BookSource {
  title: string;
  author?: string;
  summary?: string;
  genre?: string;
  tags?: string[];
  /** ComicInfo's Count and a finished hint: the book is complete. */
  finished?: boolean;
  chapters: ChapterSource[];
}

const IMAGE = /\.(jpe?g|png|webp|gif|avif|bmp|tiff?)$/i;
const ARCHIVE = /\.(cbz|zip)$/i;
/** An archive's whole content may not pass this (a zip bomb stops here, not in memory). */
const MAX_ARCHIVE_BYTES = 2 * 1024 * 1024 * 1024;
const MAX_PAGE_BYTES = 64 * 1024 * 1024;

const natural = new Intl.Collator('zh-Hans-CN', { numeric: true, sensitivity: 'base' });
/** Natural order: `2.jpg` before `10.jpg`. */
export const naturalSort = (names: string[]) => [...names].sort(natural.compare);

/** The first number in a name (`第10话` → 10, `ch-3.5` → 3), or undefined. */
export function numberIn(name: string): number | undefined {
  const found = /\d+/.exec(name);
  return found ? Number(found[0]) : undefined;
}

interface ComicInfo {
  Series?: string;
  Number?: string | number;
  Title?: string;
  Writer?: string;
  Summary?: string;
  Genre?: string;
  Tags?: string;
  Count?: string | number;
}

function parseComicInfo(xml: Buffer): ComicInfo | undefined {
  try {
    const parsed = new XMLParser({ parseTagValue: false, processEntities: true }).parse(xml.toString('utf8'));
    return parsed?.ComicInfo as ComicInfo | undefined;
  } catch {
    return undefined;
  }
}

const text = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
/** A file's name without its extension, as a title: without invisible characters (U+202E, U+200B…). */
const stem = (name: string) => withoutInvisible(path.basename(name).replace(/\.[^.]+$/, ''));

/** An archive's entries, read lazily: names, and each file's bytes on demand (bounded). */
async function openArchive(file: string) {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, z) =>
      err ? reject(err) : resolve(z as yauzl.ZipFile),
    ),
  );
  const entries: yauzl.Entry[] = [];
  let total = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      total += entry.uncompressedSize;
      if (total > MAX_ARCHIVE_BYTES)
        return reject(new ImportSourceError(`${path.basename(file)}: 解压后超过 2 GB`));
      if (!entry.fileName.endsWith('/')) entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  const read = (entry: yauzl.Entry) =>
    new Promise<Buffer>((resolve, reject) => {
      if (entry.uncompressedSize > MAX_PAGE_BYTES) return reject(new Error('larger than 64 MB'));
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) return reject(err);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => resolve(Buffer.concat(chunks)));
        stream.on('error', reject);
      });
    });
  return { entries, read, close: () => zip.close() };
}

type Archive = Awaited<ReturnType<typeof openArchive>>;

/** The pages of the entries under `prefix`, in natural order. */
function pagesOf(archive: Archive, label: string, entries: yauzl.Entry[]): PageSource[] {
  const byName = new Map(entries.filter((e) => IMAGE.test(e.fileName)).map((e) => [e.fileName, e]));
  return naturalSort([...byName.keys()]).map((name) => ({
    label: `${label} › ${name}`,
    read: () => archive.read(byName.get(name) as yauzl.Entry),
  }));
}

/** One archive: one chapter, or (its images all inside top-level folders, more than one) one chapter per folder. */
async function readArchive(file: string, archives: Archive[]) {
  const archive = await openArchive(file);
  archives.push(archive);
  const label = path.basename(file);
  const infoEntry = archive.entries.find((e) => /(^|\/)ComicInfo\.xml$/i.test(e.fileName));
  const info = infoEntry ? parseComicInfo(await archive.read(infoEntry)) : undefined;
  const images = archive.entries.filter((e) => IMAGE.test(e.fileName));
  const folders = new Set(
    images.map((e) => (e.fileName.includes('/') ? (e.fileName.split('/')[0] as string) : '')),
  );
  if (folders.size > 1 && !folders.has('')) {
    const chapters = naturalSort([...folders]).map((folder, i) => ({
      number: numberIn(folder) ?? i + 1,
      title: withoutInvisible(folder),
      label: `${label} › ${folder}`,
      pages: pagesOf(
        archive,
        label,
        images.filter((e) => e.fileName.startsWith(`${folder}/`)),
      ),
    }));
    return { info, chapters };
  }
  const chapter: ChapterSource = {
    number: Number(info?.Number) > 0 ? Math.floor(Number(info?.Number)) : (numberIn(stem(file)) ?? 0),
    title: text(info?.Title) ?? stem(file),
    label,
    pages: pagesOf(archive, label, images),
  };
  return { info, chapters: [chapter] };
}

async function readImageFolder(dir: string, number: number | undefined): Promise<ChapterSource> {
  const names = naturalSort((await readdir(dir)).filter((n) => IMAGE.test(n)));
  const label = path.basename(dir);
  return {
    number: number ?? 0,
    title: withoutInvisible(label),
    label,
    pages: names.map((name) => ({ label: `${label} › ${name}`, read: () => readFile(path.join(dir, name)) })),
  };
}

/** Numbers for chapters whose names hold none: their place in natural order. */
function numberChapters(chapters: ChapterSource[]) {
  chapters.forEach((c, i) => {
    if (!(c.number > 0)) c.number = i + 1;
  });
  return chapters;
}

/**
 * Reads PATH. Returns the book and a `close` for the archives it opened; throws with a message that names PATH when it
 * is none of the shapes above.
 */
export async function readBookSource(source: string): Promise<{ book: BookSource; close(): void }> {
  const archives: Archive[] = [];
  const close = () => {
    for (const a of archives) a.close();
  };
  try {
    const info = await stat(source);
    let comic: ComicInfo | undefined;
    let chapters: ChapterSource[];
    let title = stem(source);
    if (info.isFile()) {
      if (!ARCHIVE.test(source)) throw new ImportSourceError(`${source}: 不是 .cbz 或 .zip`);
      const read = await readArchive(source, archives);
      comic = read.info;
      chapters = read.chapters;
      // One chapter's archive: the book is named by its ComicInfo, else by the folder it sits in.
      if (read.chapters.length === 1)
        title = withoutInvisible(path.basename(path.dirname(path.resolve(source))));
    } else {
      const names = naturalSort(await readdir(source));
      const archiveNames = names.filter((n) => ARCHIVE.test(n));
      if (archiveNames.length > 0) {
        chapters = [];
        for (const name of archiveNames) {
          const read = await readArchive(path.join(source, name), archives);
          comic ??= read.info;
          chapters.push(...read.chapters);
        }
      } else {
        const folders: string[] = [];
        for (const n of names) if ((await stat(path.join(source, n))).isDirectory()) folders.push(n);
        chapters = await Promise.all(folders.map((f) => readImageFolder(path.join(source, f), numberIn(f))));
      }
    }
    chapters = numberChapters(chapters.filter((c) => c.pages.length > 0));
    if (chapters.length === 0) throw new ImportSourceError(`${source}: 没有找到含图片的章节`);
    const book: BookSource = {
      title: text(comic?.Series) ?? title,
      author: text(comic?.Writer),
      summary: text(comic?.Summary),
      genre: text(comic?.Genre)?.split(/[,，]/)[0]?.trim(),
      tags: text(comic?.Tags)
        ?.split(/[,，]/)
        .map((t) => t.trim())
        .filter(Boolean),
      finished: Number(comic?.Count) > 0 && chapters.length >= Number(comic?.Count),
      chapters,
    };
    return { book, close };
  } catch (err) {
    close();
    if (err instanceof ImportSourceError) throw err;
    throw new ImportSourceError(`${source}: ${(err as Error).message}`);
  }
}
