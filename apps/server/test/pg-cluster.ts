// Vitest globalSetup of the server-postgres project: a throwaway PostgreSQL cluster for one test run.
// Tests reach it through inject('pgUrl'); test-database.ts creates one database per caller in it, a copy of one of
// the two template databases made here (CREATE DATABASE … TEMPLATE copies files: far quicker than migrating and
// seeding each one): migrated and empty, and with the demo library seeded too.
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';
import { seedDemoLibrary } from '../src/seed/index.ts';
import { findBinaries, pgRoot, startPostgres } from './stack/postgres.ts';
import { testLibrary } from './test-library.ts';

/** The template databases' names; nothing connects to them after set-up (a template must have no sessions). */
export const pgTemplates = { empty: 'yueman_template_empty', demo: 'yueman_template_demo' } as const;

async function makeTemplates(adminUrl: string) {
  for (const [kind, name] of Object.entries(pgTemplates)) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`).finally(() => admin.end());
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const { db, close } = await openDatabase({ kind: 'postgres', url: url.href, poolSize: 1 });
    try {
      if (kind === 'demo') await seedDemoLibrary(db, testLibrary());
    } finally {
      await close();
    }
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin url of the test cluster; empty when PostgreSQL is missing outside CI. */
    pgUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const bin = findBinaries();
  if (!bin) {
    if (process.env.CI) {
      throw new Error(
        `PostgreSQL binaries not found under ${pgRoot}: CI needs them (Debian package postgresql-15)`,
      );
    }
    console.warn(
      `PostgreSQL binaries not found under ${pgRoot}: the PostgreSQL suite is skipped; the PGlite suite still runs`,
    );
    project.provide('pgUrl', '');
    return;
  }

  const started = performance.now();
  const cluster = await startPostgres(bin);
  // Synchronous so it also works from 'exit' and signal handlers.
  const onSignal = (signal: NodeJS.Signals) => {
    cluster.stopSync();
    process.off(signal, onSignal);
    // Without other listeners, fall back to the default action (exit by the signal).
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.once('exit', cluster.stopSync);

  await makeTemplates(cluster.url);
  project.provide('pgUrl', cluster.url);
  const version = (bin.split('/').at(-2) ?? '').trim();
  console.log(
    `PostgreSQL ${version} test cluster on ${cluster.url} (started in ${Math.round(performance.now() - started)} ms)`,
  );

  return async () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('exit', cluster.stopSync);
    await cluster.stop();
  };
}
