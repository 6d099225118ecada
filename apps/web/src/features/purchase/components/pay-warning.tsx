import type { PayConfig, PaySubType } from '@yueman/contract';
import { Dialog } from 'antd-mobile';
import { discountLabel, payAmount, yuan } from '../pay-helpers.ts';

/** Payment must be completed within 2 minutes (spec section 9). */
export const PAY_WITHIN = '2分钟';

/** The warning before paying (spec section 4): pay within 2 minutes, with the channel and the amount due. */
export function PayWarning({
  pack,
  channel,
  onCancel,
  onConfirm,
}: {
  pack: PayConfig | null;
  channel: PaySubType | null;
  onCancel(): void;
  onConfirm(): void;
}) {
  const discount = channel ? discountLabel(channel.discount) : '';
  return (
    <Dialog
      visible={channel !== null}
      className="purchase-warning"
      title="温馨提示"
      content={
        pack &&
        channel && (
          <div className="purchase-warning-body">
            <p>
              请在<b>{PAY_WITHIN}</b>内完成支付
            </p>
            <p className="purchase-warning-sub">超时未支付，请重新下单</p>
            <dl className="purchase-warning-amount">
              <div>
                <dt>支付方式</dt>
                <dd>{channel.subTypeDesc}</dd>
              </div>
              <div>
                <dt>应付金额</dt>
                <dd>
                  <b>¥{yuan(payAmount(pack, channel))}</b>
                  {discount && <span className="purchase-warning-discount">已享{discount}</span>}
                </dd>
              </div>
            </dl>
          </div>
        )
      }
      actions={[
        [
          { key: 'cancel', text: '取消', onClick: onCancel },
          { key: 'confirm', text: '确认支付', bold: true, onClick: onConfirm },
        ],
      ]}
    />
  );
}
