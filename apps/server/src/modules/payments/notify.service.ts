import type { FastifyBaseLogger } from 'fastify';
import type { Acknowledgement, NotificationInput } from './gateways/gateway.ts';
import type { PayOrder } from './payments.repository.ts';
import type { PaymentsDeps } from './payments.service.ts';

const UNKNOWN_CHANNEL: Acknowledgement = {
  status: 400,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify({ result: false, code: 400, msg: 'unknown channel', data: null }),
};

export type NotificationOutcome = 'credited' | 'duplicate' | 'refused';

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
  const channel = await deps.repo.channel(input.channel);
  const gateway = channel ? deps.gateways.get(channel.gateway) : undefined;
  if (!gateway) {
    log.warn({ payments: 'notify-refused', channel: input.channel }, 'notification for an unknown channel');
    return { outcome: 'refused', ack: UNKNOWN_CHANNEL };
  }
  const refuse = async (reason: string, order?: PayOrder) => {
    log.warn(
      { payments: 'notify-refused', channel: input.channel, orderNo: order?.orderNo, reason },
      'notification refused',
    );
    if (order) {
      await deps.repo.addEvent({
        orderId: order.id,
        fromStatus: order.status,
        toStatus: order.status,
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
  if (order.channel !== input.channel) return refuse(`order is on channel ${order.channel}`, order);
  if (paid.amount !== order.payAmount)
    return refuse(`amount ${paid.amount}, order asks ${order.payAmount}`, order);

  const result = await deps.repo.transaction(async (tx) => {
    const { paid: row, before } = await deps.repo.markPaid(tx, order.id, paid.tradeNo);
    if (!row) return { credited: false, before } as const;
    await deps.repo.addEvent(
      {
        orderId: row.id,
        fromStatus: before?.status ?? null,
        toStatus: 'paid',
        source: 'notify',
        detail: `${gateway.name} trade ${paid.tradeNo}`,
      },
      tx,
    );
    await deps.wallet.creditPaidOrder(tx, row);
    return { credited: true, before } as const;
  });

  if (!result.credited) {
    const firstTrade = result.before?.gatewayTradeNo;
    if (firstTrade && firstTrade !== paid.tradeNo) {
      // The payer paid one order twice: acknowledge (the money arrived) and leave it to an operator to refund.
      log.error(
        { payments: 'paid-twice', orderNo: order.orderNo, firstTrade, tradeNo: paid.tradeNo },
        'order paid twice',
      );
      await deps.repo.addEvent({
        orderId: order.id,
        fromStatus: 'paid',
        toStatus: 'paid',
        source: 'notify',
        detail: `second payment ${paid.tradeNo} (first ${firstTrade}): refund it`,
      });
    }
    return { outcome: 'duplicate', ack: gateway.acknowledge(true) };
  }
  log.info({ payments: 'paid', orderNo: order.orderNo, tradeNo: paid.tradeNo }, 'order paid and credited');
  return { outcome: 'credited', ack: gateway.acknowledge(true) };
}
