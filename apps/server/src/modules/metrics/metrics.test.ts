import { connect } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pricedChapters } from '../../../test/money/money-test-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { dbKind, describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, post, registerVisitor } from '../../../test/visitors.ts';
import { payOrders } from '../../db/schema/index.ts';
import { applyWeb, demo, notificationBody, postNotification } from '../payments/payments.test-support.ts';
import { DRAIN_GRACE_MS } from './drain.ts';
import { bearerMatches } from './metrics.routes.ts';

const TOKEN = 'metrics-token-for-tests-0123456789abcdef';
const auth = { authorization: `Bearer ${TOKEN}` };

/** The value of one sample in Prometheus text: `name` with exactly these labels (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
    );
    const wanted = Object.entries(labels);
    if (wanted.length === Object.keys(got).length && wanted.every(([k, v]) => got[k] === v)) {
      return Number(m[3]);
    }
  }
  return 0;
}

describe('bearerMatches', () => {
  it('takes exactly the token, after Bearer', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer  ${TOKEN}`, TOKEN)).toBe(true);
    for (const bad of [
      undefined,
      '',
      TOKEN,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      `Basic ${TOKEN}`,
    ]) {
      expect(bearerMatches(bad, TOKEN), String(bad)).toBe(false);
    }
  });
});

describeDb('operations: /healthz, /readyz, /metrics', () => {
  let t: TestApp;
  // No token, no demo library, an image root that is not there.
  let bare: TestApp;
  let releaseHeld: () => void = () => undefined;
  let heldEntered: Promise<void>;

  beforeAll(async () => {
    t = await createTestApp({ env: { ...manyVisitorsEnv, METRICS_TOKEN: TOKEN }, staticCacheMs: 60_000 });
    const held = new Promise<void>((resolve) => {
      releaseHeld = resolve;
    });
    heldEntered = new Promise<void>((entered) => {
      // A request that stays in flight until the test lets it go (the drain test).
      t.app.get('/test/held', async () => {
        entered();
        await held;
        return { done: true };
      });
    });
    bare = await createTestApp({
      seed: false,
      // Under a file: it cannot be created (the storage module creates a missing IMAGE_ROOT at start).
      env: { DEMO_LIBRARY: 'false', IMAGE_ROOT: '/dev/null/yueman-images' },
    });
  });
  afterAll(async () => {
    releaseHeld();
    await t?.close();
    await bare?.close();
  });

  const scrape = async () => {
    const res = await t.app.inject({ url: '/metrics', headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };

  it('/healthz: the process answers', async () => {
    const res = await bare.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('/readyz: 200 in the envelope when the database and the image store answer', async () => {
    const res = await t.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      result: true,
      code: 200,
      msg: 'success',
      data: { status: 'ready', database: 'ok', images: 'ok' },
    });
  });

  it('/readyz: 503 when the image root cannot be read', async () => {
    const res = await bare.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      result: false,
      code: 503,
      data: { status: 'unavailable', database: 'ok', images: 'failed' },
    });
  });

  it('/metrics: 404 without METRICS_TOKEN configured, 401 without the right token, Prometheus text with it', async () => {
    const off = await bare.app.inject({ url: '/metrics', headers: auth });
    expect(off.statusCode).toBe(404);
    expect(off.json()).toMatchObject({ result: false, code: 404 });

    for (const headers of [
      {},
      { authorization: 'Bearer not-the-token-not-the-token-not-the' },
      { authorization: TOKEN },
    ]) {
      const refused = await t.app.inject({ url: '/metrics', headers });
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer');
      expect(refused.body).not.toContain('yueman_');
    }

    const res = await t.app.inject({ url: '/metrics', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    // prom-client's default process metrics.
    expect(res.body).toMatch(/^process_cpu_user_seconds_total /m);
    expect(res.body).toMatch(/^nodejs_eventloop_lag_seconds /m);
    // The PostgreSQL pool, on PostgreSQL only.
    if (dbKind === 'postgres') {
      expect(sample(res.body, 'yueman_db_pool_max_connections')).toBe(10);
      expect(sample(res.body, 'yueman_db_pool_connections')).toBeGreaterThan(0);
      expect(res.body).toMatch(/^yueman_db_pool_waiting_clients \d+$/m);
      expect(res.body).toMatch(/^yueman_db_pool_idle_connections \d+$/m);
    } else {
      expect(res.body).not.toContain('yueman_db_pool');
    }
  });

  it('counts requests per route pattern and status, never per raw URL', async () => {
    const detail = { method: 'GET', route: '/api/book/detail/:bookId', status_code: '200' };
    const apiMissing = { method: 'GET', route: '/api/*', status_code: '404' };
    const unmatched = { method: 'DELETE', route: '(unmatched)', status_code: '404' };
    const before = await scrape();
    expect((await t.app.inject({ url: '/api/book/detail/1' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/book/detail/2' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/no/such/call' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: '/no/such/thing' })).statusCode).toBe(404);
    const after = await scrape();
    expect(sample(after, 'yueman_http_requests_total', detail)).toBe(
      sample(before, 'yueman_http_requests_total', detail) + 2,
    );
    expect(sample(after, 'yueman_http_request_duration_seconds_count', detail)).toBe(
      sample(before, 'yueman_http_request_duration_seconds_count', detail) + 2,
    );
    expect(sample(after, 'yueman_http_request_duration_seconds_bucket', { ...detail, le: '+Inf' })).toBe(
      sample(after, 'yueman_http_request_duration_seconds_count', detail),
    );
    for (const labels of [apiMissing, unmatched]) {
      expect(sample(after, 'yueman_http_requests_total', labels)).toBe(
        sample(before, 'yueman_http_requests_total', labels) + 1,
      );
    }
    expect(after).not.toContain('/api/book/detail/1');
    expect(after).not.toContain('/api/no/such/call');
    expect(after).not.toContain('/no/such/thing');
  });

  it('counts orders created and paid, notifications accepted and refused, coins spent on chapters', async () => {
    const before = await scrape();
    const reader = await registerVisitor(t);
    const { order } = await applyWeb(t, reader.cookie, demo.coin3000, 2850);
    // The same tap again gets the open order: not a new one.
    await applyWeb(t, reader.cookie, demo.coin3000, 2850);
    const body = (fields: { tradeNo?: string } = {}) =>
      notificationBody(t.config.sandboxPayKey, {
        orderNo: order.orderNo,
        amount: String(order.payAmount),
        tradeNo: `T${order.orderNo}`,
        ...fields,
      });
    expect((await postNotification(t, 'wechat_h5', body())).statusCode).toBe(200);
    // A gateway's retry: accepted again, paid once.
    expect((await postNotification(t, 'wechat_h5', body())).statusCode).toBe(200);
    const forged = notificationBody(
      t.config.sandboxPayKey,
      { orderNo: order.orderNo, amount: String(order.payAmount) },
      { sign: 'forged' },
    );
    expect((await postNotification(t, 'wechat_h5', forged)).statusCode).toBe(400);

    const [chapter] = await pricedChapters(t.db, 1);
    if (!chapter) throw new Error('no priced chapter');
    const buy = () => post(t, '/api/book/chapter/buy', { chapterId: String(chapter.chapterId) }, reader);
    expect((await buy()).json()).toMatchObject({ result: true, data: { charged: chapter.price } });
    // Owned already: nothing charged, nothing counted.
    expect((await buy()).json()).toMatchObject({ result: true, data: { charged: 0 } });

    const after = await scrape();
    const grew = (name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(grew('yueman_pay_orders_created_total', { purpose: 'coin' })).toBe(1);
    expect(grew('yueman_pay_orders_created_total', { purpose: 'vip' })).toBe(0);
    expect(grew('yueman_pay_orders_paid_total')).toBe(1);
    expect(grew('yueman_pay_notifications_total', { result: 'accepted' })).toBe(2);
    expect(grew('yueman_pay_notifications_total', { result: 'refused' })).toBe(1);
    expect(grew('yueman_chapters_bought_total')).toBe(1);
    expect(grew('yueman_coins_spent_total')).toBe(chapter.price);
  });

  it('counts image cache lookups and resizes the images module reports through the port', async () => {
    const before = await scrape();
    t.app.ports.metrics.imageCache('memory', 'hit');
    t.app.ports.metrics.imageCache('disk', 'miss');
    t.app.ports.metrics.imageResized(0.2);
    const after = await scrape();
    const grew = (name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(grew('yueman_image_cache_lookups_total', { tier: 'memory', outcome: 'hit' })).toBe(1);
    expect(grew('yueman_image_cache_lookups_total', { tier: 'disk', outcome: 'miss' })).toBe(1);
    expect(grew('yueman_image_resize_seconds_count')).toBe(1);
    expect(grew('yueman_image_resize_seconds_bucket', { le: '0.25' })).toBe(1);
  });

  // From here on the app listens; the last test closes it.
  it('in a listening server, counts kept static answers and kept images as every answer, and the expired orders of the sweeper', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const detail = { method: 'GET', route: '/api/book/detail/:bookId', status_code: '200' };
    const before = await scrape();
    // The first answer is made and kept; the next ones come from the kept copy: all counted under the route.
    for (let i = 0; i < 3; i++) expect((await fetch(`${base}/api/book/detail/3`)).status).toBe(200);
    const etag = (await fetch(`${base}/api/book/detail/3`)).headers.get('etag') ?? '';
    expect((await fetch(`${base}/api/book/detail/3`, { headers: { 'if-none-match': etag } })).status).toBe(
      304,
    );
    const after = await scrape();
    expect(sample(after, 'yueman_http_requests_total', detail)).toBe(
      sample(before, 'yueman_http_requests_total', detail) + 4,
    );
    expect(sample(after, 'yueman_http_requests_total', { ...detail, status_code: '304' })).toBe(
      sample(before, 'yueman_http_requests_total', { ...detail, status_code: '304' }) + 1,
    );

    // A free page: the first answer is made and kept in memory, the next one sent from there; both counted.
    const kept = { method: 'GET', route: '/*', status_code: '200' };
    const read = (await (await fetch(`${base}/api/book/read_chapter?bookId=3&number=1`)).json()).data;
    const page = `${base}/${read.bookPics[2]}_200_0.img`;
    const beforeImage = await scrape();
    for (let i = 0; i < 2; i++) expect((await fetch(page)).status).toBe(200);
    expect(sample(await scrape(), 'yueman_http_requests_total', kept)).toBe(
      sample(beforeImage, 'yueman_http_requests_total', kept) + 2,
    );

    // An order whose time is up, and the background jobs (the sweeper runs at once).
    const reader = await registerVisitor(t);
    const { order } = await applyWeb(t, reader.cookie, demo.coin600, 570);
    await t.db
      .update(payOrders)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(payOrders.id, order.id));
    t.app.jobs.start();
    const deadline = Date.now() + 10_000;
    while (sample(await scrape(), 'yueman_pay_orders_expired_total') < 1 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(sample(await scrape(), 'yueman_pay_orders_expired_total')).toBeGreaterThanOrEqual(1);
  });

  it('while draining: /readyz answers 503 at once, requests in flight and queued complete, no new connection is taken', async () => {
    const { port } = t.app.server.address() as { port: number };
    const open = () => {
      const socket = connect(port, '127.0.0.1');
      const received = { text: '' };
      socket.setEncoding('utf8').on('data', (chunk) => {
        received.text += chunk;
      });
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      return { socket, received, closed };
    };
    const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    const closes = /\r\nconnection: close\r\n/i;

    // A request in flight, and a probe whose request is still arriving when the drain begins.
    const inFlight = open();
    inFlight.socket.write('GET /test/held HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await heldEntered;
    const probe = open();
    probe.socket.write('GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));

    const closed = t.app.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    probe.socket.write('\r\n');
    // Pipelined behind the request in flight: answered too (Node drops answers queued behind a closing one).
    inFlight.socket.write('GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await probe.closed;
    expect(probe.received.text).toMatch(/^HTTP\/1\.1 503 /);
    expect(probe.received.text).toMatch(closes);
    expect(bodyOf(probe.received.text)).toMatchObject({
      result: false,
      code: 503,
      data: { status: 'draining' },
    });
    // After the drain's grace (a request arriving meanwhile is still answered), the port takes no new connection.
    await new Promise((resolve) => setTimeout(resolve, DRAIN_GRACE_MS + 300));
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();

    // The request in flight is answered in full, then the one queued behind it; then the connection closes.
    releaseHeld();
    await inFlight.closed;
    await closed;
    const [held = '', queued = '', ...more] = inFlight.received.text.split(/(?=HTTP\/1\.1 )/);
    expect(more).toEqual([]);
    expect(held).toMatch(/^HTTP\/1\.1 200 /);
    expect(held).not.toMatch(closes);
    expect(bodyOf(held)).toEqual({ done: true });
    expect(queued).toMatch(/^HTTP\/1\.1 503 /);
    expect(bodyOf(queued)).toMatchObject({ code: 503, data: { status: 'draining' } });
  });
});
