import { type Static, Type } from 'typebox';
import { BranchId, Cents, Id } from './envelope.ts';
import { UserInfo } from './users.ts';

export const AppType = Type.Union(
  [Type.Literal('wap_browser'), Type.Literal('ios_desk'), Type.Literal('shell'), Type.Literal('other')],
  { description: 'wap_browser 手机浏览器, ios_desk 添加到桌面, shell 安卓壳, other' },
);
export type AppType = Static<typeof AppType>;

/** What a pack sells: coins, VIP days, or the monthly card (月卡)'s claimable days. */
export const PayPurpose = Type.Union([Type.Literal('coin'), Type.Literal('vip'), Type.Literal('card')]);
export type PayPurpose = Static<typeof PayPurpose>;

export const RechargeQuery = Type.Object({ appType: Type.Optional(AppType) });

export const PayConfig = Type.Object({
  /** The pack's id: payPurposeId of the pay apply call. */
  id: Type.Integer(),
  type: PayPurpose,
  /** Price in cents. */
  amountLevel: Type.Integer(),
  /** Coins, or VIP days, or the monthly card's days. */
  itemCount: Type.Integer(),
  presentCount: Type.Integer(),
  title: Type.String(),
  configDesc: Type.String(),
  isDefault: Type.Union([Type.Literal('Y'), Type.Literal('N')]),
  isRecommend: Type.Union([Type.Literal('Y'), Type.Literal('N')]),
  initiatorCode: Type.String(),
  /**
   * The first-recharge offer this reader would get on this pack: extra coins on their first paid order. Only for
   * readers who have never paid, while the offer runs; absent otherwise.
   */
  firstPayBonus: Type.Optional(Type.Integer()),
});
export type PayConfig = Static<typeof PayConfig>;

export const PaySubType = Type.Object({
  subTypeCode: Type.String(),
  superiorCode: Type.Union([Type.Literal('alipay'), Type.Literal('wechat_pay'), Type.Literal('bank')]),
  initiatorCode: Type.String(),
  subTypeDesc: Type.String(),
  /** Below 10 shows as 'N折' and the payer pays amountLevel × discount / 10; 10 is no discount. */
  discount: Type.Number(),
});
export type PaySubType = Static<typeof PaySubType>;

export const RechargeResponse = Type.Object({
  userInfo: UserInfo,
  /** Coin balance, spelled as the spec spells it in this call. */
  availableAmount: Type.Integer(),
  payConfigs: Type.Array(PayConfig),
  subTypes: Type.Array(PaySubType),
});
export type RechargeResponse = Static<typeof RechargeResponse>;

/** GET {dynamic}/h5/pay/apply (spec section 7). */
export const PayApplyQuery = Type.Object({
  rechargerAmount: Type.Integer({ ...Cents, description: '应付金额（分），须等于套餐价乘以通道折扣' }),
  payPurposeId: Id,
  payChannel: Type.String({ maxLength: 64 }),
  payPurpose: PayPurpose,
  userId: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
  branchId: Type.Optional(BranchId),
  fromDomain: Type.Optional(Type.String({ maxLength: 253 })),
  appType: Type.Optional(AppType),
  vueReturnUrl: Type.Optional(Type.String({ maxLength: 2048 })),
  dynamicApiUrl: Type.Optional(Type.String({ maxLength: 2048 })),
});
export type PayApplyQuery = Static<typeof PayApplyQuery>;

/**
 * POST /api/pay/pay (spec section 7: defined, use not shown). It names no pack, so the pack is the one of this
 * purpose whose price after the channel's discount is rechargerAmount; it answers PayApplyApp as JSON whatever
 * the client (see docs/decisions.md, Payments).
 */
export const PayPayQuery = Type.Object({
  payChannel: Type.String({ maxLength: 64 }),
  payPurpose: PayPurpose,
  rechargerAmount: Type.Integer({ ...Cents, description: '应付金额（分）' }),
  appType: Type.Optional(AppType),
  branchId: Type.Optional(BranchId),
  fromDomain: Type.Optional(Type.String({ maxLength: 253 })),
  vueReturnUrl: Type.Optional(Type.String({ maxLength: 2048 })),
});
export type PayPayQuery = Static<typeof PayPayQuery>;

/** POST /api/pay/notify/{channel}: the gateway's server-to-server notification; its body is the gateway's. */
export const PayNotifyParams = Type.Object({ channel: Type.String({ maxLength: 64 }) });

/** What an app channel (appType shell or ios_desk) hands to the native wechat or alipay bridge. */
export const PayApplyApp = Type.Object({
  orderNo: Type.String(),
  payChannel: Type.String(),
  superiorCode: Type.String(),
  payAmount: Type.Integer(),
  /** The gateway's cashier address the bridge opens; the sandbox's own page. */
  payUrl: Type.String(),
  /** ISO 8601: when an unpaid order expires (a payment that arrives later is still credited). */
  expiresAt: Type.String(),
});
export type PayApplyApp = Static<typeof PayApplyApp>;

/**
 * GET /api/pay/last_paid_order (dynamic, session): the reader's latest paid order, for the after-payment dialog, so
 * the reader can keep its merchant order number (find-account asks for it). Null before any payment.
 */
export const LastPaidOrder = Type.Union([
  Type.Object({
    orderNo: Type.String(),
    /** China time, 'YYYY-MM-DD HH:mm'. */
    paidAt: Type.String(),
    /** Cents paid. */
    payAmount: Type.Integer(),
  }),
  Type.Null(),
]);
export type LastPaidOrder = Static<typeof LastPaidOrder>;
