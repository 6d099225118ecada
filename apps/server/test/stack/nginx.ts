// nginx in front of the cluster test's servers, with the site operators use (deploy/nginx/yueman.conf.template),
// rendered for loopback ports, a self-signed certificate made here with openssl and a cache in a temp folder, and
// wrapped in a main configuration that keeps every file in that folder.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as tls from 'node:tls';
import { promisify } from 'node:util';
import { freePort } from '../server-process.ts';

/** Node 24's tls.getCACertificates / setDefaultCACertificates (typed here while @types/node is older). */
const caStore = tls as unknown as {
  getCACertificates(type: 'default'): string[];
  setDefaultCACertificates(certs: string[]): void;
};

const root = path.resolve(import.meta.dirname, '../../../..');
export const TEMPLATE = path.join(root, 'deploy/nginx/yueman.conf.template');

export function findNginx(): string {
  for (const candidate of [process.env.NGINX, '/usr/sbin/nginx', '/usr/local/sbin/nginx']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  throw new Error('nginx not found: apt-get install -y nginx-light (or set NGINX)');
}

export interface SiteSettings {
  /** "127.0.0.1:port" of each server. */
  servers: string[];
  listen: string;
  httpListen: string;
  cert: string;
  key: string;
  cacheDir: string;
}

/** The template with its variables filled in, as the nginx container's envsubst does. */
export async function renderSite(s: SiteSettings): Promise<string> {
  const template = await readFile(TEMPLATE, 'utf8');
  const values: Record<string, string> = {
    YUEMAN_SERVERS: s.servers.map((server) => `server ${server} max_fails=1 fail_timeout=5s;`).join('\n  '),
    NGINX_LISTEN: s.listen,
    NGINX_HTTP_LISTEN: s.httpListen,
    TLS_CERT: s.cert,
    TLS_KEY: s.key,
    NGINX_CACHE_DIR: s.cacheDir,
  };
  // The template's placeholders are envsubst's ${NAME}; nginx's own $name stay.
  const rendered = template.replace(/\$\{([A-Z_]+)\}/g, (whole, name: string) => values[name] ?? whole);
  const left = /\$\{[A-Z_]+\}/.exec(rendered);
  if (left) throw new Error(`deploy/nginx/yueman.conf.template: ${left[0]} is not filled in`);
  return rendered;
}

/** A self-signed certificate for 127.0.0.1, in `dir`: its files and its PEM text. */
export async function selfSignedCertificate(dir: string) {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  await promisify(execFile)('openssl', [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1'],
    ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
    ...['-keyout', key, '-out', cert],
  ]);
  return { cert, key, pem: await readFile(cert, 'utf8') };
}

export interface Balancer {
  /** https://127.0.0.1:<port>: the public origin. */
  base: string;
  /** http://127.0.0.1:<port>: the plain port, which only redirects. */
  httpBase: string;
  /** The access log so far: one line per request, `<status> <cache status> <method> <uri>`. */
  accessLog(): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * nginx on 127.0.0.1:`port` (TLS; a free one when not given) in front of `servers` ("127.0.0.1:port"). This process's
 * fetch trusts its certificate from then on (tls.setDefaultCACertificates), as a phone trusts a real one.
 */
export async function startBalancer(servers: string[], port?: number): Promise<Balancer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'yueman-nginx-'));
  port ??= await freePort();
  const httpPort = await freePort();
  const { cert, key, pem } = await selfSignedCertificate(dir);
  caStore.setDefaultCACertificates([...caStore.getCACertificates('default'), pem]);
  const site = await renderSite({
    servers,
    listen: `127.0.0.1:${port}`,
    httpListen: `127.0.0.1:${httpPort}`,
    cert,
    key,
    cacheDir: path.join(dir, 'cache'),
  });
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  const accessLog = path.join(dir, 'access.log');
  const main = [
    process.getuid?.() === 0 ? 'user root;' : '',
    'daemon off;',
    'worker_processes 1;',
    `pid ${path.join(dir, 'nginx.pid')};`,
    `error_log ${path.join(dir, 'error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    `  log_format yueman '$status $upstream_cache_status $request_method $request_uri';`,
    `  access_log ${accessLog} yueman;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${temp(t)}`),
    site,
    '}',
  ].join('\n');
  const file = path.join(dir, 'nginx.conf');
  await writeFile(file, main);
  const child: ChildProcess = spawn(findNginx(), ['-c', file, '-p', dir], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `https://127.0.0.1:${port}`;
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
    httpBase: `http://127.0.0.1:${httpPort}`,
    accessLog: async () => (await readFile(accessLog, 'utf8').catch(() => '')).split('\n').filter(Boolean),
    async stop() {
      child.kill('SIGQUIT');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
