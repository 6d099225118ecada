import type { LastPaidOrder } from '@yueman/contract';
import { Dialog, Toast } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { isAndroidShell } from '../lib/app-type.ts';
import { fetchLastPaidOrder } from '../lib/last-paid-order.ts';
import { clientType } from '../lib/user-agent.ts';
import { refreshUser } from '../lib/user-info.ts';
import { useUserStore } from '../lib/user-store.ts';
import './after-payment-dialog.css';

const SERVICE_HOURS = '10:00-21:00';

type Client = 'android-app' | 'android-browser' | 'ios';

function troubleClient(): Client {
  if (isAndroidShell()) return 'android-app';
  return clientType() === 'ios' ? 'ios' : 'android-browser';
}

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

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    Toast.show({ content: '账号和密码已复制', duration: 1500 });
  } catch {
    Toast.show({ content: '请长按选择文字复制', duration: 1500 });
  }
}

/**
 * The after-payment dialogs (spec section 4): did the payment succeed? Yes refreshes the user and shows the
 * account and password to keep, with a nudge to bind a mobile; no shows troubleshooting steps for this client.
 */
export default function AfterPaymentDialogs() {
  const navigate = useNavigate();
  const [step, setStep] = useState<'closed' | 'ask' | 'yes' | 'no'>('ask');
  // The order number is what find-account asks for later; a notification may still be on its way, so a
  // missing one simply is not shown.
  const [order, setOrder] = useState<LastPaidOrder>(null);
  const userInfo = useUserStore((s) => s.userInfo);
  const password = useUserStore((s) => s.password);

  useEffect(() => {
    if (step !== 'yes') return;
    // The gateway's notification may land a moment after the reader comes back: ask a few times.
    let tries = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      const found = await fetchLastPaidOrder().catch(() => null);
      if (found) setOrder(found);
      else if (++tries < 8) timer = setTimeout(ask, 1500);
    };
    void ask();
    return () => clearTimeout(timer);
  }, [step]);

  const close = () => setStep('closed');
  const account = userInfo?.account ?? '';
  const trouble = STEPS[troubleClient()];
  const { commonInfo } = useUserStore.getState();

  return (
    <>
      <Dialog
        visible={step === 'ask'}
        className="after-pay"
        title="支付结果确认"
        content={<p className="after-pay-center">您是否已完成支付？</p>}
        actions={[
          [
            { key: 'no', text: '遇到问题', onClick: () => setStep('no') },
            {
              key: 'yes',
              text: '已完成支付',
              bold: true,
              onClick: () => {
                setStep('yes');
                void refreshUser();
              },
            },
          ],
        ]}
      />
      <Dialog
        visible={step === 'yes'}
        className="after-pay"
        title="充值成功，请保存账号"
        content={
          <div className="after-pay-body" data-testid="after-pay-account">
            <p>换手机或清除浏览器数据后，请用此账号登录，充值不会丢失。</p>
            <dl className="after-pay-fields">
              <div>
                <dt>账号</dt>
                <dd data-testid="after-pay-account-name">{account || '—'}</dd>
              </div>
              <div>
                <dt>密码</dt>
                <dd data-testid="after-pay-password">{password || '—'}</dd>
              </div>
              {order && (
                <div>
                  <dt>订单号</dt>
                  <dd data-testid="after-pay-order-no">{order.orderNo}</dd>
                </div>
              )}
            </dl>
            {order && <p className="after-pay-hint">找回账号时需要填写支付日期和订单号，请一并保存。</p>}
            {account && password && (
              <button
                type="button"
                className="after-pay-copy"
                onClick={() =>
                  void copy(`账号：${account} 密码：${password}${order ? ` 订单号：${order.orderNo}` : ''}`)
                }
              >
                {order ? '复制账号、密码和订单号' : '复制账号和密码'}
              </button>
            )}
            {!userInfo?.mobile && <p className="after-pay-hint">建议绑定手机号，忘记密码也能登录。</p>}
          </div>
        }
        actions={[
          userInfo?.mobile
            ? [{ key: 'ok', text: '我已保存', bold: true, onClick: close }]
            : [
                { key: 'later', text: '我已保存', onClick: close },
                {
                  key: 'bind',
                  text: '绑定手机',
                  bold: true,
                  onClick: () => {
                    close();
                    navigate('/user/bind');
                  },
                },
              ],
        ]}
      />
      <Dialog
        visible={step === 'no'}
        className="after-pay"
        title="支付遇到问题？"
        content={
          <div className="after-pay-body" data-testid="after-pay-trouble">
            <p className="after-pay-client">请按以下步骤排查（{trouble.title}）：</p>
            <ol className="after-pay-steps">
              {trouble.steps.map((s) => (
                <li key={s}>{s}</li>
              ))}
            </ol>
            <p className="after-pay-service">
              您的账号：<b>{account || '—'}</b>
              <br />
              客服在线时间：{SERVICE_HOURS}
              {commonInfo?.customerServiceQQ && (
                <>
                  <br />
                  客服QQ：{commonInfo.customerServiceQQ}
                </>
              )}
              {commonInfo?.customerServiceEmail && (
                <>
                  <br />
                  客服邮箱：{commonInfo.customerServiceEmail}
                </>
              )}
            </p>
          </div>
        }
        actions={[
          [
            {
              key: 'retry',
              text: '重新充值',
              onClick: () => {
                close();
                navigate('/purchase');
              },
            },
            { key: 'ok', text: '我知道了', bold: true, onClick: close },
          ],
        ]}
      />
    </>
  );
}
