import type { NoticeStatus } from '@yueman/contract';
import { startRealGateways } from '../../server/test/fakes/real-gateways-env.ts';
import { apiData, bookDetail, userInfo } from './api.ts';
import { signedInEditor } from './console-editor.ts';
import { expect, test } from './fixtures.ts';
import { type OwnServer, ownPort, startOwnServer } from './own-server.ts';
import { expectImageLoaded, expectReaderStarted, settledShot, WECHAT, waitForVisitor } from './support.ts';

// The WeChat return loop, walked on a phone inside WeChat's browser against a server of its own with WeChat notices
// on and the official account played by the WeChat fake on loopback: a new reader opens a book, is bound through
// WeChat's silent OAuth and follows it; subscribes in WeChat's popup (the fake, as WeChat, pushes the signed consent
// to our server; the page shows the count); an editor lets the next chapter out through the console's call; the 书架
// tab shows its red dot; the notices job (a pass a second here, NOTICES_PASS_SECONDS) sends exactly one notice to the
// fake; its link opens the new chapter with the reader's own account, in this WeChat and in a fresh one (the hand-off).
// WeChat's JS-SDK is a stub: a browser cannot be WeChat's web view. What it plays is only the client's part: the tap
// on the open tag reaches WeChat (the fake), and the tag's success event comes back with what WeChat says.

const port = ownPort(29);
const origin = `http://127.0.0.1:${port}`;
const TEMPLATE = 'TplNewChapter0001';

let gateways: Awaited<ReturnType<typeof startRealGateways>>;
let server: OwnServer | undefined;

test.use({ baseURL: origin });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  gateways = await startRealGateways();
  const oa = gateways.wechatPay.officialAccount;
  oa.registerTemplate(TEMPLATE);
  oa.setSiteOrigin(origin);
  // 服务器配置 as an operator registers it: our push URL (the Token is the fake's, and the server's below).
  oa.setPushUrl(`${origin}/h5/wechat/push`);
  server = await startOwnServer({
    port,
    name: 'wechat-return-loop',
    env: {
      ...gateways.env,
      WECHAT_NOTICE_TEMPLATES: `new_chapter=${TEMPLATE}`,
      WECHAT_PUSH_TOKEN: 'yuemanpush',
      NOTICES_PASS_SECONDS: '1',
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await gateways?.close();
});

/**
 * WeChat's JS-SDK, stubbed in this page: wx.config is kept and ready at once; a tap on `wx-open-subscribe` is the
 * reader accepting WeChat's popup for the tag's template, which WeChat (the fake) pushes to our server before the
 * tag's success event carries WeChat's `subscribeDetails` to the page.
 */
const JSSDK_STUB = `
window.wx = {
  config: function (c) {
    window.__wxConfig = c;
    if (window.__wxTaps) return;
    window.__wxTaps = true;
    document.addEventListener('click', function (e) {
      var tag = e.target instanceof Element ? e.target.closest('wx-open-subscribe') : null;
      if (!tag) return;
      window.__wechatPopup(tag.getAttribute('template')).then(function (details) {
        tag.dispatchEvent(new CustomEvent('success', { detail: { errMsg: 'subscribe:ok', subscribeDetails: details } }));
      });
    }, true);
  },
  ready: function (f) { f(); },
  error: function () {},
};`;

test('inside WeChat: follow, subscribe, the red dot, one notice, and its link back into the chapter', async ({
  device,
  playwright,
}) => {
  test.setTimeout(300_000);
  if (!server) throw new Error('no server');
  const oa = gateways.wechatPay.officialAccount;
  const consoleSide = await playwright.request.newContext({ baseURL: origin });
  const editor = await signedInEditor(consoleSide, origin, server.dataDir);

  // A serialized book whose newest chapter the editor has scheduled for later (free, so its notice opens it).
  let bookId = 0;
  let last = 0;
  for (let id = 12; id <= 64 && !bookId; id++) {
    const d = await bookDetail(consoleSide, id).catch(() => undefined);
    if (d?.book.publishStatus === 'serialize' && d.chapterList.length >= 3) {
      bookId = id;
      last = d.chapterList.at(-1)?.number ?? 0;
    }
  }
  expect(bookId).toBeGreaterThan(0);
  const chapterUrl = `/api/admin/books/${bookId}/chapters/${last}`;
  const later = await editor(chapterUrl, {
    publishAt: new Date(Date.now() + 3600_000).toISOString(),
    price: 0,
  });
  expect(later.ok(), await later.text()).toBe(true);

  // 1. A new reader inside WeChat opens the book.
  const openid = 'oE2eReturnLoop01';
  gateways.wechatPay.signInWechat(openid);
  const page = await device(WECHAT);
  await page.route('https://res.wx.qq.com/**', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: JSSDK_STUB }),
  );
  await page.exposeFunction('__wechatPopup', async (templateId: string) => {
    const answered = await oa.answerPopup(gateways.wechatPay.wechatUser(), [
      { templateId, status: 'accept' },
    ]);
    // Our server took WeChat's signed push (a refused one answers 403).
    expect(answered.pushed).toEqual({ status: 200, text: 'success' });
    return answered.subscribeDetails;
  });
  await page.goto(`/book/${bookId}`);
  const { userInfo: reader } = await waitForVisitor(page);
  const bind = page.locator('.wx-notice a.wx-notice-button');
  await expect(bind).toHaveText('更新提醒');
  await expect(page).toHaveURL(new RegExp(`/book/${bookId}$`));

  // Bound through WeChat's silent OAuth (the fake answers as the WeChat signed in), back on the book.
  await bind.click();
  await page.waitForURL(new RegExp(`/book/${bookId}(#.*)?$`));
  await expect(page.getByTestId('wx-notice-left')).toHaveText('未开启');
  // Follows it (收藏 is the follow, 追更).
  await page.getByRole('button', { name: '加入收藏' }).click();
  await expect(page.getByRole('button', { name: '取消收藏' })).toBeVisible();
  await settledShot(page, 'return-loop-1-followed');

  // 2. Subscribes: two taps, two accepts in WeChat's popup; each push WeChat signed counts one.
  const tag = page.locator('wx-open-subscribe');
  await expect(tag).toHaveAttribute('template', TEMPLATE);
  await expect(page.locator('.wx-notice-tag')).toHaveAttribute('data-ready', 'true');
  await tag.click();
  await expect(page.getByTestId('wx-notice-left')).toHaveText('剩余1次');
  await tag.click();
  await expect(page.getByTestId('wx-notice-left')).toHaveText('剩余2次');
  expect(oa.consentsLeft(openid, TEMPLATE)).toBe(2);
  await settledShot(page, 'return-loop-2-subscribed');

  // 3. The editor lets the chapter out; the 书架 tab has its red dot (我的 is a tab screen WeChat's browser stays on).
  const out = await editor(chapterUrl, { publishAt: null });
  expect(out.ok(), await out.text()).toBe(true);
  await page.goto('/user');
  const shelfTab = page.getByRole('tab', { name: /^书架/ });
  await expect(shelfTab).toHaveAttribute('aria-label', '书架，有更新');
  await expect(shelfTab.locator('.adm-badge-dot')).toBeVisible();
  await settledShot(page, 'return-loop-3-red-dot');

  // 4. The job's next pass sends the notice: exactly one, to this WeChat, for the template, linking back.
  const mine = () => oa.sent().filter((n) => n.openid === openid && n.templateId === TEMPLATE);
  await expect.poll(() => mine().length, { timeout: 30_000 }).toBe(1);
  // A few more passes send nothing more.
  await page.waitForTimeout(3000);
  expect(mine()).toHaveLength(1);
  const [notice] = mine();
  const to = `/book/read/${bookId}/${last}`;
  expect(notice?.page).toBe(`${origin}/h5/wechat/notice?to=${encodeURIComponent(to)}`);
  expect(notice?.data.thing2?.value).toBe(`第${last}话已更新`);
  expect(oa.consentsLeft(openid, TEMPLATE)).toBe(1);
  const status = await apiData<NoticeStatus>(page.request, '/api/notices/wechat');
  expect(status.templates).toEqual([{ kind: 'new_chapter', templateId: TEMPLATE, remaining: 1 }]);
  await page.goto(`/book/${bookId}`);
  await expect(page.getByTestId('wx-notice-left')).toHaveText('剩余1次');
  await settledShot(page, 'return-loop-4-count-dropped');

  // 5. WeChat opens the notice's link in this web view: the new chapter, read as the same account.
  // (A browser keeps the #wechat_redirect of WeChat's OAuth address across redirects whose Location has no fragment.)
  await page.goto(notice?.page ?? '');
  await page.waitForURL(new RegExp(`${to}(#wechat_redirect)?$`));
  await expectReaderStarted(page);
  await expect(page.locator('.reader-top')).toContainText(`第${last}话`);
  await expectImageLoaded(page.locator('.reader-page-img').first());
  expect((await userInfo(page)).account).toBe(reader.account);
  await settledShot(page, 'return-loop-5-chapter');

  // A WeChat web view that kept nothing of this site (a new phone, cleared storage): WeChat's OAuth says whose
  // WeChat it is, and the hand-off signs it in to that account, landing in the chapter.
  const fresh = await device(WECHAT);
  await fresh.goto(notice?.page ?? '');
  await expect(fresh.getByText(`已继续使用账号 ${reader.account}`)).toBeVisible();
  await fresh.waitForURL(new RegExp(`${to}(#wechat_redirect)?$`));
  await expectReaderStarted(fresh);
  await expect(fresh.locator('.reader-top')).toContainText(`第${last}话`);
  expect((await userInfo(fresh)).account).toBe(reader.account);
  await settledShot(fresh, 'return-loop-5-chapter-handoff');
  await consoleSide.dispose();
});
