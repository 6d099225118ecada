import type { PayConfig, PaySubType } from '@yueman/contract';
import { Popup } from 'antd-mobile';
import { discountLabel, groupChannels, payAmount, yuan } from '../pay-helpers.ts';
import { PURCHASE_SERVICE_HOURS, ServiceContact } from './service-contact.tsx';

/** Pick a pay channel for the chosen pack: grouped by alipay, wechat_pay and bank, discounts shown as 'N折'. */
export function ChannelSheet({
  visible,
  pack,
  channels,
  onPick,
  onClose,
}: {
  visible: boolean;
  pack: PayConfig | null;
  channels: PaySubType[];
  onPick(channel: PaySubType): void;
  onClose(): void;
}) {
  const groups = groupChannels(channels);
  return (
    <Popup
      visible={visible}
      onMaskClick={onClose}
      onClose={onClose}
      showCloseButton
      bodyClassName="channel-sheet"
      destroyOnClose
    >
      <h2 className="channel-sheet-title">选择支付方式</h2>
      {pack && (
        <p className="channel-sheet-pack">
          {pack.title}
          <b>¥{yuan(pack.amountLevel)}</b>
        </p>
      )}
      {groups.length === 0 ? (
        <div className="channel-empty" role="status">
          <p>充值通道维护中......</p>
          <p>
            请稍后再试，或 <ServiceContact />
          </p>
          <p className="channel-empty-hours">客服在线时间：{PURCHASE_SERVICE_HOURS}</p>
        </div>
      ) : (
        <div className="channel-groups">
          {groups.map((group) => (
            <section key={group.code} className="channel-group" aria-label={group.label}>
              <h3 className={`channel-group-title channel-${group.code}`}>{group.label}</h3>
              {group.channels.map((channel) => {
                const discount = discountLabel(channel.discount);
                const amount = pack ? payAmount(pack, channel) : 0;
                return (
                  <button
                    key={channel.subTypeCode}
                    type="button"
                    className="channel"
                    data-testid={`channel-${channel.subTypeCode}`}
                    onClick={() => onPick(channel)}
                  >
                    <span className="channel-name">{channel.subTypeDesc}</span>
                    {discount && <span className="channel-discount">{discount}</span>}
                    {pack && (
                      <span className="channel-price">
                        {discount && <s>¥{yuan(pack.amountLevel)}</s>}¥{yuan(amount)}
                      </span>
                    )}
                  </button>
                );
              })}
            </section>
          ))}
        </div>
      )}
    </Popup>
  );
}
