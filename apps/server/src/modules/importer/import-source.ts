import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { BOOK_TEXT_LIMITS, clampText } from '@yueman/contract';
import { XMLParser } from 'fast-xml-parser';
import yauzl from 'yauzl';
import { withoutInvisible } from '../../shared/upload.ts';

/**
 * What `npm run import` reads (docs/operations.md, "Importing comics"): a `.cbz`/`.zip` for one chapter, a folder of
 * them (one book), a folder of folders of images (one folder a chapter), or one archive whose top-level folders are
 * chapters. This file only finds the chapters and their pages in order; import-book.ts decodes and stores them.
 */

/** PATH is missing, unreadable, or none of the shapes an import reads: the message names it. */
export class ImportSourceError extends Error {}

/**
 * Why a file, a folder or an archive could not be read, in the operator's words: Node's and the zip library's own
 * messages are English and name nothing an operator can act on (the original stays as the error's `cause`).
 */
export function unreadableFileReason(err: unknown): string {
  if (err instanceof ImportSourceError) return err.message;
  const code = String((err as NodeJS.ErrnoException)?.code ?? '');
  if (code === 'ENOENT') return '找不到这个文件或文件夹';
  if (code === 'EACCES' || code === 'EPERM') return '没有读取权限';
  if (code === 'ENOTDIR' || code === 'EISDIR') return '路径不对（文件和文件夹弄反了）';
  if (code === 'EMFILE' || code === 'ENFILE') return '同时打开的文件太多，请稍后再试';
  const text = String((err as Error)?.message ?? '').toLowerCase();
  if (/encrypt/.test(text)) return '压缩包设置了密码：请去掉密码再导入';
  if (/unsupported compression/.test(text)) return '压缩方式不支持：请用普通的 zip 压缩';
  if (/end of central directory|central directory|not a zip|zip64|multi-disk/.test(text))
    return '不是完整的 zip 压缩包（可能未传完或已损坏）';
  if (code.startsWith('Z_') || /too (many|few) bytes|unexpected end|premature|truncat|invalid|crc/.test(text))
    return '压缩包内容已损坏';
  return '无法读取（文件已损坏或格式不支持）';
}

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
  /** Other names readers search by: ComicInfo's AlternateSeries and LocalizedSeries (a translated title). */
  aliases?: string[];
  summary?: string;
  genre?: string;
  tags?: string[];
  /** ComicInfo's Count and a finished hint: the book is complete. */
  finished?: boolean;
  /** The archive's own cover image (ComicInfo's FrontCover page, or a file named cover.*), if it has one. */
  cover?: PageSource;
  chapters: ChapterSource[];
}

const IMAGE = /\.(jpe?g|png|webp|gif|avif|bmp|tiff?)$/i;
const ARCHIVE = /\.(cbz|zip)$/i;
/** An archive's whole content may not pass this (a zip bomb stops here, not in memory). */
const MAX_ARCHIVE_BYTES = 2 * 1024 * 1024 * 1024;
const MAX_PAGE_BYTES = 64 * 1024 * 1024;
/**
 * A ComicInfo.xml larger than this is refused before it is read or parsed: a real one is a few KB (its Summary is cut
 * to BOOK_TEXT_LIMITS anyway); an archive of 61 KB once carried a 60-million-character Series.
 */
export const MAX_COMIC_INFO_BYTES = 256 * 1024;
/** A file that names itself the cover: `cover.jpg`, `Cover.png` (at any depth). */
const COVER_FILE = /(^|\/)cover\.[a-z0-9]+$/i;

const natural = new Intl.Collator('zh-Hans-CN', { numeric: true, sensitivity: 'base' });
/** Natural order: `2.jpg` before `10.jpg`. */
export const naturalSort = (names: string[]) => [...names].sort(natural.compare);

/** The first number in a name (`第10话` → 10, `ch-3.5` → 3), or undefined. */
export function numberIn(name: string): number | undefined {
  const found = /\d+/.exec(name);
  return found ? Number(found[0]) : undefined;
}

interface ComicInfoPage {
  '@_Image'?: string;
  '@_Type'?: string;
}

interface ComicInfo {
  Pages?: { Page?: ComicInfoPage | ComicInfoPage[] };
  Series?: string;
  AlternateSeries?: string;
  LocalizedSeries?: string;
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
    const parsed = new XMLParser({
      parseTagValue: false,
      processEntities: true,
      ignoreAttributes: false,
      attributeNamePrefix: '@_',
    }).parse(xml.toString('utf8'));
    return parsed?.ComicInfo as ComicInfo | undefined;
  } catch {
    return undefined;
  }
}

const text = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
/** A text field of ComicInfo cut to its limit (BOOK_TEXT_LIMITS): longer text is cut, not refused. */
const bounded = (value: unknown, max: number) => {
  const found = text(value);
  return found === undefined ? undefined : clampText(found, max).trim() || undefined;
};
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
      if (entry.uncompressedSize > MAX_PAGE_BYTES)
        return reject(new ImportSourceError(`大于 ${MAX_PAGE_BYTES / 1024 / 1024} MB`));
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
  if (infoEntry && infoEntry.uncompressedSize > MAX_COMIC_INFO_BYTES) {
    throw new ImportSourceError(
      `${label} › ${infoEntry.fileName}: 大于 ${MAX_COMIC_INFO_BYTES / 1024} KB，不是正常的漫画信息文件，已拒绝导入`,
    );
  }
  const info = infoEntry ? parseComicInfo(await archive.read(infoEntry)) : undefined;
  const images = archive.entries.filter((e) => IMAGE.test(e.fileName));
  const cover = coverOf(archive, label, info, images);
  // A cover.* at the top beside chapter folders is the book's cover, not a chapter of its own.
  const paged = images.filter((e) => e.fileName.includes('/') || !COVER_FILE.test(e.fileName));
  const folders = new Set(
    paged.map((e) => (e.fileName.includes('/') ? (e.fileName.split('/')[0] as string) : '')),
  );
  if (folders.size > 1 && !folders.has('')) {
    const chapters = naturalSort([...folders]).map((folder, i) => ({
      number: numberIn(folder) ?? i + 1,
      title: clampText(withoutInvisible(folder), BOOK_TEXT_LIMITS.chapterTitle),
      label: `${label} › ${folder}`,
      pages: pagesOf(
        archive,
        label,
        images.filter((e) => e.fileName.startsWith(`${folder}/`)),
      ),
    }));
    return { info, chapters, cover };
  }
  const chapter: ChapterSource = {
    number: Number(info?.Number) > 0 ? Math.floor(Number(info?.Number)) : (numberIn(stem(file)) ?? 0),
    title:
      bounded(info?.Title, BOOK_TEXT_LIMITS.chapterTitle) ??
      clampText(stem(file), BOOK_TEXT_LIMITS.chapterTitle),
    label,
    pages: pagesOf(archive, label, images),
  };
  return { info, chapters: [chapter], cover };
}

/** The archive's cover image: the page ComicInfo marks FrontCover (by its index in page order), else cover.*. */
function coverOf(archive: Archive, label: string, info: ComicInfo | undefined, images: yauzl.Entry[]) {
  const marked = [info?.Pages?.Page ?? []].flat().find((p) => p['@_Type'] === 'FrontCover');
  const index = Number(marked?.['@_Image']);
  const ordered = naturalSort(images.map((e) => e.fileName));
  const name =
    (Number.isInteger(index) && index >= 0 ? ordered[index] : undefined) ??
    ordered.find((n) => COVER_FILE.test(n));
  if (name === undefined) return undefined;
  const entry = images.find((e) => e.fileName === name) as yauzl.Entry;
  return { label: `${label} › ${name}`, read: () => archive.read(entry) };
}

async function readImageFolder(dir: string, number: number | undefined): Promise<ChapterSource> {
  const names = naturalSort((await readdir(dir)).filter((n) => IMAGE.test(n)));
  const label = path.basename(dir);
  return {
    number: number ?? 0,
    title: clampText(withoutInvisible(label), BOOK_TEXT_LIMITS.chapterTitle),
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
    let cover: PageSource | undefined;
    let chapters: ChapterSource[];
    let title = stem(source);
    if (info.isFile()) {
      if (!ARCHIVE.test(source)) throw new ImportSourceError(`${source}: 不是 .cbz 或 .zip`);
      const read = await readArchive(source, archives);
      comic = read.info;
      cover = read.cover;
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
          cover ??= read.cover;
          chapters.push(...read.chapters);
        }
      } else {
        const folders: string[] = [];
        for (const n of names) if ((await stat(path.join(source, n))).isDirectory()) folders.push(n);
        chapters = await Promise.all(folders.map((f) => readImageFolder(path.join(source, f), numberIn(f))));
      }
      // A folder's own cover.* (beside the chapters).
      const coverName = names.find((n) => COVER_FILE.test(n) && IMAGE.test(n));
      if (coverName && !cover) {
        cover = {
          label: `${path.basename(source)} › ${coverName}`,
          read: () => readFile(path.join(source, coverName)),
        };
      }
    }
    chapters = numberChapters(chapters.filter((c) => c.pages.length > 0));
    if (chapters.length === 0) throw new ImportSourceError(`${source}: 没有找到含图片的章节`);
    const book: BookSource = {
      title: bounded(comic?.Series, BOOK_TEXT_LIMITS.title) ?? clampText(title, BOOK_TEXT_LIMITS.title),
      author: bounded(comic?.Writer, BOOK_TEXT_LIMITS.author),
      aliases: [comic?.LocalizedSeries, comic?.AlternateSeries]
        .map((a) => bounded(a, BOOK_TEXT_LIMITS.alias))
        .filter((a): a is string => a !== undefined),
      summary: bounded(comic?.Summary, BOOK_TEXT_LIMITS.description),
      genre: bounded(text(comic?.Genre)?.split(/[,，]/)[0], BOOK_TEXT_LIMITS.category),
      tags: text(comic?.Tags)
        ?.split(/[,，]/)
        .map((t) => t.trim())
        .filter(Boolean),
      finished: Number(comic?.Count) > 0 && chapters.length >= Number(comic?.Count),
      cover,
      chapters,
    };
    return { book, close };
  } catch (err) {
    close();
    if (err instanceof ImportSourceError) throw err;
    throw new ImportSourceError(`${source}: ${unreadableFileReason(err)}`, { cause: err });
  }
}
