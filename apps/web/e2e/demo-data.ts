import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ownPort, startOwnServer } from './own-server.ts';

/**
 * Global setup: one data directory with the demo library, made by the built server as `npm start` makes it (started
 * once on an empty directory, then stopped), which every spec's own server starts from a copy of (own-server.ts).
 * The teardown it returns removes it.
 */
export default async function makeDemoData() {
  const work = mkdtempSync(path.join(tmpdir(), 'yueman-e2e-demo-'));
  const dataDir = path.join(work, 'data');
  const server = await startOwnServer({ port: ownPort(40), name: 'demo', dataDir, timeoutMs: 240_000 });
  await server.stop();
  process.env.E2E_DEMO_DATA_DIR = dataDir;
  return () => rmSync(work, { recursive: true, force: true });
}
