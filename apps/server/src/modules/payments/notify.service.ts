import type { FastifyBaseLogger } from 'fastify';
import {
  type Acknowledgement,
  type NotificationInput,
  REAL_GATEWAYS,
  type VerifiedNotification,
} from './gateways/gateway.ts';
import { orderRef } from './order-ref.ts';
import type { PayOrder } from './payments.repository.ts';
import type { PaymentsDeps } from './payments.service.ts';

/** A notification for a channel (or a gateway) this server does not take: the envelope, and nothing done. */
export const UNKNOWN_CHANNEL: Acknowledgement = {
  status: 400,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify({ result: false, code: 400, msg: 'unknown channel', data: null }),
};

/** recorded: a verified notification of a state that is not a payment (WAIT_BUYER_PAY, CLOSED): kept, nothing moves. */
export type NotificationOutcome = 'credited' | 'duplicate' | 'recorded' | 'refused';

/**
 * A gateway's notification. The signature first; then the order, its amount, our merchant id and the channel;
 * then one transaction moves the order to paid (conditionally: a duplicate finds it paid and changes nothing)
 * and credits coins or VIP days under deterministic ids. Anything wrong is refused, logged with the reason,
 * recorded on the order when the order is known, and changes nothing.
 */
export async function handleNotification(
  deps: PaymentsDeps,
  input: NotificationInput & { log: FastifyBaseLogger },
): Promise<{ outcome: NotificationOutcome; ack: Acknowledgement }> {
  const { log } = input;
  // A real gateway notifies at its own name (/api/pay/notify/alipay); the sandbox at each channel's code.
  const real = REAL_GATEWAYS.has(input.channel) ? deps.gateways.get(input.channel) : undefined;
  const channel = real ? undefined : await deps.repo.channel(input.channel);
  const gateway = real ?? (channel ? deps.gateways.forChannel(channel) : undefined);
  if (!gateway) {
    log.warn({ payments: 'notify-refused', channel: input.channel }, 'notification for an unknown channel');
    return { outcome: 'refused', ack: UNKNOWN_CHANNEL };
  }
  const refuse = async (reason: string, order?: PayOrder) => {
    log.warn(
      { payments: 'notify-refused', channel: input.channel, order: order && orderRef(order.orderNo), reason },
      'notification refused',
    );
    if (order) {
      await deps.repo.note(order, {
        source: 'notify',
        detail: `refused: ${reason}`,
      });
    }
    return { outcome: 'refused' as const, ack: gateway.acknowledge(false) };
  };

  const verification = await gateway.verifyNotification(input);
  if (!verification.ok) return refuse(verification.reason);
  const paid = verification.notification;
  const order = await deps.repo.orderByNo(paid.orderNo);
  if (!order) return refuse(`unknown order ${paid.orderNo}`);
  if (paid.merchantId !== gateway.merchantId) return refuse(`merchant ${paid.merchantId} is not ours`, order);
  if (order.gateway !== gateway.name) return refuse(`order is on gateway ${order.gateway}`, order);
  if (!real && order.channel !== input.channel) return refuse(`order is on channel ${order.channel}`, order);
  if (paid.amount !== order.payAmount)
    return refuse(`amount ${paid.amount}, order asks ${order.payAmount}`, order);
  if (paid.paid === false) {
    // Not a payment (the payer has not paid yet, the trade closed): kept with the order, acknowledged so the
    // gateway stops sending it, and nothing changes.
    await deps.repo.note(order, {
      source: 'notify',
      detail: `${gateway.name} says ${paid.state ?? 'not paid'}`,
      payload: paid.raw ?? null,
    });
    return { outcome: 'recorded', ack: gateway.acknowledge(true) };
  }

  const outcome = await settlePayment(deps, { order, gateway: gateway.name, paid, source: 'notify', log });
  return { outcome, ack: gateway.acknowledge(true) };
}

/**
 * A payment the gateway vouched for (a verified notification, or its answer to the reconciler's query), checked
 * against the order by the caller: in one transaction the order moves to paid (conditionally: a duplicate finds it
 * paid and changes nothing) and the coins or VIP days are credited under deterministic ids. The one path by which
 * money becomes coins.
 */
export async function settlePayment(
  deps: Pick<PaymentsDeps, 'repo' | 'wallet'>,
  input: {
    order: PayOrder;
    gateway: string;
    paid: VerifiedNotification;
    source: 'notify' | 'query';
    log: FastifyBaseLogger;
  },
): Promise<'credited' | 'duplicate'> {
  const { order, paid, log } = input;
  const result = await deps.repo.transaction(async (tx) => {
    const { paid: row, before } = await deps.repo.markPaid(tx, order.id, paid.tradeNo);
    if (!row) return { credited: false, before } as const;
    await deps.repo.addEvent(
      {
        orderId: row.id,
        fromStatus: before?.status ?? null,
        toStatus: 'paid',
        source: input.source,
        detail: `${input.gateway} trade ${paid.tradeNo}`,
        payload: paid.raw ?? null,
      },
      tx,
    );
    // The first-recharge offer the order was made with: only on the reader's first paid order.
    const firstPay = row.firstPayBonus > 0 && (await deps.repo.isFirstPaid(tx, row.userId, row.id));
    await deps.wallet.creditPaidOrder(tx, { ...row, firstPayBonus: firstPay ? row.firstPayBonus : 0 });
    return { credited: true, before } as const;
  });

  if (!result.credited) {
    const firstTrade = result.before?.gatewayTradeNo;
    if (firstTrade && firstTrade !== paid.tradeNo) {
      // The payer paid one order twice: acknowledge (the money arrived) and leave it to an operator to refund.
      log.error(
        { payments: 'paid-twice', order: orderRef(order.orderNo), firstTrade, tradeNo: paid.tradeNo },
        'order paid twice',
      );
      await deps.repo.addEvent({
        orderId: order.id,
        fromStatus: 'paid',
        toStatus: 'paid',
        source: input.source,
        detail: `second payment ${paid.tradeNo} (first ${firstTrade}): refund it`,
      });
    }
    return 'duplicate';
  }
  log.info(
    { payments: 'paid', order: orderRef(order.orderNo), tradeNo: paid.tradeNo, source: input.source },
    'order paid and credited',
  );
  return 'credited';
}
