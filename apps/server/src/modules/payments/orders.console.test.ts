// The console's order screens on real orders made through the real money path: Alipay (its fake on loopback) and
// the sandbox gateway, paid, credited and refunded as in production. The list and its filters, an order's whole
// story, revenue per promotion branch, the roles, and bad input refused without changing anything.
import { asc, count } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { consoleOperators } from '../../../test/console-kit.ts';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { type GatewayApp, gatewayAppPerFile, latestOrderOf } from '../../../test/real-gateways.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { registerVisitor, type TestVisitor } from '../../../test/visitors.ts';
import { auditLog, payOrderEvents, payRefunds } from '../../db/schema/index.ts';
import { chinaDate } from '../../shared/china-time.ts';
import { maskOrderNo } from './orders.console.service.ts';
import { applyUrl, demo, injectSend, moneyState, orderByNo } from './payments.test-support.ts';

type Admin = Awaited<ReturnType<typeof consoleOperators>>['admin'];
type Pack = { payPurposeId: number; payPurpose: 'coin' | 'vip' };

describeDb('the console’s orders and revenue', () => {
  const app = gatewayAppPerFile();
  let t: TestApp;
  let gateways: GatewayApp['gateways'];
  let admin: Admin;
  let origin: string;
  const readers: TestVisitor[] = [];
  /** The orders made in beforeAll, oldest first: a … e. */
  const orders: Record<'a' | 'b' | 'c' | 'd' | 'e', string> = { a: '', b: '', c: '', d: '', e: '' };

  /** Pay apply for a pack on a channel and branch; the browser opens the cashier it is sent to. */
  async function apply(reader: TestVisitor, pack: Pack, channel: string, amount: number, branchId: number) {
    const url = new URL(
      applyUrl({ ...pack, payChannel: channel, rechargerAmount: amount, vueReturnUrl: '/home' }),
      'http://localhost',
    );
    url.searchParams.set('branchId', String(branchId));
    const res = await t.app.inject({ url: url.pathname + url.search, headers: { cookie: reader.cookie } });
    expect(res.statusCode, res.body).toBe(302);
    const location = String(res.headers.location);
    if (location.startsWith('http://127.0.0.1')) await fetch(location);
    return { order: await latestOrderOf(t, reader.userId), location };
  }

  /** Through Alipay: the payer pays, Alipay notifies, the order is credited. */
  async function paidThroughAlipay(reader: TestVisitor, pack: Pack, amount: number, branchId: number) {
    const { order } = await apply(reader, pack, 'alipay_wap', amount, branchId);
    gateways.alipay.pay(order.orderNo);
    await gateways.alipay.settled();
    expect((await orderByNo(t.db, order.orderNo)).status).toBe('paid');
    return order.orderNo;
  }

  beforeAll(async () => {
    ({ t, gateways } = app);
    ({ admin, origin } = await consoleOperators(t, ['owner', 'editor', 'finance', 'support']));
    for (let i = 0; i < 3; i++) readers.push(await registerVisitor(t));
    const [r1, r2, r3] = readers as [TestVisitor, TestVisitor, TestVisitor];
    const named = await admin('owner', 'POST', '/api/admin/branches/7001', {
      name: ' 抖音一号 ',
      appDownloadUrl: '',
      appDownloadHome: '',
      customerServiceEmail: '',
      customerServiceQq: '',
    });
    expect(named.statusCode, named.body).toBe(200);

    orders.a = await paidThroughAlipay(r1, demo.coin3000, 3000, 7001);
    orders.b = await paidThroughAlipay(r2, demo.vip30, 3000, 7001);
    orders.c = await paidThroughAlipay(r1, demo.coin600, 600, 7002);
    orders.d = (await apply(r3, demo.coin600, 'alipay_wap', 600, 7002)).order.orderNo;
    // Through the sandbox gateway (the bank channel has no real gateway here): its cashier, then its notification.
    const sandbox = await apply(r3, demo.coin600, 'unionpay', 588, -2);
    orders.e = sandbox.order.orderNo;
    const confirm = await t.app.inject({
      method: 'POST',
      url: `${new URL(sandbox.location).pathname}/confirm`,
    });
    expect(confirm.statusCode).toBe(302);
    await t.app.ports.sandbox.deliverDueNotifications(injectSend(t));
    expect((await orderByNo(t.db, orders.e)).status).toBe('paid');

    // 10.00 yuan of order a back through Alipay.
    const refund = await admin('owner', 'POST', `/api/admin/orders/${orders.a}/refunds`, {
      amount: 1000,
      reason: '用户申请',
      requestId: 'req-console-0001',
    });
    expect(refund.json()).toMatchObject({ result: true, data: { refund: { state: 'success' } } });
  });

  const data = async (role: 'owner' | 'finance' | 'support', url: string) => {
    const res = await admin(role, 'GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const numbers = (page: { list: { orderNo: string }[] }) => page.list.map((o) => o.orderNo);

  it('lists orders newest first, with each filter, paged on the server', async () => {
    const all = await data('owner', '/api/admin/orders');
    expect(all).toMatchObject({ page: 1, size: 20, total: 5 });
    expect(numbers(all)).toEqual([orders.e, orders.d, orders.c, orders.b, orders.a]);
    const [r1, r2] = readers as [TestVisitor, TestVisitor];
    expect(all.list.at(-1)).toMatchObject({
      orderNo: orders.a,
      userId: r1.userId,
      account: r1.account,
      purpose: 'coin',
      channel: 'alipay_wap',
      channelName: '支付宝',
      gateway: 'alipay',
      amountLevel: 3000,
      payAmount: 3000,
      itemCount: 3000,
      presentCount: 300,
      state: 'paid',
      branchId: 7001,
      branchName: '抖音一号',
      refundedAmount: 1000,
    });
    expect(all.list[0]).toMatchObject({
      channel: 'unionpay',
      gateway: 'sandbox',
      payAmount: 588,
      branchId: -2,
    });
    expect(all.list[1]).toMatchObject({ state: 'created', paidAt: null, refundedAmount: 0 });
    // Every channel for the filter, once.
    expect(all.channels.map((c: { code: string }) => c.code).sort()).toEqual(
      ['alipay_app', 'alipay_wap', 'unionpay', 'wechat_app', 'wechat_h5'].sort(),
    );

    const today = chinaDate(new Date((await orderByNo(t.db, orders.a)).createdAt));
    const cases: [string, string[]][] = [
      [`orderNo=${orders.b}`, [orders.b]],
      [`userId=${r1.userId}`, [orders.c, orders.a]],
      [`userId=${r2.userId}&state=paid`, [orders.b]],
      ['state=created', [orders.d]],
      ['state=expired', []],
      ['channel=unionpay', [orders.e]],
      ['branchId=7002', [orders.d, orders.c]],
      ['branchId=-2', [orders.e]],
      ['branchId=7001&state=paid&channel=alipay_wap', [orders.b, orders.a]],
      [`from=${today}&to=${today}`, [orders.e, orders.d, orders.c, orders.b, orders.a]],
      [`from=${chinaDate(new Date(), 1)}`, []],
      [`to=${chinaDate(new Date(), -1)}`, []],
      ['orderNo=YM000000', []],
    ];
    for (const [query, expected] of cases) {
      const page = await data('owner', `/api/admin/orders?${query}`);
      expect(numbers(page), query).toEqual(expected);
      expect(page.total, query).toBe(expected.length);
    }

    // Pages of two: each row once, in the same order, the total on every page.
    const pages = [];
    for (const p of [1, 2, 3]) pages.push(await data('owner', `/api/admin/orders?page=${p}&size=2`));
    expect(pages.map((p) => p.total)).toEqual([5, 5, 5]);
    expect(pages.map((p) => p.list.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap(numbers)).toEqual(numbers(all));
    expect(numbers(await data('owner', '/api/admin/orders?page=4&size=2'))).toEqual([]);
  });

  it('tells an order’s whole story: the gateway’s messages, the refund, the ledger’s credit', async () => {
    const [r1] = readers as [TestVisitor];
    const story = await data('owner', `/api/admin/orders/${orders.a}`);
    const order = await orderByNo(t.db, orders.a);
    expect(story.order).toMatchObject({
      orderNo: orders.a,
      state: 'paid',
      purpose: 'coin',
      packId: demo.coin3000.payPurposeId,
      packTitle: '3000阅币',
      amountLevel: 3000,
      payAmount: 3000,
      itemCount: 3000,
      presentCount: 300,
      channel: 'alipay_wap',
      channelName: '支付宝',
      gateway: 'alipay',
      gatewayTradeNo: order.gatewayTradeNo,
      branchId: 7001,
      branchName: '抖音一号',
      appType: 'wap_browser',
      createdAt: order.createdAt.toISOString(),
      paidAt: order.paidAt?.toISOString(),
      expiresAt: order.expiresAt.toISOString(),
      checkedAt: null,
    });
    expect(story.user).toEqual({ id: r1.userId, account: r1.account, vipEnd: null });

    // Events in time order: made, paid with Alipay's notification (no signature), refunded with Alipay's answer.
    const events = story.events as { id: number; source: string; toStatus: string; payload: unknown }[];
    expect(events.map((e) => e.id)).toEqual([...events.map((e) => e.id)].sort((x, y) => x - y));
    expect(events[0]).toMatchObject({
      fromStatus: null,
      toStatus: 'created',
      source: 'apply',
      payload: null,
    });
    const paid = events.find((e) => e.source === 'notify' && e.toStatus === 'paid');
    expect(paid?.payload).toMatchObject({ out_trade_no: orders.a, trade_status: 'TRADE_SUCCESS' });
    expect(JSON.stringify(paid?.payload)).not.toContain('"sign"');
    const refunded = events.find((e) => e.source === 'refund');
    expect(refunded).toMatchObject({
      detail: expect.stringMatching(/^支付宝退款 RF[0-9A-F]{24}：¥10\.00，成功$/),
    });
    expect(refunded?.payload).toMatchObject({ out_trade_no: orders.a });

    expect(story.refunds).toEqual([
      expect.objectContaining({ amount: 1000, reason: '用户申请', state: 'success', actor: 'owner1' }),
    ]);
    expect(story.refund).toEqual({
      refunded: 1000,
      processing: 0,
      left: 2000,
      refusal: null,
      offline: false,
    });
    // The credit: 3000 coins bought and 300 given, each a transfer from a system account to the reader.
    expect(story.ledger).toEqual([
      expect.objectContaining({
        transferId: `order:${orders.a}:bonus`,
        kind: 'bonus',
        amount: 300,
        entries: expect.arrayContaining([
          { account: 'system:bonus', amount: -300 },
          { account: `user:${r1.userId}`, amount: 300 },
        ]),
      }),
      expect.objectContaining({
        transferId: `order:${orders.a}:coins`,
        kind: 'recharge',
        amount: 3000,
        entries: expect.arrayContaining([
          { account: 'system:payments', amount: -3000 },
          { account: `user:${r1.userId}`, amount: 3000 },
        ]),
      }),
    ]);

    // A VIP order: no transfers, the reader's VIP end instead.
    const vip = await data('owner', `/api/admin/orders/${orders.b}`);
    expect(vip.ledger).toEqual([]);
    expect(vip.user.vipEnd).toEqual(expect.any(String));
    // Unpaid: nothing to refund, and said why.
    const unpaid = await data('owner', `/api/admin/orders/${orders.d}`);
    expect(unpaid.order).toMatchObject({ state: 'created', paidAt: null, gatewayTradeNo: null });
    expect(unpaid.refund).toEqual({
      refunded: 0,
      processing: 0,
      left: 0,
      refusal: '订单未支付，不能退款',
      offline: false,
    });
    // Paid through the sandbox: its notification in the story, and refundable through it (its cashier refunds).
    const sandbox = await data('owner', `/api/admin/orders/${orders.e}`);
    expect(sandbox.events.map((e: { source: string }) => e.source)).toEqual(['apply', 'notify']);
    expect(sandbox.refund).toMatchObject({ left: 588, refusal: null });

    const unknown = await admin('owner', 'GET', '/api/admin/orders/YM20990101ABCDEF0123456789');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ result: false, code: 404, msg: '订单不存在', data: null });
  });

  it('shows roles that do not refund each order number in part, everywhere', async () => {
    const full = await data('owner', '/api/admin/orders');
    for (const role of ['support'] as const) {
      const page = await data(role, '/api/admin/orders');
      expect(page.total).toBe(full.total);
      expect(numbers(page)).toEqual(numbers(full).map(maskOrderNo));
      expect(JSON.stringify(page)).not.toMatch(/YM\d{8}[0-9A-F]{16}/);
      for (const o of page.list) expect(o.orderNo).toMatch(/^YM\d{8}\*{12}[0-9A-F]{4}$/);
      // A reader who tells support the whole number is found by it, and shown it in part.
      const found = await data(role, `/api/admin/orders?orderNo=${orders.a}`);
      expect(numbers(found)).toEqual([maskOrderNo(orders.a)]);
      // The story opens by the row's id (the list's link) or by the whole number; the gateway's messages and the
      // ledger's ids name the order in part too.
      const row = page.list.find((o: { orderNo: string }) => o.orderNo === maskOrderNo(orders.a));
      for (const url of [`/api/admin/orders/by-id/${row.id}`, `/api/admin/orders/${orders.a}`]) {
        const story = await data(role, url);
        expect(story.order).toMatchObject({ id: row.id, orderNo: maskOrderNo(orders.a), payAmount: 3000 });
        expect(JSON.stringify(story)).not.toContain(orders.a);
        expect(JSON.stringify(story)).toContain(`order:${maskOrderNo(orders.a)}:coins`);
      }
    }
    // The owner and finance, who refund, see the whole number, by either way in, and the refunds; support does not
    // see refunds (nor their events).
    const id = full.list.find((o: { orderNo: string }) => o.orderNo === orders.a).id;
    for (const role of ['owner', 'finance'] as const) {
      const story = await data(role, `/api/admin/orders/by-id/${id}`);
      expect(story.order.orderNo).toBe(orders.a);
      expect(story.refunds).toHaveLength(1);
    }
    const supportStory = await data('support', `/api/admin/orders/by-id/${id}`);
    expect(supportStory.refunds).toEqual([]);
    expect(supportStory.refund).toMatchObject({ refusal: '没有退款权限' });
    expect(supportStory.events.some((e: { source: string }) => e.source.startsWith('refund'))).toBe(false);
    expect((await admin('support', 'GET', '/api/admin/orders/by-id/2147483647')).statusCode).toBe(404);
    expect((await admin('editor', 'GET', `/api/admin/orders/by-id/${id}`)).statusCode).toBe(403);
  });

  it('sums revenue per promotion branch, by purpose, with a total that matches what was paid and refunded', async () => {
    const res = await data('finance', '/api/admin/revenue');
    const today = chinaDate(new Date());
    expect(res).toMatchObject({ from: chinaDate(new Date(), -6), to: today, days: 7 });
    expect(res.rows).toEqual([
      {
        branchId: 7001,
        branchName: '抖音一号',
        coin: { paidCount: 1, paidAmount: 3000, refundedAmount: 1000 },
        vip: { paidCount: 1, paidAmount: 3000, refundedAmount: 0 },
        card: { paidCount: 0, paidAmount: 0, refundedAmount: 0 },
        all: { paidCount: 2, paidAmount: 6000, refundedAmount: 1000 },
      },
      {
        branchId: 7002,
        branchName: '',
        coin: { paidCount: 1, paidAmount: 600, refundedAmount: 0 },
        vip: { paidCount: 0, paidAmount: 0, refundedAmount: 0 },
        card: { paidCount: 0, paidAmount: 0, refundedAmount: 0 },
        all: { paidCount: 1, paidAmount: 600, refundedAmount: 0 },
      },
      {
        branchId: -2,
        branchName: '',
        coin: { paidCount: 1, paidAmount: 588, refundedAmount: 0 },
        vip: { paidCount: 0, paidAmount: 0, refundedAmount: 0 },
        card: { paidCount: 0, paidAmount: 0, refundedAmount: 0 },
        all: { paidCount: 1, paidAmount: 588, refundedAmount: 0 },
      },
    ]);
    expect(res.total).toEqual({
      coin: { paidCount: 3, paidAmount: 4188, refundedAmount: 1000 },
      vip: { paidCount: 1, paidAmount: 3000, refundedAmount: 0 },
      card: { paidCount: 0, paidAmount: 0, refundedAmount: 0 },
      all: { paidCount: 4, paidAmount: 7188, refundedAmount: 1000 },
    });
    // The same sums as the database's, whatever the arithmetic above.
    const refundedCents = (await t.db.select().from(payRefunds)).reduce((n, r) => n + r.amount, 0);
    expect(res.total.all.refundedAmount).toBe(refundedCents);

    // One day: today's is everything; yesterday's nothing; a range ending yesterday leaves today out.
    expect((await data('owner', `/api/admin/revenue?from=${today}&to=${today}`)).total).toEqual(res.total);
    const before = await data('owner', `/api/admin/revenue?to=${chinaDate(new Date(), -1)}`);
    expect(before).toMatchObject({ from: chinaDate(new Date(), -7), days: 7, rows: [] });
    expect(before.total.all).toEqual({ paidCount: 0, paidAmount: 0, refundedAmount: 0 });
    // Only `from`: up to today; the longest range passes.
    const long = await data('owner', `/api/admin/revenue?from=${chinaDate(new Date(), -91)}`);
    expect(long).toMatchObject({ to: today, days: 92 });
    expect(long.total).toEqual(res.total);
  });

  it('answers owners, finance and (orders only) customer service; refuses editors and callers without a session', async () => {
    const urls = ['/api/admin/orders', `/api/admin/orders/${orders.a}`, '/api/admin/revenue'];
    for (const url of urls) {
      const editor = await admin('editor', 'GET', url);
      expect(editor.statusCode, url).toBe(403);
      expect(editor.json()).toEqual({ result: false, code: 403, msg: '当前角色无权进行此操作', data: null });
      const anonymous = await t.app.inject({ url, headers: { origin } });
      expect(anonymous.statusCode, url).toBe(401);
      expect(anonymous.json()).toMatchObject({ result: false, code: 401, msg: '请先登录管理后台' });
      expect((await admin('owner', 'GET', url)).statusCode, url).toBe(200);
      expect((await admin('finance', 'GET', url)).statusCode, url).toBe(200);
    }
    expect((await admin('support', 'GET', urls[0] as string)).statusCode).toBe(200);
    expect((await admin('support', 'GET', urls[1] as string)).statusCode).toBe(200);
    expect((await admin('support', 'GET', urls[2] as string)).statusCode).toBe(403);
  });

  it('refuses bad input with a 400 envelope naming the field, and changes nothing', async () => {
    const counts = async () => ({
      money: await moneyState(t.db),
      refunds: await t.db.select().from(payRefunds).orderBy(asc(payRefunds.id)),
      events: (await t.db.select({ n: count() }).from(payOrderEvents))[0]?.n,
      audit: (await t.db.select({ n: count() }).from(auditLog))[0]?.n,
    });
    const before = await counts();
    const cases: [string, string][] = [
      ['/api/admin/orders?size=101', 'size'],
      ['/api/admin/orders?page=0', 'page'],
      ['/api/admin/orders?state=refunded', 'state'],
      ['/api/admin/orders?orderNo=YM-0001', 'orderNo'],
      ['/api/admin/orders?userId=0', 'userId'],
      ['/api/admin/orders?branchId=abc', 'branchId'],
      ['/api/admin/orders?channel=alipay%20wap', 'channel'],
      ['/api/admin/orders?from=2024-2-1', 'from'],
      ['/api/admin/orders?from=2024-02-30', 'from'],
      ['/api/admin/orders?to=2024-13-01', 'to'],
      ['/api/admin/orders?from=2024-03-02&to=2024-03-01', 'to'],
      ['/api/admin/revenue?from=yesterday', 'from'],
      ['/api/admin/revenue?from=2024-02-30&to=2024-03-01', 'from'],
      ['/api/admin/revenue?from=2024-03-02&to=2024-03-01', 'to'],
      ['/api/admin/revenue?from=2024-01-01&to=2024-04-02', 'from'],
    ];
    for (const [url, field] of cases) {
      const res = await admin('owner', 'GET', url);
      expect(res.statusCode, url).toBe(400);
      const body = res.json();
      expect(body, url).toMatchObject({ result: false, code: 400, data: { field } });
      expect(body.msg, url).toMatch(/[\u4e00-\u9fff]/);
    }
    // 92 days is the longest range; 93 is one too many.
    expect((await admin('owner', 'GET', '/api/admin/revenue?from=2024-01-01&to=2024-04-01')).statusCode).toBe(
      200,
    );
    const badNo = await admin('owner', 'GET', '/api/admin/orders/YM%2D0001');
    expect(badNo.statusCode).toBe(400);
    expect(badNo.json()).toMatchObject({ result: false, code: 400, msg: '路径参数 orderNo 不正确' });
    expect(await counts()).toEqual(before);
  });

  it('shows a refunded paid order as refunded in whole or in part, derived from its refunds, and filters by it', async () => {
    // Order c (6.00 yuan) back in whole; order a was refunded 10.00 of 30.00.
    const whole = await admin('owner', 'POST', `/api/admin/orders/${orders.c}/refunds`, {
      amount: 600,
      reason: '用户申请',
      requestId: 'req-console-full-01',
    });
    expect(whole.json()).toMatchObject({ result: true, data: { refund: { state: 'success' } } });
    await expectLedgerInvariants(t.db);
    const cases: [string, string[]][] = [
      ['refund=full', [orders.c]],
      ['refund=partial', [orders.a]],
      ['refund=partial&branchId=7001', [orders.a]],
      ['refund=full&branchId=7001', []],
      [`refund=full&userId=${(readers[0] as TestVisitor).userId}`, [orders.c]],
    ];
    for (const [query, expected] of cases) {
      const page = await data('finance', `/api/admin/orders?${query}`);
      expect(page.list.map((o: { id: number }) => o.id).length, query).toBe(expected.length);
      expect(page.total, query).toBe(expected.length);
      expect(
        page.list.every(
          (o: { state: string; refundedAmount: number }) => o.state === 'paid' && o.refundedAmount > 0,
        ),
      ).toBe(true);
    }
    const full = await data('owner', '/api/admin/orders?refund=full');
    expect(full.list[0]).toMatchObject({
      orderNo: orders.c,
      payAmount: 600,
      refundedAmount: 600,
      state: 'paid',
    });
    const res = await admin('owner', 'GET', '/api/admin/orders?refund=some');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ result: false, code: 400, data: { field: 'refund' } });
  });
});
