import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../../db/client.ts';
import type { AuditEntry } from '../operators/index.ts';
import { type NotificationInput, REAL_GATEWAYS } from './gateways/gateway.ts';
import { UNKNOWN_CHANNEL } from './notify.service.ts';
import {
  gatewayCannotRefund,
  gatewayRefundsItself,
  orderNotFound,
  orderNotPaid,
  refundTooLarge,
} from './payments.errors.ts';
import type { PayRefund } from './payments.repository.ts';
import { notifyPath, type PaymentsDeps } from './payments.service.ts';

/** Our refund number: the same order and the operator's request id always give the same one (a second tap). */
export const refundNoOf = (orderNo: string, requestId: string) =>
  `RF${createHash('sha256').update(`${orderNo}\n${requestId}`).digest('hex').slice(0, 24).toUpperCase()}`;

export const refundView = (r: PayRefund) => ({
  refundNo: r.refundNo,
  amount: r.amount,
  reason: r.reason,
  state: r.state as 'processing' | 'success' | 'failed',
  gatewayRefundNo: r.gatewayRefundNo,
  coins: r.coins as 'take' | 'keep',
  coinsTaken: r.coinsTaken,
  kind: r.kind as 'gateway' | 'offline',
  actor: r.actor,
  createdAt: r.createdAt.toISOString(),
});

/**
 * Gives money back through the order's gateway (docs/payments.md, "Refunds"): part or all of what the payer paid,
 * never more than is left, under a refund number made from the order and the request id, so a repeated request
 * (a second tap, a retry after a lost answer) asks the gateway with the same number and refunds once. A refund
 * whose outcome is not known yet stays `processing`; asking again finishes it. Coins are not taken back here.
 */
export async function refundOrder(
  deps: Pick<PaymentsDeps, 'repo' | 'gateways' | 'notifyBase' | 'wallet'> & {
    audit(q: Queryable, entry: AuditEntry): Promise<unknown>;
  },
  input: {
    orderNo: string;
    amount: number;
    reason: string;
    requestId: string;
    coins?: 'take' | 'keep';
    /** 线下已退款: a refund made outside, recorded (only where the gateway cannot refund). */
    offline?: boolean;
    by: { operatorId: number; actor: string };
  },
) {
  const order = await deps.repo.orderByNo(input.orderNo);
  if (!order) throw orderNotFound();
  if (order.status !== 'paid' || !order.gatewayTradeNo) throw orderNotPaid();
  const gateway = deps.gateways.get(order.gateway);
  const offline = input.offline === true;
  // 线下已退款 only where the gateway cannot refund; through the gateway wherever it can.
  if (offline && gateway?.refund) throw gatewayRefundsItself();
  if (!offline && !gateway?.refund) throw gatewayCannotRefund();
  const refundNo = refundNoOf(order.orderNo, input.requestId);
  const coins = input.coins ?? 'keep';
  const once = await deps.repo.refundOnce(
    {
      refundNo,
      orderId: order.id,
      amount: input.amount,
      reason: input.reason,
      coins,
      kind: offline ? 'offline' : 'gateway',
      // Made outside and told to us by the operator: done at once.
      state: offline ? 'success' : 'processing',
      actor: input.by.actor,
    },
    order.payAmount,
    (tx) =>
      deps.audit(tx, {
        ...input.by,
        action: offline ? 'order.refund.offline' : 'order.refund',
        target: `order:${order.orderNo}`,
        before: null,
        after: {
          refundNo,
          amount: input.amount,
          reason: input.reason,
          coins,
          kind: offline ? 'offline' : 'gateway',
        },
      }),
  );
  if (!once.refund) throw refundTooLarge(once.left);
  const { refund } = once;
  if (once.created && refund.kind === 'offline') {
    await deps.repo.note(order, {
      source: 'refund',
      detail: `线下已退款 ${refundNo}：${(refund.amount / 100).toFixed(2)} 元（${refund.reason}）`,
    });
  }
  // Settled already (a repeated request after the answer came): nothing to ask; its coins choice done once.
  if (refund.state !== 'processing') return refundView((await coinsOnce(deps, refund.refundNo)) ?? refund);
  if (!gateway?.refund) throw gatewayCannotRefund();
  const answer = await gateway.refund({
    orderNo: order.orderNo,
    tradeNo: order.gatewayTradeNo,
    refundNo,
    amount: refund.amount,
    total: order.payAmount,
    reason: refund.reason,
    notifyUrl: `${deps.notifyBase()}${notifyPath(gateway.name)}/refund`,
  });
  const settled = await deps.repo.settleRefund(
    refundNo,
    answer.state,
    answer.state === 'failed' ? undefined : answer.refundTradeNo,
  );
  await deps.repo.note(order, {
    source: 'refund',
    detail: `${gateway.name} refund ${refundNo} ${refund.amount} cents: ${answer.state}${answer.state === 'failed' ? ` (${answer.reason})` : ''}`,
    payload: answer.raw,
  });
  return refundView((await coinsOnce(deps, refundNo)) ?? settled ?? refund);
}

/**
 * A succeeded refund's coins choice, or a VIP or card order's days, once (payments.repository settleGivenOnce): coins
 * taken back under the transfer id `refund:{refundNo}:coins`, VIP days under the adjustment id `vip:refund:{orderNo}`,
 * card days under the card change id `refund:{orderNo}`, so even a second run could not take twice. Answers the refund as it is after.
 */
async function coinsOnce(deps: Pick<PaymentsDeps, 'repo' | 'wallet'>, refundNo: string) {
  await deps.repo.settleGivenOnce(refundNo, {
    coins: (tx, order, most) =>
      deps.wallet.takeBackCoins(tx, {
        transferId: `refund:${refundNo}:coins`,
        userId: order.userId,
        most,
        memo: `退款 ${refundNo}`,
      }),
    vip: (tx, order, days) =>
      deps.wallet.shortenVipOnce(tx, { id: `vip:refund:${order.orderNo}`, userId: order.userId, days }),
    card: (tx, order, days) =>
      deps.wallet.shortenCardOnce(tx, { orderNo: order.orderNo, userId: order.userId, days }),
  });
  return deps.repo.refundByNo(refundNo);
}

/** A gateway's notification of a refund's outcome (WeChat Pay): verified, then the refund and the order's story. */
export async function handleRefundNotification(
  deps: Pick<PaymentsDeps, 'repo' | 'gateways' | 'wallet'>,
  input: NotificationInput & { log: FastifyBaseLogger },
) {
  const gateway = REAL_GATEWAYS.has(input.channel) ? deps.gateways.get(input.channel) : undefined;
  if (!gateway?.verifyRefundNotification) return { ok: false, ack: UNKNOWN_CHANNEL };
  const verified = await gateway.verifyRefundNotification(input);
  if (!verified.ok) {
    input.log.warn(
      { payments: 'refund-notify-refused', reason: verified.reason },
      'refund notification refused',
    );
    return { ok: false, ack: gateway.acknowledge(false) };
  }
  const { refund } = verified;
  const order = await deps.repo.orderByNo(refund.orderNo);
  const known = order
    ? await deps.repo.settleRefund(refund.refundNo, refund.state, refund.refundTradeNo)
    : undefined;
  if (known) await coinsOnce(deps, refund.refundNo);
  if (order) {
    await deps.repo.note(order, {
      source: 'refund-notify',
      detail: `${gateway.name} refund ${refund.refundNo}: ${refund.state}${known ? '' : ' (not ours)'}`,
      payload: refund.raw,
    });
  }
  return { ok: true, ack: gateway.acknowledge(true) };
}
