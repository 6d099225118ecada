// A command-line tool of the server run as `npm run …` runs it, from the build (apps/server/dist/<name>.js, made by
// `npm run build` before the tests, as for the server itself): its exit code and its output.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');

/** The built tool (`operator-cli`, `import-cli`). */
export const builtCli = (name: string) => path.join(root, `apps/server/dist/${name}.js`);

/** Runs the built `<name>` with `args`; DATABASE_URL is unset unless `env` sets it. */
export function runCli(name: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [builtCli(name), ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
