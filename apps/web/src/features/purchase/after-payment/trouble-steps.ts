import { isAndroidShell } from '../../../lib/app-type.ts';
import { clientType } from '../../../lib/user-agent.ts';

type Client = 'android-app' | 'android-browser' | 'ios';

const CHECK_BILL = '打开支付宝或微信，在“我的 - 账单”中查看这笔付款是否已扣款。';
const STEPS: Record<Client, { title: string; steps: string[] }> = {
  'android-app': {
    title: '安卓客户端',
    steps: [
      CHECK_BILL,
      '已扣款：阅币和VIP一般在1分钟内到账，请回到“我的”页面查看余额。',
      '没有打开支付应用：请确认手机已安装支付宝或微信并更新到最新版本，然后重新充值。',
      '仍未到账：请联系客服，提供您的账号和付款截图。',
    ],
  },
  'android-browser': {
    title: '安卓浏览器',
    steps: [
      CHECK_BILL,
      '已扣款：请返回本页面，进入“我的”查看余额，一般在1分钟内到账。',
      '浏览器没有打开支付应用：请在提示时选择“允许打开”，或换用手机自带浏览器后重新充值。',
      '仍未到账：请联系客服，提供您的账号和付款截图。',
    ],
  },
  ios: {
    title: 'iPhone / iPad',
    steps: [
      CHECK_BILL,
      '付款后请点击支付页面的“完成”或“返回商家”；若停留在支付应用，请手动切回 Safari 或主屏幕上的阅漫。',
      '已扣款：进入“我的”查看余额，一般在1分钟内到账。',
      '仍未到账：请联系客服，提供您的账号和付款截图。',
    ],
  },
};

/** The troubleshooting steps for this client: the Android app, an Android browser, or iOS. */
export function troubleSteps() {
  if (isAndroidShell()) return STEPS['android-app'];
  return STEPS[clientType() === 'ios' ? 'ios' : 'android-browser'];
}
