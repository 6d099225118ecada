import { startRealGateways } from '../../server/test/fakes/real-gateways-env.ts';
import { userInfo } from './api.ts';
import { expect, test } from './fixtures.ts';
import { type OwnServer, ownPort, startOwnServer } from './own-server.ts';
import { settledShot, WECHAT } from './support.ts';

// 更新提醒 inside WeChat, with WeChat notices configured on a server of its own and the official account played by the
// WeChat fake on loopback. A browser cannot be WeChat: the real `wx-open-subscribe` tag needs WeChat's own web view,
// so WeChat's JS-SDK is replaced by a stub here. What is checked: the button renders on the book page, binding goes
// through WeChat's OAuth and back, the page asks the server for wx.config and WeChat's check of that signature
// passes, and the count WeChat's push made shows.

const port = ownPort(11);
const origin = `http://127.0.0.1:${port}`;
const TEMPLATE = 'TplNewChapter0001';

let gateways: Awaited<ReturnType<typeof startRealGateways>>;
let server: OwnServer | undefined;

test.use({ baseURL: origin });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  gateways = await startRealGateways();
  const oa = gateways.wechatPay.officialAccount;
  oa.registerTemplate(TEMPLATE);
  oa.setSiteOrigin(origin);
  server = await startOwnServer({
    port,
    name: 'wechat-notices',
    env: {
      ...gateways.env,
      WECHAT_NOTICE_TEMPLATES: `new_chapter=${TEMPLATE}`,
      WECHAT_PUSH_TOKEN: 'yuemanpush',
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await gateways?.close();
});

test('inside WeChat the book page offers 更新提醒: bind, the signed wx.config, the remaining count', async ({
  device,
}) => {
  const page = await device(WECHAT);
  // WeChat's JS-SDK, stubbed: it keeps what wx.config was given and is ready at once.
  await page.route('https://res.wx.qq.com/**', (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: 'window.wx={config:function(c){window.__wxConfig=c},ready:function(f){f()},error:function(){}};',
    }),
  );
  await page.goto('/book/1');
  const bind = page.locator('.wx-notice a.wx-notice-button');
  await expect(bind).toHaveText('更新提醒');
  await expect(page.locator('.wx-notice-left')).toHaveText('微信通知你更新');
  await settledShot(page, 'wechat-notice-unbound');

  // Binding: WeChat's silent OAuth (the fake answers as the WeChat signed in) and back to the book.
  const openid = 'oE2eReader0001';
  gateways.wechatPay.signInWechat(openid);
  const configCall = page.waitForResponse((r) => r.url().endsWith('/api/notices/wechat/config'));
  await bind.click();
  // The browser keeps the OAuth address's #wechat_redirect across the redirects back.
  await page.waitForURL(/\/book\/1(#.*)?$/);
  const config = (await (await configCall).json()).data;
  expect(config.openTagList).toEqual(['wx-open-subscribe']);
  const signedFor = await page.evaluate(() => location.href.split('#')[0] ?? '');
  expect(gateways.wechatPay.officialAccount.checkConfig(signedFor, config)).toBe(true);
  await expect(page.getByTestId('wx-notice-left')).toHaveText('未开启');
  await expect(page.locator('wx-open-subscribe')).toHaveAttribute('template', TEMPLATE);

  // The reader accepts in WeChat's popup: WeChat pushes it to the server, and the count shows.
  const { userId } = await userInfo(page);
  expect(userId).toBeGreaterThan(0);
  const push = gateways.wechatPay.officialAccount.popup(openid, [{ templateId: TEMPLATE, status: 'accept' }]);
  const res = await fetch(`${origin}/h5/wechat/push?${push.query}`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml' },
    body: push.body,
  });
  expect(await res.text()).toBe('success');
  await page.reload();
  await expect(page.getByTestId('wx-notice-left')).toHaveText('剩余1次');
  await settledShot(page, 'wechat-notice-subscribed');
});
