// Paying inside WeChat's own browser (JSAPI) end to end, against the WeChat Pay fake on loopback, which also plays
// the official account's web OAuth and WeChat's bridge: pay apply → OAuth → back with a code → JSAPI order → the
// bridge's signed parameters → WeChat Pay's notification → credit. And what must not work: another reader's order,
// a swapped state, a reused code, an expired order, Alipay inside WeChat, WeChat without JSAPI configured.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type GatewayApp,
  gatewayAppPerFile,
  latestOrderOf,
  startGatewayApp,
} from '../../../test/real-gateways.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { registerVisitor, type TestVisitor } from '../../../test/visitors.ts';
import { payOrders } from '../../db/schema/index.ts';
import { applyUrl, balanceOf, demo, eventsOf, moneyState, orderByNo } from './payments.test-support.ts';

const WECHAT_UA =
  'Mozilla/5.0 (Linux; Android 13; V2227A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Mobile Safari/537.36 MicroMessenger/8.0.47.2560(0x28002F30) NetType/WIFI Language/zh_CN';

/** The bridge parameters the pay page hands WeixinJSBridge (its JSON script element). */
function bridgeOf(html: string) {
  const json = /<script type="application\/json" id="wechat-pay">([^<]*)<\/script>/.exec(html)?.[1];
  if (!json) throw new Error(`no bridge parameters in the page: ${html.slice(0, 300)}`);
  return JSON.parse(json) as { bridge: Record<string, string>; returnUrl: string };
}

describeDb('paying inside WeChat (JSAPI, the WeChat Pay fake on loopback)', () => {
  const app = gatewayAppPerFile();
  let t: TestApp;
  let gateways: GatewayApp['gateways'];
  beforeAll(() => {
    ({ t, gateways } = app);
  });

  const inWechat = (reader: TestVisitor) => ({ cookie: reader.cookie, 'user-agent': WECHAT_UA });

  /** Pay apply in WeChat for 3000 coins (+300) through wechat_h5: the browser is sent to the official account's OAuth. */
  async function apply(reader: TestVisitor, channel = 'wechat_h5', amount = 2850) {
    return t.app.inject({
      url: applyUrl({
        ...demo.coin3000,
        payChannel: channel,
        rechargerAmount: amount,
        vueReturnUrl: '/purchase',
      }),
      headers: inWechat(reader),
      remoteAddress: '203.0.113.9',
    });
  }

  /** WeChat's part of the OAuth: the fake answers 302 back to our resume address with a code and the state. */
  async function throughOauth(location: string) {
    const res = await fetch(location, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(String(res.headers.get('location')));
    return `${back.pathname}${back.search}`;
  }

  it('offers only channels that work inside WeChat there, and all of them elsewhere', async () => {
    const reader = await registerVisitor(t);
    const codes = async (headers: Record<string, string>) => {
      const res = await t.app.inject({ url: '/api/user/recharge?appType=wap_browser', headers });
      return (res.json().data.subTypes as { superiorCode: string }[]).map((c) => c.superiorCode);
    };
    const there = await codes(inWechat(reader));
    expect(there).toContain('wechat_pay');
    expect(there).not.toContain('alipay');
    expect(await codes({ cookie: reader.cookie })).toEqual(expect.arrayContaining(['alipay', 'wechat_pay']));
  });

  it('goes through the OAuth to the bridge, and credits once WeChat Pay notifies the payment', async () => {
    const reader = await registerVisitor(t);
    gateways.wechatPay.signInWechat(`oReader${reader.userId}`);
    const res = await apply(reader);
    expect(res.statusCode, res.body).toBe(302);
    const oauth = new URL(String(res.headers.location));
    expect(oauth.origin + oauth.pathname).toBe(`${gateways.wechatPay.baseUrl}/connect/oauth2/authorize`);
    expect(oauth.hash).toBe('#wechat_redirect');
    const order = await latestOrderOf(t, reader.userId);
    expect(Object.fromEntries(oauth.searchParams)).toEqual({
      appid: gateways.env.WECHATPAY_APPID,
      redirect_uri: `http://localhost:8080/h5/pay/wechat/jsapi?orderNo=${order.orderNo}`,
      response_type: 'code',
      scope: 'snsapi_base',
      state: order.orderNo,
    });

    const resume = await throughOauth(oauth.href);
    const page = await t.app.inject({ url: resume, headers: inWechat(reader) });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('¥28.50');
    const { bridge, returnUrl } = bridgeOf(page.body);
    expect(returnUrl).toBe('http://localhost:8080/purchase');
    const trade = gateways.wechatPay.trade(order.orderNo);
    expect(trade).toMatchObject({ tradeType: 'JSAPI', amount: 2850, payerOpenid: `oReader${reader.userId}` });
    expect(bridge).toMatchObject({ appId: gateways.env.WECHATPAY_APPID, signType: 'RSA' });
    expect(bridge.package).toBe(`prepay_id=${trade?.prepayId}`);
    const script = await t.app.inject({ url: '/h5/pay/wechat/bridge.js' });
    expect(script.body).toContain("WeixinJSBridge.invoke('getBrandWCPayRequest'");

    // A bridge parameter changed after signing is refused by WeChat: nothing paid.
    expect(gateways.wechatPay.bridgePay({ ...bridge, nonceStr: 'x' }).err_msg).toBe(
      'get_brand_wcpay_request:fail',
    );
    expect(gateways.wechatPay.bridgePay(bridge).err_msg).toBe('get_brand_wcpay_request:ok');
    await expect.poll(() => balanceOf(t.db, reader.userId), { timeout: 10_000 }).toBe(3300);
    expect(await orderByNo(t.db, order.orderNo)).toMatchObject({ status: 'paid', gateway: 'wechat_pay' });
    const sources = (await eventsOf(t.db, order.id)).map((e) => e.source);
    expect(sources).toContain('wechat_jsapi');

    // Back on the page later (a reload, the history): the order is paid, nothing is asked again.
    const again = await t.app.inject({ url: resume, headers: inWechat(reader) });
    expect(again.body).toContain('订单已支付');
  });

  it('refuses the order to another reader, and a state that is not the order’s, changing nothing', async () => {
    const reader = await registerVisitor(t);
    const stranger = await registerVisitor(t);
    const res = await apply(reader);
    const order = await latestOrderOf(t, reader.userId);
    const resume = await throughOauth(String(res.headers.location));
    const before = await moneyState(t.db);

    const theirs = await t.app.inject({ url: resume, headers: inWechat(stranger) });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toContain('订单不存在');
    const noSession = await t.app.inject({ url: resume, headers: { 'user-agent': WECHAT_UA } });
    expect(noSession.statusCode).toBe(404);
    const swapped = await t.app.inject({
      url: resume.replace(/state=[^&]+/, 'state=YM20260101AAAAAAAAAAAAAAAA'),
      headers: inWechat(reader),
    });
    expect(swapped.statusCode).toBe(400);
    expect(gateways.wechatPay.trade(order.orderNo)).toBeUndefined();
    expect(await moneyState(t.db)).toEqual(before);
  });

  it('asks WeChat for a fresh code once when the code was used (a reload), then gives up on a page', async () => {
    const reader = await registerVisitor(t);
    const res = await apply(reader);
    const resume = await throughOauth(String(res.headers.location));
    expect((await t.app.inject({ url: resume, headers: inWechat(reader) })).statusCode).toBe(200);
    const reload = await t.app.inject({ url: resume, headers: inWechat(reader) });
    expect(reload.statusCode).toBe(302);
    const fresh = new URL(String(reload.headers.location));
    expect(fresh.searchParams.get('redirect_uri')).toMatch(/&again=1$/);
    // The fresh code works and asks WeChat Pay again for the same order: the same prepay_id.
    const back = await throughOauth(fresh.href);
    const page = await t.app.inject({ url: back, headers: inWechat(reader) });
    expect(page.statusCode).toBe(200);
    // A used code on the second trip ends on a page, not in a loop.
    const stuck = await t.app.inject({ url: back, headers: inWechat(reader) });
    expect(stuck.statusCode).toBe(502);
    expect(stuck.body).toContain('微信授权失败');
  });

  it('says an expired order is over instead of asking WeChat for it', async () => {
    const reader = await registerVisitor(t);
    const res = await apply(reader);
    const order = await latestOrderOf(t, reader.userId);
    const resume = await throughOauth(String(res.headers.location));
    await t.db
      .update(payOrders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(payOrders.id, order.id));
    const page = await t.app.inject({ url: resume, headers: inWechat(reader) });
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('订单已过期');
    expect(gateways.wechatPay.trade(order.orderNo)).toBeUndefined();
  });

  it('refuses Alipay inside WeChat at pay apply, with nothing made', async () => {
    const reader = await registerVisitor(t);
    const res = await apply(reader, 'alipay_wap', 3000);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('请在浏览器中打开');
    const orders = await t.db.select().from(payOrders).where(eq(payOrders.userId, reader.userId));
    expect(orders).toEqual([]);
  });
});

describe('WeChat Pay without JSAPI configured (no WECHATPAY_APPSECRET)', () => {
  let g: GatewayApp;
  beforeAll(async () => {
    g = await startGatewayApp({ env: { WECHATPAY_APPSECRET: '' } });
    return () => g.close();
  });

  it('offers no WeChat Pay inside WeChat, refuses its apply there, and H5 works outside', async () => {
    const reader = await registerVisitor(g.t);
    const headers = { cookie: reader.cookie, 'user-agent': WECHAT_UA };
    const recharge = await g.t.app.inject({ url: '/api/user/recharge?appType=wap_browser', headers });
    const codes = (recharge.json().data.subTypes as { superiorCode: string }[]).map((c) => c.superiorCode);
    expect(codes).not.toContain('wechat_pay');
    const url = applyUrl({ ...demo.coin3000, payChannel: 'wechat_h5', rechargerAmount: 2850 });
    const there = await g.t.app.inject({ url, headers });
    expect(there.statusCode).toBe(400);
    const outside = await g.t.app.inject({ url, headers: { cookie: reader.cookie } });
    expect(outside.statusCode).toBe(302);
    expect(String(outside.headers.location)).toContain('/cgi-bin/mmpayweb-bin/checkmweb');
    // No JSAPI return either: the address is only the web app's page, never a trip to WeChat's OAuth.
    const resume = await g.t.app.inject({ url: '/h5/pay/wechat/jsapi?orderNo=YM1', headers });
    expect(resume.statusCode).not.toBe(302);
  });
});
