/**
 * npm run backup -- FILE | npm run restore -- FILE | npm run reconcile -- [--day YYYY-MM-DD] [--order ORDER_NO] [--json]
 * Backups of the embedded database and the reconciliation queries (docs/operations.md, "Backups").
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupRefused, dumpPgliteDataDir, hasPgliteDatabase, restorePglite } from '../db/backup.ts';
import { type DatabaseTarget, openDatabase } from '../db/client.ts';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock.ts';
import { isDay, type ReconcileSection, reconcile } from '../db/reconcile.ts';
import { throughServer } from './through-server.ts';

const USAGE = `Usage:
  npm run backup -- FILE       a copy of the embedded database (DATA_DIR/pglite) into FILE, a new file; the running
                               server keeps answering (it takes the copy), or the data directory is read directly
  npm run restore -- FILE      the embedded database replaced by the backup FILE, with the server stopped; the
                               database it replaces is kept as DATA_DIR/pglite.before-restore-<time>
  npm run reconcile -- [--day YYYY-MM-DD] [--order ORDER_NO] [--json]
                               the ledger's checks (exit 1 on a discrepancy), the day's orders (China time, default
                               today), one order's history, refused notifications, sandbox notifications owed
Database: DATABASE_URL (PostgreSQL: reconcile only; back it up with pg_dump) if set, else PGlite under DATA_DIR
(default ./data); when a server runs on that DATA_DIR, backup and reconcile are done by it (its control socket).`;

class UsageError extends Error {}

type Command =
  | { command: 'help' }
  | { command: 'backup'; file: string }
  | { command: 'restore'; file: string }
  | { command: 'reconcile'; day?: string; orderNo?: string; json: boolean };

function parse(argv: string[]): Command {
  let parsed: {
    values: { day?: string; order?: string; json?: boolean; help?: boolean };
    positionals: string[];
  };
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        day: { type: 'string' },
        order: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: 'help' };
  const [command, ...rest] = positionals;
  if (command === 'backup' || command === 'restore') {
    if (rest.length !== 1 || !rest[0]) throw new UsageError(`${command} takes one FILE`);
    if (values.day || values.order || values.json) throw new UsageError(`${command} takes no options`);
    return { command, file: path.resolve(rest[0]) };
  }
  if (command === 'reconcile') {
    if (rest.length > 0) throw new UsageError('reconcile takes options only');
    if (values.day !== undefined && !isDay(values.day)) throw new UsageError('--day must be YYYY-MM-DD');
    return { command, day: values.day, orderNo: values.order, json: values.json ?? false };
  }
  throw new UsageError(`unknown command "${command ?? ''}"`);
}

/** The sections as text (or JSON lines); 1 when a check found a discrepancy. */
function printReport(sections: ReconcileSection[], json: boolean): number {
  const bad = sections.filter((s) => s.check && s.rows.length > 0);
  if (json) {
    console.log(JSON.stringify({ ok: bad.length === 0, sections }));
  } else {
    for (const s of sections) {
      if (s.check) {
        console.log(`${s.rows.length === 0 ? 'ok  ' : 'FAIL'}  ${s.title}`);
        for (const row of s.rows) console.log(`        ${JSON.stringify(row)}`);
      } else {
        console.log(`\n${s.title}: ${s.rows.length === 0 ? 'none' : s.rows.length}`);
        for (const row of s.rows) console.log(`  ${JSON.stringify(row)}`);
      }
    }
    console.log(
      bad.length === 0
        ? '\nreconcile: the ledger balances'
        : `\nreconcile: ${bad.length} checks found discrepancies`,
    );
  }
  return bad.length === 0 ? 0 : 1;
}

async function main(): Promise<number> {
  let args: Command;
  try {
    args = parse(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`data: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (args.command === 'help') {
    console.log(USAGE);
    return 0;
  }
  const tool = args.command;
  const url = process.env.DATABASE_URL?.trim();
  const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
  if (url) {
    if (args.command !== 'reconcile') {
      console.error(
        `${tool}: DATABASE_URL is set: back PostgreSQL up with pg_dump and restore with pg_restore (docs/operations.md, "Backups")`,
      );
      return 2;
    }
    return reconcileOn({ kind: 'postgres', url }, args);
  }
  if (args.command !== 'restore' && !hasPgliteDatabase(dataDir)) {
    console.error(`${tool}: no database in ${dataDir}: set DATA_DIR to the server's data directory`);
    return 1;
  }
  let release: (() => Promise<void>) | undefined;
  try {
    release = await lockDataDir(dataDir);
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    if (args.command === 'restore') {
      console.error(`restore: a server holds ${dataDir}: stop it first, then restore and start it again`);
      return 1;
    }
    return byServer(dataDir, args);
  }
  try {
    if (args.command === 'backup') {
      const done = await dumpPgliteDataDir(dataDir, args.file);
      console.log(`backup: ${done.file} (${done.bytes} bytes) from ${dataDir}, the server stopped`);
      return 0;
    }
    if (args.command === 'restore') {
      const done = await restorePglite(dataDir, args.file);
      console.log(
        `restore: ${dataDir}/pglite is now the backup ${args.file} (${done.users} accounts)` +
          (done.kept ? `; the database it replaced is kept in ${done.kept}` : ''),
      );
      return 0;
    }
    return await reconcileOn({ kind: 'pglite', dataDir }, args);
  } catch (err) {
    if (!(err instanceof BackupRefused)) throw err;
    console.error(`${tool}: ${err.message}`);
    return 1;
  } finally {
    await release?.();
  }
}

async function reconcileOn(target: DatabaseTarget, args: Extract<Command, { command: 'reconcile' }>) {
  const opened = await openDatabase(target);
  try {
    return printReport(await reconcile(opened.db, { day: args.day, orderNo: args.orderNo }), args.json);
  } finally {
    await opened.close();
  }
}

/** Backup or reconcile, done by the server that holds DATA_DIR (src/control-socket.ts). */
async function byServer(
  dataDir: string,
  args: Extract<Command, { command: 'backup' }> | Extract<Command, { command: 'reconcile' }>,
): Promise<number> {
  if (args.command === 'backup') {
    const answer = await throughServer('backup', dataDir, 'data.backup', { file: args.file });
    if (!answer) return 1;
    const done = answer.result as { file: string; bytes: number };
    console.log(`backup: ${done.file} (${done.bytes} bytes), taken by the running server`);
    return 0;
  }
  const answer = await throughServer('reconcile', dataDir, 'data.reconcile', {
    day: args.day,
    orderNo: args.orderNo,
  });
  if (!answer) return 1;
  return printReport(answer.result as ReconcileSection[], args.json);
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
