// `npm start`: build the web app when its sources are newer than the build, then run the server.
// `npm run dev`: the same with the server restarting on change.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const web = path.join(root, 'apps/web');
const built = path.join(web, 'dist/index.html');

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'e2e') continue;
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

if (!existsSync(built) || newest(web) > statSync(built).mtimeMs) {
  console.log('building the web app ...');
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const dev = process.argv.includes('--dev');
const args = [...(dev ? ['watch'] : []), path.join(root, 'apps/server/src/main.ts')];
const server = spawn(path.join(root, 'node_modules/.bin/tsx'), args, { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
