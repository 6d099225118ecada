// The whole picture of docs/scaling.md on loopback: PostgreSQL, pgbouncer (transaction pooling), an S3 server, N
// servers running the build `npm start` runs, and nginx balancing them. Everything it starts, stop() stops.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type OpenedDatabase, openDatabase } from '../../src/db/client.ts';
import { startS3, type TestS3 } from '../s3-server.ts';
import { freePort, type ServerProcess, startServer } from '../server-process.ts';
import { type Balancer, startBalancer } from '../stack/nginx.ts';
import { type Pgbouncer, startPgbouncer } from '../stack/pgbouncer.ts';
import { findBinaries, type PostgresCluster, startPostgres } from '../stack/postgres.ts';

export const METRICS_TOKEN = randomBytes(24).toString('hex');

export interface ClusterServer {
  name: string;
  /** http://127.0.0.1:<port>, the server itself (not through the balancer). */
  base: string;
  process: ServerProcess;
  dataDir: string;
}

export interface Stack {
  postgres: PostgresCluster;
  pgbouncer: Pgbouncer;
  s3: TestS3;
  servers: ClusterServer[];
  balancer: Balancer;
  /** A database handle of our own, through pgbouncer, for setting up and checking. */
  db: OpenedDatabase['db'];
  start(server: ClusterServer): Promise<void>;
  stop(): Promise<void>;
}

/** Starts everything; `extraEnv` is given to every server. */
export async function startStack(count: number, extraEnv: Record<string, string> = {}): Promise<Stack> {
  const bin = findBinaries();
  if (!bin) throw new Error('PostgreSQL binaries not found (Debian package postgresql-15)');
  const stoppers: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
  };
  try {
    const postgres = await startPostgres(bin);
    stoppers.push(() => postgres.stop());
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query('create database yueman');
    await admin.end();
    const pgbouncer = await startPgbouncer(postgres.url);
    stoppers.push(() => pgbouncer.stop());
    const databaseUrl = new URL('/yueman', pgbouncer.url).href;
    const s3 = await startS3();
    stoppers.push(() => s3.close());

    const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
    const balancerPort = await freePort();
    // Every server the same: one database, one store, one set of keys, the balancer's origin.
    const env = {
      ...s3.env,
      DATABASE_URL: databaseUrl,
      DATABASE_POOLER: 'pgbouncer',
      PUBLIC_ORIGIN: `https://127.0.0.1:${balancerPort}`,
      TRUST_PROXY: '127.0.0.1',
      COVER_KEY: randomBytes(32).toString('hex'),
      PAGE_GRANT_KEY: randomBytes(32).toString('hex'),
      SANDBOX_PAY_KEY: randomBytes(32).toString('hex'),
      SANDBOX_PAY: 'true',
      METRICS_TOKEN,
      REGISTER_PER_HOUR: '100000',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    };
    const servers: ClusterServer[] = [];
    for (const [i, port] of ports.entries()) {
      const dataDir = await mkdtemp(path.join(tmpdir(), `yueman-cluster-${i}-`));
      stoppers.push(() => rm(dataDir, { recursive: true, force: true }));
      servers.push({
        name: String.fromCharCode(65 + i),
        base: `http://127.0.0.1:${port}`,
        dataDir,
        process: undefined as unknown as ServerProcess,
      });
    }
    const start = async (server: ClusterServer) => {
      const port = Number(new URL(server.base).port);
      // Three first starts at once migrate and draw the demo library: slow on a busy machine.
      server.process = await startServer(port, { ...env, DATA_DIR: server.dataDir }, { readyMs: 240_000 });
    };
    // All at once, as a deployment starts them: they migrate and seed one database, once.
    await Promise.all(servers.map(start));
    stoppers.push(async () => {
      await Promise.all(
        servers.map(async (s) => {
          s.process.kill('SIGKILL');
          await s.process.exited;
        }),
      );
    });
    const balancer = await startBalancer(
      servers.map((s) => new URL(s.base).host),
      balancerPort,
    );
    stoppers.push(() => balancer.stop());
    const own = await openDatabase({ kind: 'postgres', url: databaseUrl });
    stoppers.push(() => own.close());
    return { postgres, pgbouncer, s3, servers, balancer, db: own.db, start, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The sum of a Prometheus counter (every label set) a server reports. */
export async function counter(base: string, name: string, labels = ''): Promise<number> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!res.ok) throw new Error(`/metrics answered ${res.status}`);
  let sum = 0;
  for (const line of (await res.text()).split('\n')) {
    if (!line.startsWith(name) || line.startsWith(`${name}_`)) continue;
    if (labels && !line.includes(labels)) continue;
    sum += Number(line.split(' ').at(-1));
  }
  return sum;
}
