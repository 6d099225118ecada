import { demoPaths } from './demo-geometry.ts';

interface RngLike {
  shuffle<T>(items: readonly T[]): T[];
}

export interface DemoAd {
  id: number;
  /** -1 url in the same window, -2 url in a new tab, 2 book bizId, 3 recharge centre. */
  jumpType: -1 | -2 | 2 | 3;
  bizId: number | null;
  url: string;
  imgPath: string;
  sort: number;
}
/** The demo's first-recharge offer on every coin pack. */
export const DEMO_FIRST_PAY = {
  firstPayBonus: 100,
  firstPayStartsAt: new Date('2026-01-01T00:00:00+08:00'),
  firstPayEndsAt: new Date('2031-01-01T00:00:00+08:00'),
} as const;

export interface DemoPayConfig {
  id: number;
  type: 'coin' | 'vip' | 'card';
  /** Price in cents. */
  amountLevel: number;
  /** Coins, or VIP days, or the monthly card's claimable days. */
  itemCount: number;
  presentCount: number;
  title: string;
  configDesc: string;
  isDefault: boolean;
  isRecommend: boolean;
  sort: number;
  /** The first-recharge offer: extra coins on a reader's first paid order, between these instants. */
  firstPayBonus?: number;
  firstPayStartsAt?: Date | null;
  firstPayEndsAt?: Date | null;
}
export interface DemoPayChannel {
  subTypeCode: string;
  superiorCode: 'alipay' | 'wechat_pay' | 'bank';
  subTypeDesc: string;
  /** 95 is shown as 9.5折. */
  discountPercent: number;
  appTypes: string[];
  gateway: string;
  sort: number;
}
export interface DemoBranchSettings {
  branchId: number;
  appDownloadUrl: string;
  appDownloadHome: string;
  customerServiceEmail: string;
  customerServiceQq: string;
}

const ALL_APP_TYPES = ['wap_browser', 'ios_desk', 'shell', 'other'];

/** The home carousel, the recharge centre's packs and channels, and the default branch's common info. */
export function demoShop(rng: RngLike, books: readonly { id: number; readCount: number }[]) {
  const hits = [...books].sort((a, b) => b.readCount - a.readCount || a.id - b.id);
  const [b1, b2, b3] = rng.shuffle(hits.slice(0, 8)).map((b) => b.id);
  const slots: Omit<DemoAd, 'id' | 'imgPath' | 'sort'>[] = [
    { jumpType: 2, bizId: b1 ?? 1, url: '' },
    { jumpType: 3, bizId: null, url: '' },
    { jumpType: 2, bizId: b2 ?? 2, url: '' },
    { jumpType: -1, bizId: null, url: '/home/kkbg' },
    { jumpType: -2, bizId: null, url: 'https://example.com/yueman/events/autumn' },
    { jumpType: 2, bizId: b3 ?? 3, url: '' },
    { jumpType: -1, bizId: null, url: '/category' },
  ];
  const ads: DemoAd[] = slots.map((s, i) => ({ ...s, id: i + 1, imgPath: demoPaths.ad(i + 1), sort: i + 1 }));

  const coin = (amount: number, present: number, extra: Partial<DemoPayConfig> = {}) => ({
    type: 'coin' as const,
    // What the carousel's recharge ad promises (新用户首充送 100 阅币): 100 coins more on a reader's first paid
    // order of any coin pack, through 2030 (China time); the console changes or ends it.
    ...DEMO_FIRST_PAY,
    amountLevel: amount,
    itemCount: amount,
    presentCount: present,
    title: `${amount}阅币`,
    configDesc:
      present > 0 ? `充${amount / 100}元，加赠${present}阅币` : `充${amount / 100}元，得${amount}阅币`,
    isDefault: false,
    isRecommend: false,
    ...extra,
  });
  const vip = (amount: number, days: number, title: string, extra: Partial<DemoPayConfig> = {}) => ({
    type: 'vip' as const,
    amountLevel: amount,
    itemCount: days,
    presentCount: 0,
    title,
    configDesc: `${days}天内VIP免费作品随心看`,
    isDefault: false,
    isRecommend: false,
    ...extra,
  });
  const payConfigs: DemoPayConfig[] = [
    coin(600, 0),
    coin(3000, 300, { isDefault: true }),
    coin(5000, 800, { isRecommend: true }),
    coin(10000, 2000),
    vip(3000, 30, '包月VIP'),
    vip(6800, 90, '季度VIP', { isRecommend: true }),
    vip(19800, 365, '年度VIP'),
    // The monthly card (月卡): 30 China days on which the reader claims the console's daily reward.
    {
      type: 'card' as const,
      amountLevel: 2500,
      itemCount: 30,
      presentCount: 0,
      title: '月卡',
      configDesc: '30天每日领取阅币',
      isDefault: false,
      isRecommend: false,
    },
  ].map((c, i) => ({ ...c, id: i + 1, sort: i + 1 }));

  const channel = (
    subTypeCode: string,
    superiorCode: DemoPayChannel['superiorCode'],
    subTypeDesc: string,
    discountPercent: number,
    appTypes: string[],
  ) => ({ subTypeCode, superiorCode, subTypeDesc, discountPercent, appTypes, gateway: 'sandbox' });
  const payChannels: DemoPayChannel[] = [
    channel('alipay_wap', 'alipay', '支付宝', 100, ['wap_browser', 'other']),
    channel('alipay_app', 'alipay', '支付宝', 100, ['shell', 'ios_desk']),
    channel('wechat_h5', 'wechat_pay', '微信支付', 95, ['wap_browser', 'other']),
    channel('wechat_app', 'wechat_pay', '微信支付', 95, ['shell', 'ios_desk']),
    channel('unionpay', 'bank', '银联/银行卡', 98, ALL_APP_TYPES),
  ].map((c, i) => ({ ...c, sort: i + 1 }));

  const branchSettings: DemoBranchSettings[] = [
    {
      branchId: -2,
      // No app exists: an empty address hides 下载APP (set one in the console's 客服与下载 when there is an app).
      appDownloadUrl: '',
      appDownloadHome: '',
      customerServiceEmail: 'kefu@example.com',
      customerServiceQq: '800123456',
    },
  ];
  return { ads, payConfigs, payChannels, branchSettings };
}
