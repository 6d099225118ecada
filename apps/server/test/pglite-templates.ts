// Vitest globalSetup of the server-pglite project: the two databases every test starts from, made once per run and
// dumped to files (PGlite's dumpDataDir): one migrated and empty, one with the demo library seeded too. A test's
// database loads a copy (test-database.ts) in a second or so, where a new PGlite runs initdb and the migrations,
// several seconds on a loaded 2-core machine, for each of some hundred databases a run makes. Each is also written
// out as the `pglite` folder of a data directory, for the tests that start the server or a tool as a process
// (data-dirs.ts): a copy of the folder is what a second start finds.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { pgliteOf } from '../src/db/backup.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { seedDemoLibrary } from '../src/seed/index.ts';
import { testLibrary } from './test-library.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Files of the dumped PGlite data directories: migrated and empty, and with the demo library. */
    pgliteTemplates: { empty: string; demo: string };
    /** The same databases as folders PGlite opens (a data directory's `pglite`), to copy. */
    pgliteFolders: { empty: string; demo: string };
  }
}

/** The data directory of an open PGlite database, as PGlite dumps it (a tar, uncompressed: loads faster). */
async function dump(db: Database): Promise<Buffer> {
  const blob = await (pgliteOf(db) as NonNullable<ReturnType<typeof pgliteOf>>).dumpDataDir('none');
  return Buffer.from(await blob.arrayBuffer());
}

/**
 * Writes a dumped database out as a folder PGlite opens. Its files' modes need no care here: every open of a data
 * directory's database (db/client.ts, openDatabase) makes them its owner's alone first.
 */
async function unpack(file: string, folder: string) {
  const client = new PGlite({ dataDir: folder, loadDataDir: new Blob([await readFile(file)]) });
  await client.waitReady;
  await client.close();
}

export default async function setup(project: TestProject) {
  const started = performance.now();
  const dir = await mkdtemp(path.join(tmpdir(), 'yueman-pglite-templates-'));
  const files = { empty: path.join(dir, 'empty.tar'), demo: path.join(dir, 'demo.tar') };
  const { db, close } = await openDatabase({ kind: 'pglite-memory' });
  try {
    await writeFile(files.empty, await dump(db));
    await seedDemoLibrary(db, testLibrary());
    await writeFile(files.demo, await dump(db));
  } finally {
    await close();
  }
  const folders = { empty: path.join(dir, 'empty-pglite'), demo: path.join(dir, 'demo-pglite') };
  await unpack(files.empty, folders.empty);
  await unpack(files.demo, folders.demo);
  project.provide('pgliteTemplates', files);
  project.provide('pgliteFolders', folders);
  console.log(`PGlite template databases made in ${Math.round(performance.now() - started)} ms`);
  return () => rm(dir, { recursive: true, force: true });
}
