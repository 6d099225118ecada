// What the paywall on page images costs: a free page (plain path: the free-page check) and a priced page (granted
// path: the HMAC check), each already resized and cached, against nginx serving the very same bytes. wrk drives
// both (a JavaScript client would be the bottleneck on 2 cores). `node bench/page-images.mjs`; results in
// bench/results/page-images-*.json.
import { spawnSync } from 'node:child_process';
import {
  envNumber,
  fileStamp,
  get,
  runMain,
  sleep,
  startServer,
  tempDir,
  writeResults,
} from './bench-kit.mjs';
import { startNginx } from './nginx.mjs';

const seconds = envNumber('BENCH_SECONDS', 8, 1, 1);
const connections = envNumber('BENCH_CONNECTIONS', 32, 1, 8);

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

async function main() {
  const work = tempDir('yueman-page-images-');
  const server = await startServer({ workDir: work });
  const paths = await pagePaths(server.origin);
  const targets = [];
  for (const [name, p] of Object.entries(paths)) {
    const url = `/${p}_500_0.img`;
    await get(server.port, url); // resize and cache
    const res = await get(server.port, url);
    if (res.status !== 200) throw new Error(`${name} page answered ${res.status}`);
    targets.push({
      name,
      path: url,
      rawPath: url,
      body: res.body,
      contentType: res.headers['content-type'],
      cacheControl: res.headers['cache-control'],
      vary: res.headers.vary,
    });
  }
  // nginx checks it serves the same bytes before it is measured.
  const nginx = await startNginx(work, targets);
  const results = targets.map((t) => {
    const ours = wrk(`${server.origin}${t.path}`);
    const theirs = wrk(`${nginx.origin}${t.path}`);
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
  writeResults(`page-images-${fileStamp(new Date())}`, { seconds, connections, results });
}

runMain(main, 'nginx and the server');
