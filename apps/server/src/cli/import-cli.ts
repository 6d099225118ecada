/**
 * npm run import -- PATH [--book ID] [--title TITLE] [--free-chapters N --price COINS] [--vip-free] [--dry-run] [--replace]
 * Imports a comic from the files publishers hand over (docs/operations.md, "Importing comics").
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock.ts';
import * as importer from '../modules/importer/index.ts';
import { operatorCommands } from '../modules/operators/index.ts';
import { createLocalStorage, originalKey } from '../modules/storage/index.ts';
import { printReport } from './import-report.ts';
import { throughServer } from './through-server.ts';

const USAGE = `Usage: npm run import -- PATH [--book ID] [--title TITLE] [--free-chapters N --price COINS] [--vip-free] [--dry-run] [--replace]
  PATH             a .cbz/.zip (one chapter), a folder of them (one book), a folder of folders of images
                   (one folder a chapter), or one archive whose top-level folders are chapters
  --book ID        into this book (else the book with the same title, else a new book)
  --title TITLE    the book's title, over ComicInfo's Series or the folder's or archive's name
  --free-chapters N, --price COINS
                   chapters numbered up to N free, later ones COINS each (without them: all free)
  --vip-free       VIP readers read the book's priced chapters free (a new book only)
  --dry-run        print the book and its chapters, write nothing
  --replace        replace a chapter whose number exists with different pages (else it is refused)
Database and images: as the server's settings say (DATABASE_URL, DATA_DIR, IMAGE_ROOT, STORAGE…); when a server is
running on this DATA_DIR, it does the import.`;

class UsageError extends Error {}

function count(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > 1_000_000) {
    throw new UsageError(`--${name} 须为不小于 ${min} 的整数，收到的是 "${raw}"`);
  }
  return Number(raw);
}

function parse(argv: string[]) {
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        book: { type: 'string' },
        title: { type: 'string' },
        'free-chapters': { type: 'string' },
        price: { type: 'string' },
        'vip-free': { type: 'boolean' },
        'dry-run': { type: 'boolean' },
        replace: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch {
    // Node's own words are English: the usage below says what is taken.
    throw new UsageError('参数不对：请对照下面的用法');
  }
  const { values, positionals } = parsed;
  if (values.help) return undefined;
  if (positionals.length !== 1) throw new UsageError('请给出一个要导入的路径 PATH');
  const freeChapters = count('free-chapters', values['free-chapters'] as string | undefined, 0);
  const price = count('price', values.price as string | undefined, 1);
  if (freeChapters !== undefined && price === undefined)
    throw new UsageError('--free-chapters 须与 --price 一起给出');
  return {
    source: path.resolve(positionals[0] as string),
    options: {
      bookId: count('book', values.book as string | undefined, 1),
      title: (values.title as string | undefined)?.trim() || undefined,
      freeChapters,
      price,
      vipFree: values['vip-free'] === true,
      dryRun: values['dry-run'] === true,
      replace: values.replace === true,
    } satisfies importer.ImportOptions,
  };
}

/** A progress bar on the terminal (stderr), redrawn in place. */
function progressBar() {
  let last = -1;
  return (done: number, total: number) => {
    const width = 30;
    const filled = Math.round((done / total) * width);
    if (filled === last && done !== total) return;
    last = filled;
    process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} 页`);
    if (done === total) process.stderr.write('\n');
  };
}

/** An import refused for its files (exit 1, the reason printed); any other error goes on. */
function refused(err: unknown): number {
  if (
    err instanceof importer.ImportRefused ||
    err instanceof importer.UnreadablePage ||
    err instanceof importer.ImportSourceError
  ) {
    process.stderr.write('\n');
    console.error(`import: ${(err as Error).message}`);
    return 1;
  }
  throw err;
}

async function main(): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`import: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (!args) {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig();
  let release: (() => Promise<void>) | undefined;
  // A dry run with no database yet plans from the files alone; with one, it is checked against it (chapters already
  // there are reported unchanged or replaced), through the running server when one holds DATA_DIR.
  const noDatabaseYet = !config.databaseUrl && !existsSync(path.join(config.dataDir, 'pglite'));
  if (args.options.dryRun && noDatabaseYet) {
    try {
      const source = await importer.readBookSource(args.source);
      source.close();
      printReport(importer.planImport(source.book, args.options));
      return 0;
    } catch (err) {
      return refused(err);
    }
  }
  if (!config.databaseUrl) {
    try {
      release = await lockDataDir(config.dataDir);
    } catch (err) {
      if (!(err instanceof DataDirLockedError)) throw err;
      const answer = await throughServer('import', config.dataDir, 'import', args);
      if (!answer) return 1;
      printReport(answer.result as importer.ImportReport);
      return 0;
    }
  }
  try {
    const opened = await openDatabase(
      config.databaseUrl
        ? { kind: 'postgres', url: config.databaseUrl }
        : { kind: 'pglite', dataDir: config.dataDir },
    );
    try {
      const storage = config.s3
        ? (await import('../modules/storage/s3-storage.ts')).createS3Storage(config.s3)
        : createLocalStorage({
            originals: config.imageRoot,
            variants: config.imageCacheDir,
            writesOriginals: true,
          });
      // The code the running server's control socket and the console's upload run.
      const report = await importer.runImport(
        {
          repo: importer.createImporterRepository(opened.db),
          putOriginal: (p, bytes) => storage.put(originalKey(p), bytes),
          audit: (entry) => operatorCommands(opened.db).audit(opened.db, entry),
          changed: () => undefined, // no server here keeps answers
        },
        { ...args, by: { operatorId: null, actor: 'cli' }, progress: progressBar() },
      );
      printReport(report);
      return 0;
    } finally {
      await opened.close();
    }
  } catch (err) {
    return refused(err);
  } finally {
    await release?.();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
