import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type APIRequestContext, expect } from '@playwright/test';

const run = promisify(execFile);
const root = new URL('../../..', import.meta.url).pathname;

/**
 * An editor made beside a running server with the operator CLI (`npm run operator -- add`, through the server's
 * control socket in `dataDir`, as in production), signed in to the console on `request`: posts a console call.
 */
export async function signedInEditor(request: APIRequestContext, origin: string, dataDir: string) {
  const name = `editor${Date.now().toString(36)}`;
  const { stdout, stderr } = await run(
    'npm',
    ['run', '--silent', 'operator', '--', 'add', name, '--role', 'editor'],
    { cwd: root, env: { ...process.env, DATA_DIR: dataDir }, timeout: 120_000 },
  );
  const password = /password: (\S+)/.exec(`${stdout}\n${stderr}`)?.[1];
  if (!password) throw new Error(`npm run operator printed no password:\n${stdout}\n${stderr}`);
  const login = await request.post(`${origin}/api/admin/login`, {
    headers: { origin },
    data: { name, password },
  });
  expect(login.ok()).toBe(true);
  return (url: string, data: object) => request.post(`${origin}${url}`, { headers: { origin }, data });
}
