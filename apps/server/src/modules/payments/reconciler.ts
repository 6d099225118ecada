import type { FastifyBaseLogger } from 'fastify';
import { backgroundLoop } from '../../shared/background-loop.ts';
import { settlePayment } from './notify.service.ts';
import { orderRef } from './order-ref.ts';
import type { ReconcileOutcome } from './payments.port.ts';
import type { PayOrder } from './payments.repository.ts';
import type { PaymentsDeps } from './payments.service.ts';

/** An order is asked about once its payer has had this long to pay and be notified. */
const OPEN_AFTER_MS = 3 * 60_000;
/** Orders older than this are left alone: the gateways close unpaid trades long before. */
const LOOK_BACK_MS = 48 * 3600_000;
/** Orders asked about in one pass (each is one request to the gateway). */
const BATCH = 50;

/**
 * The reconciler (docs/operations.md, "Payments"): every PAY_RECONCILE_SECONDS, once across servers, it asks each
 * real gateway about orders still open past a few minutes (least recently asked first) and applies what it learns
 * through the same path as a notification (settlePayment): a payment whose notification was lost is credited,
 * once. Every answer that says something new is kept with the order.
 */
export function createReconciler(deps: PaymentsDeps, opts: { everySeconds: number; log: FastifyBaseLogger }) {
  const { log } = opts;

  async function check(order: PayOrder, now: Date): Promise<ReconcileOutcome> {
    const gateway = deps.gateways.get(order.gateway);
    if (!gateway?.queryPayment) return 'error';
    let answer: Awaited<ReturnType<NonNullable<typeof gateway.queryPayment>>>;
    try {
      answer = await gateway.queryPayment(order.orderNo);
    } catch (err) {
      log.warn({ err, payments: 'query-failed', order: orderRef(order.orderNo) }, 'gateway query failed');
      return 'error';
    } finally {
      await deps.repo.markChecked(order.id);
    }
    if (answer.state !== 'paid') {
      // An unpaid order is asked about again and again: only a final answer is kept (closed, never seen).
      if (answer.state !== 'unpaid') {
        await deps.repo.note(order, {
          source: 'query',
          detail: `${gateway.name} says ${answer.state}`,
          payload: answer.raw,
        });
      }
      return answer.state;
    }
    const paid = answer.notification;
    const mismatch =
      paid.orderNo !== order.orderNo
        ? `order ${paid.orderNo}`
        : paid.amount !== order.payAmount
          ? `amount ${paid.amount}, order asks ${order.payAmount}`
          : paid.merchantId !== gateway.merchantId
            ? `merchant ${paid.merchantId} is not ours`
            : undefined;
    if (mismatch) {
      log.error(
        { payments: 'query-mismatch', order: orderRef(order.orderNo), reason: mismatch },
        'gateway answer refused',
      );
      await deps.repo.note(order, {
        source: 'query',
        detail: `refused: ${mismatch}`,
        payload: answer.raw,
      });
      return 'mismatch';
    }
    void now;
    return settlePayment(deps, { order, gateway: gateway.name, paid, source: 'query', log });
  }

  /** One round: answers what each order asked about turned out to be, and whether more are waiting. */
  async function pass(now = new Date()) {
    const gateways = [...deps.gateways.names()].filter((name) => deps.gateways.get(name)?.queryPayment);
    const orders = await deps.repo.unsettled({
      from: new Date(now.getTime() - LOOK_BACK_MS),
      to: new Date(now.getTime() - OPEN_AFTER_MS),
      gateways,
      limit: BATCH,
    });
    const outcomes: ReconcileOutcome[] = [];
    for (const order of orders) outcomes.push(await check(order, now));
    return { outcomes, more: orders.length === BATCH };
  }

  const loop = backgroundLoop({
    name: 'pay-reconciler',
    intervalMs: opts.everySeconds * 1000,
    run: async () => (await pass()).more,
    log,
  });
  return { loop, pass };
}
