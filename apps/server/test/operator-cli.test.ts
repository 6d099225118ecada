// `npm run operator` as a reader of the README runs it: with no server (it opens the database itself, PGlite or
// PostgreSQL), and beside a running server on the embedded database (the server does it, through its control socket
// in DATA_DIR). Either way the printed password signs in, and the audit log says the command line did it.
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { auditLog, operators } from '../src/db/schema/index.ts';
import { runCli } from './cli-process.ts';
import { newDataDir } from './data-dirs.ts';
import { childrenOf } from './processes.ts';
import { freePort, type ServerProcess, startServer } from './server-process.ts';
import { createTestDatabase, dbKind, type TestDatabase } from './test-database.ts';

const operatorCli = (args: string[], env: Record<string, string>) => runCli('operator-cli', args, env);

const passwordIn = (out: string) => /password: (\S+)/.exec(out)?.[1] as string;

describe('npm run operator with no server running', () => {
  let dataDir: string;
  let pg: TestDatabase | undefined;
  beforeAll(async () => {
    dataDir = await newDataDir('operator-cli');
    if (dbKind === 'postgres') pg = await createTestDatabase();
  });
  afterAll(async () => {
    await pg?.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const env = () => ({ DATA_DIR: dataDir, ...(pg?.url ? { DATABASE_URL: pg.url } : {}) });

  it('adds an operator and rotates the password, printing each once; refuses bad input clearly', async () => {
    // The server made its database there before, as a first start does (newDataDir holds it).
    const added = await operatorCli(['add', 'boss', '--role', 'owner'], env());
    expect(added.code, added.out).toBe(0);
    expect(passwordIn(added.out)).toMatch(/^[2-9a-zA-Z]{16}$/);
    const rotated = await operatorCli(['passwd', 'boss'], env());
    expect(rotated.code, rotated.out).toBe(0);
    expect(passwordIn(rotated.out)).not.toBe(passwordIn(added.out));

    const refused = [
      [['add', 'boss', '--role', 'owner'], /该用户名已存在/],
      [['add', 'x y', '--role', 'owner'], /用户名须为/],
      [['add', 'clerk', '--role', 'root'], /角色须为/],
      [['passwd', 'nobody'], /操作员不存在/],
    ] as const;
    for (const [args, message] of refused) {
      const res = await operatorCli([...args], env());
      expect(res.code, res.out).toBe(1);
      expect(res.out).toMatch(message);
    }
    expect((await operatorCli(['add', 'clerk'], env())).code).toBe(2);
    expect((await operatorCli(['remove', 'boss'], env())).code).toBe(2);

    const opened = await openDatabase(
      pg?.url ? { kind: 'postgres', url: pg.url } : { kind: 'pglite', dataDir },
    );
    try {
      expect(await opened.db.select({ name: operators.name, role: operators.role }).from(operators)).toEqual([
        { name: 'boss', role: 'owner' },
      ]);
      const audit = await opened.db.select().from(auditLog).orderBy(auditLog.id);
      expect(audit.map((a) => [a.actor, a.action])).toEqual([
        ['cli', 'operator.add'],
        ['cli', 'operator.password'],
      ]);
      expect(JSON.stringify(audit)).not.toMatch(/argon2|passwordHash/);
    } finally {
      await opened.close();
    }
    // Each run of the built tool opens the database and migrates it: seconds each (tens on a loaded machine).
  }, 300_000);
});

describe.skipIf(dbKind === 'postgres')('npm run operator where no database is', () => {
  let parent: string;
  beforeAll(async () => {
    parent = await mkdtemp(path.join(tmpdir(), 'yueman-operator-none-'));
  });
  afterAll(() => rm(parent, { recursive: true, force: true }));

  it('says there is no database at DATA_DIR and stops, creating nothing', async () => {
    for (const dataDir of [path.join(parent, 'data'), parent]) {
      const res = await operatorCli(['add', 'boss', '--role', 'owner'], { DATA_DIR: dataDir });
      expect(res.code, res.out).toBe(1);
      expect(res.out).toContain(`no database in ${dataDir}`);
      expect(res.out).not.toMatch(/password:/);
    }
    // Neither the data directory nor anything in the existing folder was made.
    expect(await readdir(parent)).toEqual([]);
  }, 60_000);
});

describe.skipIf(dbKind === 'postgres')(
  'npm run operator beside a running server on the embedded database',
  () => {
    let dataDir: string;
    let server: ServerProcess | undefined;
    beforeAll(async () => {
      dataDir = await newDataDir('operator-live', 'demo');
      server = await startServer(await freePort(), { DATA_DIR: dataDir, WEB_CONCURRENCY: '2' });
    }, 120_000);
    afterAll(async () => {
      if (server) for (const pid of childrenOf(server.pid)) process.kill(pid, 'SIGKILL');
      server?.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    });

    it('has the server do it through a socket only the data’s owner can open, and the password signs in', async () => {
      const socket = await stat(path.join(dataDir, 'server.sock'));
      expect(socket.mode & 0o777).toBe(0o600);
      const added = await operatorCli(['add', 'boss', '--role', 'owner'], { DATA_DIR: dataDir });
      expect(added.code, added.out).toBe(0);
      expect(added.out).toContain('done by the running server');
      const base = server?.base as string;
      const origin = `http://localhost:${new URL(base).port}`;
      const login = (password: string) =>
        fetch(`${base}/api/admin/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin },
          body: JSON.stringify({ name: 'boss', password }),
        });
      const signedIn = await login(passwordIn(added.out));
      expect(signedIn.status, await signedIn.clone().text()).toBe(200);
      const rotated = await operatorCli(['passwd', 'boss'], { DATA_DIR: dataDir });
      expect(rotated.code, rotated.out).toBe(0);
      expect((await login(passwordIn(added.out))).status).toBe(401);
      expect((await login(passwordIn(rotated.out))).status).toBe(200);
      const taken = await operatorCli(['add', 'boss', '--role', 'editor'], { DATA_DIR: dataDir });
      expect(taken.code).toBe(1);
      expect(taken.out).toMatch(/该用户名已存在/);
    });
  },
);
