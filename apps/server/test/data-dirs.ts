// Data directories for the tests that run the server or a command-line tool as a process of its own. On an empty
// DATA_DIR the embedded database's first open runs PGlite's initdb and every migration: 7–12 s per directory on a
// loaded 2-core machine, and a CLI test opens several. Only the tests of a first start (fresh-start.test.ts,
// startup-errors.test.ts, main.test.ts) need that; the others begin where a second start would, from a copy of a
// migrated database (empty, or with the demo library) that pglite-templates.ts wrote out once per run.
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { pgliteDir } from '../src/db/backup.ts';
import type {} from './pglite-templates.ts';

/**
 * Puts a copy of the migrated database, `empty` or `demo`, into `dataDir` (made if missing), as a server's first start
 * on it would leave it; in the PostgreSQL project, where servers keep their database elsewhere, it does nothing.
 */
export async function putDatabase(dataDir: string, database: 'empty' | 'demo' = 'empty') {
  const folders = inject('pgliteFolders');
  if (folders) await cp(folders[database], pgliteDir(dataDir), { recursive: true });
}

/**
 * A new data directory under the system's temporary directory (`yueman-<name>-…`). In the PGlite project it already
 * holds the migrated database, `empty` or `demo` (a server started on it with DEMO_LIBRARY=true finds its library
 * there); on PostgreSQL, where the database is elsewhere, it is empty.
 */
export async function newDataDir(name: string, database: 'empty' | 'demo' = 'empty'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), `yueman-${name}-`));
  await putDatabase(dir, database);
  return dir;
}
