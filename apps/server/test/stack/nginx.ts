// nginx balancing the cluster test's servers, with the configuration operators use (deploy/nginx.conf.template),
// rendered for loopback ports and wrapped in a main configuration that keeps every file in a temp folder.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../server-process.ts';

const root = path.resolve(import.meta.dirname, '../../../..');
export const TEMPLATE = path.join(root, 'deploy/nginx.conf.template');

export function findNginx(): string {
  for (const candidate of [process.env.NGINX, '/usr/sbin/nginx', '/usr/local/sbin/nginx']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  throw new Error('nginx not found: apt-get install -y nginx-light (or set NGINX)');
}

/** The template with its two variables filled in, as the nginx container's envsubst does. */
export async function renderSite(servers: string[], listen: string) {
  const template = await readFile(TEMPLATE, 'utf8');
  const upstreams = servers.map((s) => `server ${s} max_fails=1 fail_timeout=5s;`).join('\n  ');
  // The template's placeholders are envsubst's ${NAME}, not JavaScript's.
  const placeholder = (name: string) => `\${${name}}`;
  return template
    .replace(placeholder('YUEMAN_SERVERS'), upstreams)
    .replace(placeholder('NGINX_LISTEN'), listen);
}

export interface Balancer {
  base: string;
  stop(): Promise<void>;
}

/** nginx on 127.0.0.1:`port` (a free one when not given) in front of `servers` ("127.0.0.1:port"). */
export async function startBalancer(servers: string[], port?: number): Promise<Balancer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'yueman-nginx-'));
  port ??= await freePort();
  const site = await renderSite(servers, `127.0.0.1:${port}`);
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  const main = [
    process.getuid?.() === 0 ? 'user root;' : '',
    'daemon off;',
    'worker_processes 1;',
    `pid ${path.join(dir, 'nginx.pid')};`,
    `error_log ${path.join(dir, 'error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    `  access_log ${path.join(dir, 'access.log')};`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${temp(t)}`),
    site,
    '}',
  ].join('\n');
  const file = path.join(dir, 'nginx.conf');
  await writeFile(file, main);
  const child: ChildProcess = spawn(findNginx(), ['-c', file, '-p', dir], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`nginx exited: ${await readFile(path.join(dir, 'error.log'), 'utf8')}`);
    const up = await fetch(`${base}/healthz`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error('nginx did not answer in 15 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    async stop() {
      child.kill('SIGQUIT');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
