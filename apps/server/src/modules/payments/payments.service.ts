import { DEFAULT_BRANCH, type PayConfig, type PaySubType, type RechargeResponse } from '@yueman/contract';
import { chinaTimeParts } from '../../shared/china-time.ts';
import { forbidden, unauthorized } from '../../shared/errors.ts';
import { accountBlocked } from '../../shared/signed-in.ts';
import type { BusinessEvent } from '../metrics/metrics.port.ts';
import type { UsersPort } from '../users/users.port.ts';
import type { WalletPort } from '../wallet/wallet.port.ts';
import {
  type GatewayRegistry,
  type PaymentGateway,
  type PaymentRequest,
  type PaymentStart,
  REAL_GATEWAYS,
} from './gateways/gateway.ts';
import { clientOf, discountOf, newOrderNo, payAmountAt, safeReturnUrl } from './order-rules.ts';
import {
  channelNotForClient,
  channelUnavailable,
  channelUnderMaintenance,
  noPackAtAmount,
  openInBrowserToPay,
  packNotOfPurpose,
  packUnavailable,
  wrongAmount,
} from './payments.errors.ts';
import type { PayChannel, PaymentsRepository, PayOrder, PayPack } from './payments.repository.ts';

export interface PaymentsDeps {
  repo: PaymentsRepository;
  /** The users' and the wallet's ports: who pays (user info, attribution), and crediting a paid order. */
  users: Pick<UsersPort, 'userInfo' | 'attributionOf'>;
  wallet: Pick<WalletPort, 'creditPaidOrder' | 'takeBackCoins' | 'shortenVipOnce' | 'shortenCardOnce'>;
  gateways: GatewayRegistry;
  publicOrigin: string;
  /** Origins of our own pages (pay apply must be navigated to from one of them). */
  ownOrigins: ReadonlySet<string>;
  /** Origin gateways notify; this server's own address unless PAY_NOTIFY_BASE says otherwise. */
  notifyBase: () => string;
  orderMinutes: number;
  /**
   * Whether a client at this address may pay through this gateway (all may when not given). The sandbox, on by
   * default for a local origin, takes payments from this machine only unless SANDBOX_PAY=true (docs/security.md).
   */
  clientMayUse?: (gatewayName: string, clientIp: string) => boolean;
  /** Counts orders and notifications (the metrics port). */
  count?: (event: BusinessEvent) => void;
}

/** A second apply for the same pack and channel this soon after the first is the same tap: it gets the same order. */
export const SAME_TAP_MS = 60_000;

export const DEFAULT_APP_TYPE = 'wap_browser';
export const notifyPath = (channel: string) => `/api/pay/notify/${encodeURIComponent(channel)}`;

const yesNo = (flag: boolean) => (flag ? 'Y' : 'N');

/** The first-recharge offer's extra coins on this pack at `now` (0 when it has none or it is not running). */
export const firstPayOffer = (
  pack: Pick<PayPack, 'firstPayBonus' | 'firstPayStartsAt' | 'firstPayEndsAt'>,
  now: Date,
) =>
  pack.firstPayBonus > 0 &&
  pack.firstPayStartsAt !== null &&
  pack.firstPayEndsAt !== null &&
  pack.firstPayStartsAt <= now &&
  now < pack.firstPayEndsAt
    ? pack.firstPayBonus
    : 0;

/**
 * The gateway that takes this client's payments on this channel, or why none does: not installed (or not for this
 * client: the sandbox from another machine), or not inside WeChat's own browser. Inside WeChat only WeChat Pay's
 * kind of channel can pay, and only through a gateway that works there (WeChat Pay with JSAPI; the sandbox, which
 * plays the provider of each channel): WeChat's browser opens neither Alipay's nor a bank's cashier.
 */
function gatewayFor(
  deps: Pick<PaymentsDeps, 'gateways' | 'clientMayUse'>,
  channel: PayChannel,
  client: { clientIp: string; inWechat?: boolean },
): { gateway: PaymentGateway } | { refused: 'maintenance' | 'not-in-wechat' } {
  const gateway = deps.gateways.forChannel(channel);
  if (!gateway || deps.clientMayUse?.(gateway.name, client.clientIp) === false)
    return { refused: 'maintenance' };
  if (client.inWechat && (!gateway.worksInWechat || channel.superiorCode !== 'wechat_pay'))
    return { refused: 'not-in-wechat' };
  return { gateway };
}

/**
 * Whether a pack or a channel is offered to a reader of this promotion branch: its code `default` (or empty) to
 * every branch, any other code only to the branch of that number. The branch is the reader's account's (set when
 * they first came, server-side), never one the client names.
 */
export const offeredToBranch = (initiatorCode: string, branchId: number) =>
  initiatorCode === 'default' || initiatorCode === '' || initiatorCode === String(branchId);

/** The recharge centre: packs, the channels offered to this client, and the reader's balance. */
export async function rechargeCentre(
  deps: PaymentsDeps,
  {
    userId,
    appType = DEFAULT_APP_TYPE,
    inWechat = false,
    clientIp,
  }: { userId: number; appType?: string; inWechat?: boolean; clientIp: string },
): Promise<RechargeResponse> {
  const [info, allPacks, allChannels, paidBefore, attribution] = await Promise.all([
    deps.users.userInfo(userId),
    deps.repo.activePacks(),
    deps.repo.channelsFor(appType),
    deps.repo.hasPaid(userId),
    deps.users.attributionOf(userId),
  ]);
  const branchId = attribution?.branchId ?? DEFAULT_BRANCH;
  const packs = allPacks.filter((p) => offeredToBranch(p.initiatorCode, branchId));
  const channels = allChannels.filter((c) => offeredToBranch(c.initiatorCode, branchId));
  const now = new Date();
  const payConfigs: PayConfig[] = packs.map((p) => ({
    id: p.id,
    type: p.type as PayConfig['type'],
    amountLevel: p.amountLevel,
    itemCount: p.itemCount,
    presentCount: p.presentCount,
    title: p.title,
    configDesc: p.configDesc,
    isDefault: yesNo(p.isDefault),
    isRecommend: yesNo(p.isRecommend),
    initiatorCode: p.initiatorCode,
    // The first-recharge offer, to readers who have never paid (the server decides; the page only shows it).
    ...(!paidBefore && firstPayOffer(p, now) > 0 ? { firstPayBonus: firstPayOffer(p, now) } : {}),
  }));
  // A channel no gateway would take this reader's payment on (not installed, not for this client, not inside
  // WeChat's own browser when the reader is there) is not offered.
  const subTypes: PaySubType[] = channels
    .filter((c) => 'gateway' in gatewayFor(deps, c, { clientIp, inWechat }))
    .map((c) => ({
      subTypeCode: c.subTypeCode,
      superiorCode: c.superiorCode as PaySubType['superiorCode'],
      initiatorCode: c.initiatorCode,
      subTypeDesc: c.subTypeDesc,
      discount: discountOf(c.discountPercent),
    }));
  return { userInfo: info, availableAmount: info.avaliableAmount, payConfigs, subTypes };
}

export interface ApplyInput {
  sessionUserId: number | null;
  claimedUserId?: number;
  /** The pack by id (pay apply), or the one pack of this purpose at this price (POST /api/pay/pay). */
  packId?: number;
  payPurpose: 'coin' | 'vip' | 'card';
  channelCode: string;
  rechargerAmount: number;
  appType: string;
  branchId?: number;
  fromDomain?: string;
  returnUrl?: string;
  traceId?: string;
  clientIp: string;
  /** The reader is in WeChat's own browser (by its user agent): only gateways that work there are offered. */
  inWechat?: boolean;
}

async function packFor(
  deps: PaymentsDeps,
  input: ApplyInput,
  channel: PayChannel,
  branchId: number,
): Promise<PayPack> {
  if (input.packId === undefined) {
    const matches = (await deps.repo.activePacks()).filter(
      (p) =>
        p.type === input.payPurpose &&
        offeredToBranch(p.initiatorCode, branchId) &&
        payAmountAt(p.amountLevel, channel.discountPercent) === input.rechargerAmount,
    );
    // The branch's own pack at that price before one for every branch.
    const own = matches.filter((p) => p.initiatorCode === String(branchId));
    const candidates = own.length > 0 ? own : matches;
    const [only] = candidates;
    if (!only || candidates.length > 1) throw noPackAtAmount();
    return only;
  }
  const pack = await deps.repo.pack(input.packId);
  if (!pack?.active || !offeredToBranch(pack.initiatorCode, branchId)) throw packUnavailable();
  if (pack.type !== input.payPurpose) throw packNotOfPurpose();
  return pack;
}

/**
 * Checks everything the client claims against the database, makes the order (with its 'created' event) and
 * asks the channel's gateway how the payer pays it. Nothing is credited here: only a verified notification does.
 */
export async function applyForPayment(
  deps: PaymentsDeps,
  input: ApplyInput,
): Promise<{ order: PayOrder; channel: PayChannel; start: PaymentStart }> {
  if (input.sessionUserId === null) throw unauthorized();
  // An empty userId parameter arrives as 0: like a missing one, it claims nothing.
  if (input.claimedUserId && input.claimedUserId !== input.sessionUserId) throw forbidden();

  const user = await deps.users.attributionOf(input.sessionUserId);
  if (!user) throw unauthorized();
  const channel = await deps.repo.channel(input.channelCode);
  if (!channel?.active || !offeredToBranch(channel.initiatorCode, user.branchId)) throw channelUnavailable();
  if (!channel.appTypes.includes(input.appType)) throw channelNotForClient();
  const found = gatewayFor(deps, channel, input);
  if ('refused' in found)
    throw found.refused === 'maintenance' ? channelUnderMaintenance() : openInBrowserToPay();
  const { gateway } = found;

  const pack = await packFor(deps, input, channel, user.branchId);
  const payAmount = payAmountAt(pack.amountLevel, channel.discountPercent);
  if (input.rechargerAmount !== payAmount) throw wrongAmount(payAmount);

  if (user.blocked) throw accountBlocked();
  const now = new Date();
  const offer = firstPayOffer(pack, now);
  const firstPayBonus = offer > 0 && !(await deps.repo.hasPaid(input.sessionUserId)) ? offer : 0;
  const returnUrl = safeReturnUrl(input.returnUrl, deps.publicOrigin);
  const { order, reused } = await deps.repo.createOrderOnce(
    {
      orderNo: newOrderNo(now),
      userId: input.sessionUserId,
      payConfigId: pack.id,
      purpose: pack.type,
      channel: channel.subTypeCode,
      gateway: gateway.name,
      amountLevel: pack.amountLevel,
      payAmount,
      itemCount: pack.itemCount,
      presentCount: pack.type === 'coin' ? pack.presentCount : 0,
      firstPayBonus,
      // Browsers navigating here send no x-trace-id: the account's visitor id stands in (find-account uses it).
      traceId: input.traceId ?? user.visitorId,
      clientIp: input.clientIp,
      branchId: input.branchId ?? user.branchId,
      appType: input.appType,
      fromDomain: (input.fromDomain ?? '').slice(0, 253),
      returnUrl,
      createdAt: now,
      expiresAt: new Date(now.getTime() + deps.orderMinutes * 60_000),
    },
    `${pack.title} via ${channel.subTypeCode}, ${payAmount} cents`,
    new Date(now.getTime() - SAME_TAP_MS),
  );
  if (!reused) deps.count?.({ event: 'order-created', purpose: pack.type });
  // Gateways take the same order number twice as the same payment (the sandbox answers its first cashier).
  const start = await gateway.createPayment({
    ...paymentRequestOf(deps, order, channel, gateway.name, pack.title),
    inWechat: input.inWechat,
  });
  return { order, channel, start };
}

/** Where WeChat's OAuth brings a reader paying inside WeChat back to (wechat-jsapi.routes.ts). */
export const JSAPI_RESUME_PATH = '/h5/pay/wechat/jsapi';
export const jsapiResumeUrl = (publicOrigin: string, orderNo: string) =>
  `${publicOrigin}${JSAPI_RESUME_PATH}?orderNo=${encodeURIComponent(orderNo)}`;

/** What a gateway is asked to collect for an order: the same on apply and when a WeChat payer comes back. */
export function paymentRequestOf(
  deps: Pick<PaymentsDeps, 'notifyBase' | 'publicOrigin'>,
  order: PayOrder,
  channel: Pick<PayChannel, 'subTypeCode' | 'superiorCode'>,
  gatewayName: string,
  subject: string,
): PaymentRequest {
  return {
    orderNo: order.orderNo,
    channel: channel.subTypeCode,
    superiorCode: channel.superiorCode,
    amount: order.payAmount,
    subject,
    expiresAt: order.expiresAt,
    client: clientOf(order.appType),
    // A real gateway notifies one address for all its channels (its name: alipay, wechat_pay); the sandbox, each
    // channel's own.
    notifyUrl: `${deps.notifyBase()}${notifyPath(REAL_GATEWAYS.has(gatewayName) ? gatewayName : channel.subTypeCode)}`,
    returnUrl: order.returnUrl,
    clientIp: order.clientIp || undefined,
    resumeUrl: jsapiResumeUrl(deps.publicOrigin, order.orderNo),
  };
}

/** The sweeper's pass: unpaid orders past their time become 'expired', each with its event. */
export const expireStaleOrders = (
  deps: Pick<PaymentsDeps, 'repo'>,
  { now = new Date() }: { now?: Date } = {},
) => deps.repo.expireStale(now);

/** The reader's last paid order, for the find-account screen: its number, China-time paid day and amount; or null. */
export async function lastPaidOrder({ repo }: Pick<PaymentsDeps, 'repo'>, { userId }: { userId: number }) {
  const order = await repo.lastPaidOrder(userId);
  if (!order?.paidAt) return null;
  const { orderNo, payAmount } = order;
  return { orderNo, paidAt: chinaTimeParts(order.paidAt).text, payAmount };
}
