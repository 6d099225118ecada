// `npm start`: build the web app, the operators' console and the server when their sources are newer than their
// builds, then run the built server (node apps/server/dist/main.js). `npm run dev`: the two apps' builds as above,
// and the server's TypeScript through `tsx watch`, restarting on change. On a Node older than package.json's
// `engines` it says in one line which version it needs and stops (node-version.mjs).

import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withServerMemoryEnv } from './memory-env.mjs';
import { requireNode } from './node-version.mjs';
import { stale } from './stale.mjs';

requireNode();

const root = fileURLToPath(new URL('..', import.meta.url));
const web = path.join(root, 'apps/web');
const webBuilt = path.join(web, 'dist/index.html');
const admin = path.join(root, 'apps/admin');
const adminBuilt = path.join(admin, 'dist/index.html');
const serverBuilt = path.join(root, 'apps/server/dist/main.js');

for (const [name, built, dir, workspace] of [
  ['the web app', webBuilt, web, 'apps/web'],
  ["the operators' console", adminBuilt, admin, 'apps/admin'],
]) {
  if (!stale(built, [dir])) continue;
  console.log(`building ${name} ...`);
  const r = spawnSync('npm', ['run', 'build', '-w', workspace], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const dev = process.argv.includes('--dev');
let command;
let args;
if (dev) {
  command = path.join(root, 'node_modules/.bin/tsx');
  args = ['watch', path.join(root, 'apps/server/src/main.ts')];
} else {
  const { buildServer, serverSources } = await import('./build-server.mjs');
  if (stale(serverBuilt, serverSources)) {
    console.log('building the server ...');
    try {
      await buildServer();
    } catch (err) {
      if (!err?.errors) console.error(err); // esbuild has already printed its own errors
      process.exit(1);
    }
  }
  command = process.execPath;
  args = ['--enable-source-maps', serverBuilt];
}

// The server's memory settings (memory-env.mjs): glibc reads them when the process starts.
const server = spawn(command, args, { cwd: root, stdio: 'inherit', env: withServerMemoryEnv(process.env) });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
