// Backups of the embedded database (PGlite): a dump taken while the server runs (through its control socket) or
// with it stopped, and its restore into DATA_DIR/pglite with the server stopped. `npm run backup`, `npm run restore`
// (cli/data-cli.ts); docs/operations.md, "Backups". PostgreSQL is backed up with its own tools (pg_dump).
import { existsSync } from 'node:fs';
import { open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Database } from './client.ts';

/** Where the embedded database lives in a data directory (db/client.ts opens it there). */
export const pgliteDir = (dataDir: string) => path.join(path.resolve(dataDir), 'pglite');

/** Whether a data directory holds an embedded database (its PG_VERSION file). */
export const hasPgliteDatabase = (dataDir: string) => existsSync(path.join(pgliteDir(dataDir), 'PG_VERSION'));

/** The PGlite client under a drizzle handle (drizzle's public `$client`); undefined on PostgreSQL. */
export function pgliteOf(db: Database): PGlite | undefined {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof PGlite ? client : undefined;
}

/** The refusal of a backup the caller can act on (file exists, wrong database): its message is shown as is. */
export class BackupRefused extends Error {}

/**
 * Writes a consistent copy of the open embedded database to `file` (a gzipped tar of its data directory, PGlite's
 * `dumpDataDir`), mode 0600 (it holds password hashes and the ledger), never over an existing file. The server keeps
 * answering: the copy is taken inside a transaction of this client, so no other transaction is open or starts while
 * the files are read (PGlite runs one at a time), and committed work is in it; the tar and gzip take a moment of the
 * main thread (about 1 s for a demo library's 40 MB on 2 cores).
 */
export async function dumpPglite(client: PGlite, file: string): Promise<{ file: string; bytes: number }> {
  const target = path.resolve(file);
  if (existsSync(target)) throw new BackupRefused(`${target} exists: choose a new file name`);
  // Written out to the data files first, so a restore has little write-ahead log to replay.
  await client.exec('CHECKPOINT');
  const dump = await client.transaction(() => client.dumpDataDir('gzip'));
  const bytes = Buffer.from(await dump.arrayBuffer());
  const handle = await open(target, 'wx', 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await rm(target, { force: true });
    throw err;
  }
  await handle.close();
  return { file: target, bytes: bytes.length };
}

/** The dump of a stopped data directory (the caller holds its lock). */
export async function dumpPgliteDataDir(dataDir: string, file: string) {
  const client = new PGlite({ dataDir: pgliteDir(dataDir) });
  try {
    await client.waitReady;
    return await dumpPglite(client, file);
  } finally {
    await client.close();
  }
}

/**
 * Replaces the embedded database of a stopped data directory (the caller holds its lock) by a backup: the backup is
 * unpacked and opened beside it first (a file that is not a PGlite backup changes nothing), then the current
 * database is kept as `pglite.before-restore-<time>` and the restored one takes its place. Keys, images and the
 * rest of DATA_DIR are not touched. The next start migrates a backup of an older version as usual.
 */
export async function restorePglite(
  dataDir: string,
  file: string,
): Promise<{ users: number; kept: string | undefined }> {
  const source = path.resolve(file);
  if (!(await stat(source).catch(() => undefined))?.isFile())
    throw new BackupRefused(`${source} is not a file`);
  const live = pgliteDir(dataDir);
  const staging = `${live}.restoring`;
  await rm(staging, { recursive: true, force: true });
  let users: number;
  try {
    const client = new PGlite({ dataDir: staging, loadDataDir: new Blob([await readFile(source)]) });
    try {
      await client.waitReady;
      const found = await client.query<{ n: number }>(
        `select count(*)::int as n from information_schema.tables where table_name = 'ledger_entries'`,
      );
      if (found.rows[0]?.n !== 1) throw new BackupRefused(`${source} is not a backup of 阅漫's database`);
      users = (await client.query<{ n: number }>('select count(*)::int as n from users')).rows[0]?.n ?? 0;
    } finally {
      await client.close().catch(() => undefined);
    }
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    if (err instanceof BackupRefused) throw err;
    throw new BackupRefused(`${source} could not be restored: ${(err as Error).message}`);
  }
  let kept: string | undefined;
  if (existsSync(live)) {
    kept = `${live}.before-restore-${new Date()
      .toISOString()
      .replaceAll(':', '-')
      .replace(/\.\d+Z$/, 'Z')}`;
    await rename(live, kept);
  }
  await rename(staging, live);
  return { users, kept };
}
