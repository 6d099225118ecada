// What the paywall on page images costs: a free page (plain path: the free-page check) and a priced page (granted
// path: the HMAC check), each already resized and cached, against nginx serving the very same bytes. wrk drives
// both (a JavaScript client would be the bottleneck on 2 cores). `node bench/page-images.mjs`; results in
// bench/results/page-images-*.json.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { envNumber, freePort, sleep, tail } from './bench-kit.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = envNumber('BENCH_SECONDS', 8, 1);
const connections = envNumber('BENCH_CONNECTIONS', 32, 1);
const work = mkdtempSync(path.join(tmpdir(), 'yueman-page-images-'));
const children = [];
const stopAll = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('exit', stopAll);

async function startServer() {
  const port = await freePort();
  const log = path.join(work, 'server.log');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(work, 'data'),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = createWriteStream(log);
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return base;
    if (child.exitCode !== null) break;
    await sleep(200);
  }
  throw new Error(`the server did not start:\n${tail(log)}`);
}

/** A VIP reader (paid through the sandbox gateway, over HTTP) and the granted path of a priced VIP-free page. */
async function pagePaths(base) {
  const registered = await fetch(`${base}/api/user/register`, { method: 'POST' });
  const cookie = /sid=[^;]+/.exec(registered.headers.get('set-cookie') ?? '')?.[0] ?? '';
  const call = (url, init = {}) =>
    fetch(`${base}${url}`, { ...init, headers: { cookie } }).then((r) => r.json());
  const recharge = (await call('/api/user/recharge?appType=wap_browser')).data;
  const pack = recharge.payConfigs.find((p) => p.type === 'vip');
  const channel = recharge.subTypes[0];
  const amount = Math.floor((pack.amountLevel * Math.round(channel.discount * 10) + 50) / 100);
  const order = (
    await call(`/api/pay/pay?payChannel=${channel.subTypeCode}&payPurpose=vip&rechargerAmount=${amount}`, {
      method: 'POST',
    })
  ).data;
  await fetch(`${order.payUrl}/confirm`, { method: 'POST', redirect: 'manual' });
  for (let i = 0; i < 100 && (await call('/api/user/info')).data.vipType === 'none'; i++) await sleep(200);

  const free = (await call('/api/book/read_chapter?bookId=1&number=1')).data.bookPics[0];
  for (const { bookId } of (await call('/api/book/query/all/0/1')).data.bookList) {
    const detail = (await call(`/api/book/detail/${bookId}`)).data;
    const priced = detail.chapterList.find((c) => c.price > 0);
    if (!priced) continue;
    const read = await call(`/api/book/read_chapter?bookId=${bookId}&number=${priced.number}`);
    if (read.result) return { free, granted: read.data.bookPics[0] };
  }
  throw new Error('no priced chapter readable by a VIP in the first list page');
}

async function startNginx(targets) {
  const port = await freePort();
  const dir = path.join(work, 'nginx');
  mkdirSync(path.join(dir, 'www'), { recursive: true });
  const locations = targets.map((t) => {
    writeFileSync(path.join(dir, 'www', t.name), t.body);
    return `location = "${t.url}" { alias "${path.join(dir, 'www', t.name)}"; default_type image/webp; add_header Cache-Control "${t.cacheControl}"; }`;
  });
  const user = process.getuid?.() === 0 ? 'user root;' : '';
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `${user} daemon off; worker_processes auto; pid "${dir}/nginx.pid"; error_log "${dir}/error.log" warn;
events { worker_connections 4096; }
http { access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000; open_file_cache max=64;
  client_body_temp_path "${dir}/cb"; proxy_temp_path "${dir}/p"; fastcgi_temp_path "${dir}/f"; uwsgi_temp_path "${dir}/u"; scgi_temp_path "${dir}/s";
  server { listen 127.0.0.1:${port}; ${locations.join('\n')} location / { return 404; } } }`,
  );
  const child = spawn('nginx', ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: 'inherit' });
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    if (
      await fetch(`${base}${targets[0].url}`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return base;
    await sleep(100);
  }
  throw new Error('nginx did not start');
}

/** wrk's requests per second; any non-2xx answer or socket error fails the bench. */
function wrk(url) {
  const run = spawnSync('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', url], {
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr}`);
  if (/Non-2xx|Socket errors/.test(run.stdout)) throw new Error(`wrk saw errors on ${url}:\n${run.stdout}`);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(run.stdout)?.[1]),
    p99: /99%\s+(\S+)/.exec(run.stdout)?.[1],
  };
}

try {
  const server = await startServer();
  const paths = await pagePaths(server);
  const targets = [];
  for (const [name, p] of Object.entries(paths)) {
    const url = `/${p}_500_0.img`;
    await fetch(`${server}${url}`); // resize and cache
    const res = await fetch(`${server}${url}`);
    if (res.status !== 200) throw new Error(`${name} page answered ${res.status}`);
    targets.push({
      name,
      url,
      body: Buffer.from(await res.arrayBuffer()),
      cacheControl: res.headers.get('cache-control'),
    });
  }
  const nginx = await startNginx(targets);
  for (const t of targets) {
    const theirs = Buffer.from(await (await fetch(`${nginx}${t.url}`)).arrayBuffer());
    if (!theirs.equals(t.body)) throw new Error(`nginx does not serve the same bytes for ${t.name}`);
  }
  const results = targets.map((t) => {
    const ours = wrk(`${server}${t.url}`);
    const theirs = wrk(`${nginx}${t.url}`);
    return {
      page: t.name,
      bytes: t.body.length,
      server: ours,
      nginx: theirs,
      ratio: +(ours.rps / theirs.rps).toFixed(2),
    };
  });
  console.table(
    results.map((r) => ({
      page: r.page,
      bytes: r.bytes,
      'server req/s': r.server.rps,
      'nginx req/s': r.nginx.rps,
      'server/nginx': r.ratio,
      'server p99': r.server.p99,
    })),
  );
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const file = path.join(
    root,
    'bench/results',
    `page-images-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
  );
  writeFileSync(file, JSON.stringify({ seconds, connections, results }, null, 2));
  console.log(`results: ${path.relative(root, file)}`);
} finally {
  stopAll();
  await sleep(500);
  rmSync(work, { recursive: true, force: true });
}
