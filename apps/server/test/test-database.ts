// One migrated database per caller, empty or with the demo library, on the driver the vitest project asks for
// (TEST_DB); each is a copy of a template the project's globalSetup made (pglite-templates.ts, pg-cluster.ts).
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { describe, inject } from 'vitest';
import { type OpenedDatabase, openDatabase } from '../src/db/client.ts';
import { pgTemplates } from './pg-cluster.ts';
import type {} from './pglite-templates.ts';

export type TestDatabase = OpenedDatabase & { url?: string };

function readKind(): OpenedDatabase['driver'] {
  const kind = process.env.TEST_DB ?? 'pglite';
  if (kind !== 'pglite' && kind !== 'postgres') {
    throw new Error(`TEST_DB must be 'pglite' or 'postgres', not '${kind}'`);
  }
  return kind;
}

/** The driver this test run uses: 'pglite' (default) or 'postgres'. */
export const dbKind = readKind();

/** Admin url of the test cluster; empty in the PGlite project or when PostgreSQL is missing. */
export const pgUrl: string = dbKind === 'postgres' ? (inject('pgUrl') ?? '') : '';

/** False only in the postgres project on a machine without PostgreSQL (never in CI: setup fails there). */
export const dbAvailable = dbKind === 'pglite' || pgUrl !== '';

/** describe() that skips itself when the test database cannot be had. */
export const describeDb = describe.skipIf(!dbAvailable);

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

// A test file's copies of the PGlite templates, read once (vitest gives each file its own modules).
const pgliteTemplates: Partial<Record<'empty' | 'demo', Promise<Blob>>> = {};
const pgliteTemplate = (kind: 'empty' | 'demo') =>
  (pgliteTemplates[kind] ??= readFile(inject('pgliteTemplates')[kind]).then((bytes) => new Blob([bytes])));

/**
 * A fresh migrated database, empty or with the demo library seeded (`demo`); close() releases it (and drops it on
 * PostgreSQL).
 */
export async function createTestDatabase({ demo = false }: { demo?: boolean } = {}): Promise<TestDatabase> {
  const template = demo ? 'demo' : 'empty';
  if (dbKind === 'pglite')
    return openDatabase({ kind: 'pglite-memory', from: await pgliteTemplate(template) });
  if (!pgUrl) {
    throw new Error('No PostgreSQL test cluster: run in the server-postgres project, or use describeDb');
  }

  const name = `t_${randomBytes(6).toString('hex')}`;
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${pgTemplates[template]}"`));
  const drop = () => admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));

  let opened: OpenedDatabase;
  try {
    opened = await openDatabase({
      kind: 'postgres',
      url: url.href,
      // DROP DATABASE ... WITH (FORCE) below terminates connections the pool may still be closing (57P01).
      onPoolError: (err) => {
        if ((err as { code?: string }).code !== '57P01') console.error('test database connection lost', err);
      },
    });
  } catch (error) {
    await drop().catch(() => undefined);
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    ...opened,
    url: url.href,
    close() {
      closing ??= opened.close().finally(drop);
      return closing;
    },
  };
}
