// Whether a build is older than its sources: `npm start` and the benchmarks rebuild only then.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The newest modification time under a file or folder. */
function newest(file) {
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let t = stat.mtimeMs; // a deleted file shows only as its folder's change
  for (const entry of readdirSync(file, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'e2e') continue;
    t = Math.max(t, newest(path.join(file, entry.name)));
  }
  return t;
}
/** True when `built` is missing or any file under `sources` is newer. */
export const stale = (built, sources) =>
  !existsSync(built) || Math.max(...sources.map(newest)) > statSync(built).mtimeMs;
