import cluster from 'node:cluster';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { type ControlCommand, openControlSocket } from './control-socket.ts';
import { BackupRefused, dumpPglite, pgliteOf } from './db/backup.ts';
import { type Database, openDatabase } from './db/client.ts';
import { createPrivateDir, DataDirLockedError, lockDataDir } from './db/data-dir-lock.ts';
import { reconcile } from './db/reconcile.ts';
import * as importer from './modules/importer/index.ts';
import { operatorCommands } from './modules/operators/index.ts';
import { createDiskGuard } from './shared/disk-space.ts';
import { AppError } from './shared/errors.ts';
import { loggerOptions } from './shared/logging.ts';
import { runWorkers } from './workers.ts';

/** After DRAIN_SECONDS, how long closing the jobs and the database may take before the process exits anyway. */
const STOP_GRACE_SECONDS = 10;

// Until the configuration is read (which names a bad LOG_LEVEL), a level pino knows.
const givenLevel = process.env.LOG_LEVEL ?? 'info';
const log = pino(
  loggerOptions(givenLevel in pino.levels.values || givenLevel === 'silent' ? givenLevel : 'info'),
);

async function main() {
  const startedAt = performance.now();
  // Everything this process creates is its user's alone: the embedded database writes its files 0666 (mode less
  // umask), the keys, the image cache and the uploads would follow the inherited umask (docs/security.md).
  process.umask(0o077);
  // In a primary of several workers, this also makes the generated keys in the data directory once, before any
  // worker reads them.
  const config = loadConfig();
  // With PostgreSQL every worker is a whole server. The embedded database is one process's: that server is the only
  // one (docs/scaling.md says when a site outgrows it and what to put in front).
  if (cluster.isPrimary && config.webConcurrency > 1 && config.databaseUrl) {
    // Each worker logs its own readiness; this line says the whole port is served (a test waits for it).
    return runWorkers(config.webConcurrency, log, {
      onListening: () => log.info({ workers: config.webConcurrency }, 'every server process is listening'),
    });
  }
  if (!config.databaseUrl && Number(process.env.WEB_CONCURRENCY) > 1)
    log.warn('WEB_CONCURRENCY is for PostgreSQL: with the embedded database this server is one process');
  // The lock guards the embedded database and the image cache, which live in the data directory.
  await createPrivateDir(config.dataDir);
  const release = config.databaseUrl ? null : await lockDataDir(config.dataDir, { waitMs: 65_000 });
  // The embedded database must never meet a full disk (PGlite can hang in its WAL flush for good): below the
  // margin, writes are refused (shared/disk-space.ts).
  const diskGuard =
    config.databaseUrl || config.diskMarginBytes === 0
      ? undefined
      : createDiskGuard({ dir: config.dataDir, marginBytes: config.diskMarginBytes, log });
  await diskGuard?.start();
  const database = await openDatabase(
    config.databaseUrl
      ? {
          kind: 'postgres',
          url: config.databaseUrl,
          // The request that held the connection answered an error; the pool opens a new one on next use.
          onPoolError: (err) =>
            log.warn(
              { code: (err as { code?: string }).code, error: err.message },
              'PostgreSQL connection lost',
            ),
        }
      : { kind: 'pglite', dataDir: config.dataDir },
  );
  // The demo generator is loaded only when the demo library is on: a production server never runs its code.
  const demo = config.demoLibrary ? await import('./seed/index.ts') : undefined;
  if (demo) {
    const { seeded } = await demo.seedDemoLibrary(database.db);
    if (seeded) log.info('demo library created');
  }
  const app = await buildApp({
    config,
    db: database.db,
    logger: loggerOptions(config.logLevel),
    demoDrawer: demo?.demoDrawer,
    diskGuard,
  });
  // With the embedded database, `npm run operator` reaches this server through its control socket.
  const control = config.databaseUrl
    ? undefined
    : await openControlSocket(config.dataDir, controlCommands(database.db, app), isRefusal);
  if (!config.databaseUrl && !control)
    log.warn(
      'DATA_DIR is too long a path for the control socket: `npm run operator` needs the server stopped',
    );
  // app.close(): /readyz answers 503 at once, the port stops accepting, idle keep-alive connections close, and
  // requests in flight finish (their connections close after the answer); then the background jobs stop (a pass in
  // progress finishes). Requests still running after DRAIN_SECONDS lose their connections.
  const closeAll = async () => {
    log.info({ drainSeconds: config.drainSeconds }, 'shutting down: draining');
    // A database call that never ends (a stuck disk) must not keep the process: it exits 1 after a deadline.
    setTimeout(
      () => {
        log.error({ seconds: config.drainSeconds + STOP_GRACE_SECONDS }, 'shutdown did not finish: exiting');
        process.exit(1);
      },
      (config.drainSeconds + STOP_GRACE_SECONDS) * 1000,
    ).unref();
    const bound = setTimeout(() => {
      log.warn({ drainSeconds: config.drainSeconds }, 'requests still in flight: closing their connections');
      app.server.closeAllConnections();
    }, config.drainSeconds * 1000);
    control?.close();
    await app.close();
    clearTimeout(bound);
    await database.close();
    await release?.();
    log.info('stopped');
  };
  const operators = await app.ports.operators.count();
  const ready = () => {
    log.info(
      { driver: database.driver, dataDir: config.dataDir, ms: Math.round(performance.now() - startedAt) },
      // The bare domain is the spec's placeholder (网站建设中): readers start at /home.
      `阅漫 is ready: readers start at ${config.publicOrigin}/home, the console is at ${config.publicOrigin}/admin/`,
    );
    if (operators === 0) {
      const how = config.databaseUrl ? '' : ' (this server does it)';
      log.info(
        `no console operator yet: create the first with \`npm run operator -- add NAME --role owner\`${how}, then sign in at ${config.publicOrigin}/admin/`,
      );
    }
  };

  // Before listening: a SIGTERM that arrives as soon as the port answers still closes cleanly.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stop requested');
    closeAll().then(
      () => process.exit(0),
      (err) => {
        log.fatal({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // The sandbox's notifier, the order sweeper and the session sweeper run in this process; app.close() stops them.
  app.jobs.start();
  ready();
}

/**
 * The commands the control socket takes (`npm run operator`, `npm run import` while this server holds the embedded
 * database): the same code as the console's calls, audited as the command line's.
 */
function controlCommands(db: Database, app: FastifyInstance): Record<string, ControlCommand> {
  const operators = operatorCommands(db);
  return {
    'operator.add': (args) => operators.add(String(args.name ?? ''), String(args.role ?? '')),
    'operator.passwd': async (args) => ({ password: await operators.passwd(String(args.name ?? '')) }),
    // The console's upload runs the same import (the importer's importFrom), audited as the command line's.
    import(args) {
      const { source, options } = args as { source: string; options: importer.ImportOptions };
      return app.ports.importer.importFrom({
        source: String(source),
        options: options ?? {},
        by: { operatorId: null, actor: 'cli' },
      });
    },
    // `npm run backup` and `npm run reconcile` while this server holds the embedded database (db/backup.ts).
    'data.backup': async (args) => {
      const client = pgliteOf(db);
      if (!client) throw new BackupRefused('this server runs on PostgreSQL: back it up with pg_dump');
      const done = await dumpPglite(client, String(args.file ?? ''));
      log.info({ bytes: done.bytes }, 'backup taken through the control socket');
      return done;
    },
    'data.reconcile': (args) =>
      reconcile(db, {
        day: typeof args.day === 'string' ? args.day : undefined,
        orderNo: typeof args.orderNo === 'string' ? args.orderNo : undefined,
      }),
  };
}

/** What the control socket's caller is told as is: refusals and bad input; anything else stays in this log. */
const isRefusal = (err: unknown): err is Error =>
  err instanceof AppError ||
  err instanceof BackupRefused ||
  err instanceof importer.ImportRefused ||
  err instanceof importer.UnreadablePage ||
  err instanceof importer.ImportSourceError;

/** What to tell the operator when PostgreSQL refuses the start (the URL itself holds a password: never logged). */
function databaseUnreachable(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (!process.env.DATABASE_URL?.trim() || typeof code !== 'string') return undefined;
  let name = '';
  try {
    name = decodeURIComponent(new URL(process.env.DATABASE_URL.trim()).pathname.slice(1));
  } catch {
    // The configuration check names a malformed URL.
  }
  switch (code) {
    case '3D000':
      return `the database "${name}" named in DATABASE_URL does not exist on that PostgreSQL server: create it (createdb ${name || 'NAME'}, owned by the URL's user) or correct DATABASE_URL`;
    case '28P01':
    case '28000':
      return 'PostgreSQL refused the user or password of DATABASE_URL';
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
      return `the PostgreSQL server of DATABASE_URL cannot be reached (${code}): is it running, and are its host and port right?`;
    default:
      return undefined;
  }
}

main().catch((err) => {
  const unreachable = databaseUnreachable(err);
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    log.fatal(err.message);
  } else if (unreachable) {
    log.fatal({ code: (err as { code?: string }).code }, unreachable);
  } else {
    log.fatal({ err }, 'failed to start');
  }
  process.exit(1);
});
