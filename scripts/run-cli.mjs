// `npm run operator -- …` and `npm run import -- …`: the command-line tool built beside the server
// (apps/server/dist/<name>-cli.js), rebuilt first when a source is newer, as `npm start` does. Its exit code is ours.
// On a Node older than package.json's `engines` it says which version it needs and stops, as `npm start` does.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireNode } from './node-version.mjs';
import { stale } from './stale.mjs';

requireNode();

const root = fileURLToPath(new URL('..', import.meta.url));
const [name, ...args] = process.argv.slice(2);
const { buildServer, serverOut, serverSources, cliEntries } = await import('./build-server.mjs');
if (!(`${name}-cli` in cliEntries)) {
  console.error(`run-cli: no tool "${name}" (${Object.keys(cliEntries).join(', ')})`);
  process.exit(2);
}
const built = path.join(serverOut, `${name}-cli.js`);
if (!existsSync(built) || stale(path.join(serverOut, 'main.js'), serverSources)) {
  try {
    await buildServer({ quiet: true });
  } catch (err) {
    if (!err?.errors) console.error(err); // esbuild has already printed its own errors
    process.exit(1);
  }
}
const child = spawn(process.execPath, ['--enable-source-maps', built, ...args], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
