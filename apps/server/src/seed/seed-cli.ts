/**
 * npm run seed -- [--books N] [--chapters M] [--no-demo] [--business [--readers R] [--branches B] [--days D]]
 * Seeds the demo library into an empty database, then adds N synthetic books for load tests, and with --business a
 * business's history (visits, readers, orders, refunds, purchases, reading, returning days) for measuring the
 * dashboard.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Database, type DatabaseTarget, openDatabase } from '../db/client.ts';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock.ts';
import { books, chapters } from '../db/schema/index.ts';
import {
  MAX_BUSINESS_BRANCHES,
  MAX_BUSINESS_DAYS,
  MAX_BUSINESS_READERS,
  seedBusiness,
} from './seed-business.ts';
import { seedDemoLibrary } from './seed-demo.ts';
import { MAX_CHAPTERS_PER_BOOK, MAX_SCALE_BOOKS, seedScale } from './seed-scale.ts';

const USAGE = `Usage: npm run seed -- [--books N] [--chapters M] [--no-demo] [--business [--readers R] [--branches B] [--days D]]
  Seeds the demo library when the database has no books, then adds N synthetic books.
  --books N      synthetic books to add, 1 to ${MAX_SCALE_BOOKS.toLocaleString('en')}
  --chapters M   chapters per synthetic book, 1 to ${MAX_CHAPTERS_PER_BOOK} (default 20)
  --no-demo      do not seed the demo library
  --business     add a business's history for measuring the dashboard: first visits through promotion branches,
                 readers, orders (paid, unpaid, refunded), chapter purchases, unlocks, reading and the days
                 readers came back on (no ledger movements: a measuring database, not a shop)
  --readers R    readers of it, 1 to ${MAX_BUSINESS_READERS.toLocaleString('en')} (default 100,000)
  --branches B   promotion branches, 1 to ${MAX_BUSINESS_BRANCHES} (default 100)
  --days D       days of history, 1 to ${MAX_BUSINESS_DAYS} (default 365)
Database: DATABASE_URL (PostgreSQL) if set, else PGlite under DATA_DIR (default ./data).`;

class UsageError extends Error {}

function wholeNumber(name: string, raw: string | undefined, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = /^\d+$/.test(raw.replaceAll('_', '')) ? Number(raw.replaceAll('_', '')) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new UsageError(`--${name} must be a positive whole number no greater than ${max}, got "${raw}"`);
  }
  return value;
}

const OPTIONS = {
  books: { type: 'string' },
  chapters: { type: 'string' },
  'no-demo': { type: 'boolean' },
  business: { type: 'boolean' },
  readers: { type: 'string' },
  branches: { type: 'string' },
  days: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parse(argv: string[]) {
  const values = (() => {
    try {
      return parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }).values;
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  })();
  const chaptersPerBook = wholeNumber('chapters', values.chapters, MAX_CHAPTERS_PER_BOOK);
  const bookCount = wholeNumber('books', values.books, MAX_SCALE_BOOKS);
  if (chaptersPerBook !== undefined && bookCount === undefined)
    throw new UsageError('--chapters needs --books');
  const readers = wholeNumber('readers', values.readers, MAX_BUSINESS_READERS);
  const branches = wholeNumber('branches', values.branches, MAX_BUSINESS_BRANCHES);
  const days = wholeNumber('days', values.days, MAX_BUSINESS_DAYS);
  if (!values.business && (readers ?? branches ?? days) !== undefined)
    throw new UsageError('--readers, --branches and --days need --business');
  const business = values.business
    ? { readers: readers ?? 100_000, branches: branches ?? 100, days: days ?? 365 }
    : undefined;
  return {
    help: values.help ?? false,
    demo: !values['no-demo'],
    books: bookCount,
    chaptersPerBook,
    business,
  };
}

async function main(): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`seed: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const url = process.env.DATABASE_URL?.trim();
  const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
  const target: DatabaseTarget = url ? { kind: 'postgres', url } : { kind: 'pglite', dataDir };
  const release = target.kind === 'pglite' ? await lockDataDir(dataDir) : undefined;
  try {
    const opened = await openDatabase(target);
    try {
      console.log(`seed: ${opened.driver === 'postgres' ? 'PostgreSQL' : `PGlite in ${dataDir}`}`);
      await run(opened.db, args);
      const [bookTotal, chapterTotal] = [await opened.db.$count(books), await opened.db.$count(chapters)];
      console.log(`seed: the database now has ${bookTotal} books and ${chapterTotal} chapters`);
      return 0;
    } finally {
      await opened.close();
    }
  } finally {
    await release?.();
  }
}

async function run(db: Database, args: ReturnType<typeof parse>): Promise<void> {
  if (args.demo) {
    const started = performance.now();
    const { seeded } = await seedDemoLibrary(db);
    const ms = Math.round(performance.now() - started);
    console.log(
      seeded ? `seed: demo library seeded in ${ms} ms` : 'seed: books present, demo library skipped',
    );
  }
  if (args.books !== undefined) {
    const result = await seedScale(db, { books: args.books, chaptersPerBook: args.chaptersPerBook });
    const seconds = (result.ms / 1000).toFixed(1);
    console.log(`seed: added ${result.books} books and ${result.chapters} chapters in ${seconds} s`);
    // Their search keys went in with them; of that time, computing them and writing their pinyin keys took:
    console.log(`seed: search keys of the new books in ${(result.keysMs / 1000).toFixed(1)} s of it`);
  }
  if (args.business) {
    const { readers, branches, days } = args.business;
    const result = await seedBusiness(db, args.business);
    console.log(
      `seed: ${days} days of business through ${branches} branches: ${result.readers} readers, ${result.orders} orders, ` +
        `${result.visits} first visits, ${result.purchases} chapter purchases, ${result.readerDays} reader days ` +
        `in ${(result.ms / 1000).toFixed(1)} s ` +
        `(asked for ${readers} readers)`,
    );
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof DataDirLockedError) console.error(`seed: ${err.message}`);
    else console.error('seed: failed:', err);
    process.exit(1);
  },
);
