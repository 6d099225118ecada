import type { LastPaidOrder } from '@yueman/contract';
import { Dialog } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { refreshUser } from '../../../lib/api/user-info.ts';
import { bindPath, purchasePath } from '../../../lib/paths.ts';
import { useUserStore } from '../../../lib/user-store.ts';
import { fetchLastPaidOrder } from '../api/last-paid-order.ts';
import { PaidAccount } from './paid-account.tsx';
import { TroubleNotes } from './trouble-notes.tsx';
import './after-payment.css';

/** The gateway's notification may land a moment after the reader comes back: the order is asked a few times. */
const ORDER_TRIES = 8;
const ORDER_RETRY_MS = 1500;

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
    let tries = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      const found = await fetchLastPaidOrder().catch(() => null);
      if (found) setOrder(found);
      else if (++tries < ORDER_TRIES) timer = setTimeout(ask, ORDER_RETRY_MS);
    };
    void ask();
    return () => clearTimeout(timer);
  }, [step]);

  const close = () => setStep('closed');
  /** Closes the dialog and goes on to another screen. */
  const closeFor = (to: string) => () => {
    close();
    navigate(to);
  };
  const account = userInfo?.account ?? '';
  const mobile = userInfo?.mobile ?? '';

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
        content={<PaidAccount account={account} password={password} order={order} mobile={mobile} />}
        actions={[
          mobile
            ? [{ key: 'ok', text: '我已保存', bold: true, onClick: close }]
            : [
                { key: 'later', text: '我已保存', onClick: close },
                { key: 'bind', text: '绑定手机', bold: true, onClick: closeFor(bindPath()) },
              ],
        ]}
      />
      <Dialog
        visible={step === 'no'}
        className="after-pay"
        title="支付遇到问题？"
        content={<TroubleNotes account={account} />}
        actions={[
          [
            { key: 'retry', text: '重新充值', onClick: closeFor(purchasePath()) },
            { key: 'ok', text: '我知道了', bold: true, onClick: close },
          ],
        ]}
      />
    </>
  );
}
