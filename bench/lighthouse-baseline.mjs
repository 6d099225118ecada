// LH_BASELINE=<git ref>: a reference build measured in the same run, beside this one, on the same machine.
//
// Lighthouse's blocking time on a 2-core machine moves with the machine far more than with the page (bench/README.md,
// "A reference build in the same run"): the build of 2026-11-25 that scored 100 / 99 / 100 on its machine scored
// 79 / 79 / 78 on another machine of the same kind three days later. A score alone cannot tell a slower page from a
// busier machine; this build's score beside a fixed reference's, runs interleaved, can.
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './bench-kit.mjs';

/** The reference most figures in bench/README.md are held against: the build of 2026-11-25 (100 / 99 / 100 then). */
export const DEFAULT_BASELINE = 'bc56d83';

const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

/**
 * The reference build's server (its apps/server/dist/main.js, which serves its own web app beside it): a git worktree
 * of the commit in the system's temp folder, installed (`npm ci`) and built (`npm run build`) the first time, reused
 * by later runs (a few minutes the first time; remove it with `git worktree remove <folder>`).
 */
export function baselineServer(ref) {
  const sha = git('rev-parse', '--verify', `${ref}^{commit}`);
  const dir = path.join(os.tmpdir(), `yueman-lh-baseline-${sha.slice(0, 12)}`);
  const main = path.join(dir, 'apps/server/dist/main.js');
  if (existsSync(main)) return { sha, dir, main };
  if (!existsSync(path.join(dir, '.git'))) git('worktree', 'add', '--force', '--detach', dir, sha);
  const log = path.join(dir, 'baseline-build.log');
  console.log(`reference build ${sha.slice(0, 12)}: npm ci and npm run build in ${dir} (log: ${log})`);
  const fd = openSync(log, 'a');
  try {
    for (const args of [
      ['ci', '--no-audit', '--no-fund'],
      ['run', 'build'],
    ])
      execFileSync('npm', args, { cwd: dir, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  if (!existsSync(main)) throw new Error(`the reference build made no ${main} (see ${log})`);
  return { sha, dir, main };
}
