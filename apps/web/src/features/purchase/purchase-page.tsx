import type { PayConfig, PaySubType } from '@yueman/contract';
import { Button } from 'antd-mobile';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ServiceLinks } from '../../components/service-links.tsx';
import { PacksSkeleton } from '../../components/skeletons/parts.tsx';
import { TopBar } from '../../components/top-bar.tsx';
import { useRecharge } from '../../lib/api/recharge.ts';
import { appType as detectAppType } from '../../lib/app-type.ts';
import { userPath } from '../../lib/paths.ts';
import { isWechatBrowser } from '../../lib/user-agent.ts';
import { useUserStore } from '../../lib/user-store.ts';
import { ChannelSheet } from './components/channel-sheet.tsx';
import { PackGrid } from './components/pack-grid.tsx';
import { PAY_WITHIN, PayWarning } from './components/pay-warning.tsx';
import { PURCHASE_SERVICE_HOURS, ServiceContact } from './components/service-contact.tsx';
import { WechatNotice } from './components/wechat-notice.tsx';
import { useStartPayment } from './hooks/use-start-payment.ts';
import { returnPath, yuan } from './pay-helpers.ts';
import './purchase.css';

/** /purchase?bookId=: the recharge centre. Pick a pack, press recharge, pick a channel, confirm the warning. */
export default function PurchasePage() {
  const [search] = useSearchParams();
  const appType = useMemo(() => detectAppType(), []);
  const inWechat = useMemo(() => isWechatBrowser(), []);
  const back = returnPath(search, inWechat);
  const recharge = useRecharge(appType);
  const data = recharge.data;
  const setUser = useUserStore((s) => s.setUser);
  const { start, starting } = useStartPayment(appType, back);

  const [picked, setPicked] = useState<number | null>(null);
  const [sheet, setSheet] = useState(false);
  const [channel, setChannel] = useState<PaySubType | null>(null);

  // The recharge call answers the user too: the account centre shows the same balance afterwards.
  useEffect(() => {
    if (data) setUser(data.userInfo);
  }, [data, setUser]);

  const packs = data?.payConfigs ?? [];
  const coinPacks = packs.filter((p) => p.type === 'coin');
  const vipPacks = packs.filter((p) => p.type === 'vip');
  const cardPacks = packs.filter((p) => p.type === 'card');
  // ?pack=card (the account centre's 月卡 line) opens with the card picked.
  const asked = search.get('pack') === 'card' ? cardPacks[0] : undefined;
  const fallback = asked ?? packs.find((p) => p.isDefault === 'Y') ?? coinPacks[0] ?? packs[0];
  const pack: PayConfig | null = packs.find((p) => p.id === picked) ?? fallback ?? null;
  const vip = data && data.userInfo.vipType !== 'none';

  const confirm = () => {
    if (!pack || !channel) return;
    setChannel(null);
    void start(pack, channel);
  };

  return (
    <main className="page purchase-page">
      <TopBar title="充值中心" />
      <section className="purchase-wallet" aria-label="我的余额">
        <div>
          <p className="purchase-wallet-label">阅币余额</p>
          <p className="purchase-wallet-value" data-testid="purchase-balance">
            {data ? data.availableAmount : '—'}
            <small>阅币</small>
          </p>
        </div>
        <div className="purchase-wallet-side">
          <p>账号 {data?.userInfo.account ?? '—'}</p>
          <p>{vip ? `VIP至 ${data.userInfo.vipEndDate}` : 'VIP 未开通'}</p>
        </div>
      </section>

      {inWechat && data && <WechatNotice account={data.userInfo.account} canPay={data.subTypes.length > 0} />}

      {recharge.isPending && (
        <div aria-busy="true">
          <PacksSkeleton />
        </div>
      )}
      {recharge.isError && (
        <div className="purchase-error" role="alert">
          <p>充值信息加载失败</p>
          <button type="button" className="list-retry" onClick={() => void recharge.refetch()}>
            重试
          </button>
        </div>
      )}

      {data && (
        <>
          <PackGrid
            title="充值阅币"
            packs={coinPacks}
            selectedId={pack?.id ?? null}
            onSelect={(p) => setPicked(p.id)}
          />
          <PackGrid
            title="开通VIP"
            packs={vipPacks}
            selectedId={pack?.id ?? null}
            onSelect={(p) => setPicked(p.id)}
          />
          <PackGrid
            title="月卡 · 每日领取"
            packs={cardPacks}
            selectedId={pack?.id ?? null}
            onSelect={(p) => setPicked(p.id)}
          />
          <section className="purchase-notes" aria-label="温馨提示">
            <h2>温馨提示</h2>
            <ol>
              <li>1元 = 100阅币，阅币永久有效，付费章节购买一次即可永久阅读。</li>
              <li>VIP有效期内，VIP免费作品可免费阅读；标明不属于VIP免费的作品仍需购买。</li>
              {cardPacks.length > 0 && (
                <li>
                  月卡自购买当天起生效，有效期内每天可在“我的”领取一次奖励，当天未领取不补发；续购天数累加。
                </li>
              )}
              <li>请在{PAY_WITHIN}内完成支付，超时请重新下单。</li>
              {back !== userPath() && <li>支付完成后将返回作品，继续阅读。</li>}
              <li>
                充值遇到问题请 <ServiceContact />
                ，客服在线时间：{PURCHASE_SERVICE_HOURS}
              </li>
            </ol>
          </section>
        </>
      )}
      <ServiceLinks />

      {data && pack && (
        <div className="purchase-bar">
          <p className="purchase-bar-pack">
            <span>{pack.title}</span>
            <b>¥{yuan(pack.amountLevel)}</b>
          </p>
          <Button color="primary" shape="rounded" loading={starting} onClick={() => setSheet(true)}>
            立即充值
          </Button>
        </div>
      )}

      <ChannelSheet
        visible={sheet}
        pack={pack}
        channels={data?.subTypes ?? []}
        onPick={(c) => {
          setSheet(false);
          setChannel(c);
        }}
        onClose={() => setSheet(false)}
      />
      <PayWarning pack={pack} channel={channel} onCancel={() => setChannel(null)} onConfirm={confirm} />
    </main>
  );
}
