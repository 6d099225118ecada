// A command-line tool of the server (apps/server/src/cli) run as `npm run …` runs it: its exit code and its output.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');

/** Runs `apps/server/src/cli/<name>.ts` with `args`; DATABASE_URL is unset unless `env` sets it. */
export function runCli(name: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, `apps/server/src/cli/${name}.ts`), ...args],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => resolve({ code, out }));
  });
}
