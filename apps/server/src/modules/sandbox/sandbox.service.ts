import type { FastifyBaseLogger } from 'fastify';
import { orderRef } from '../payments/index.ts';
import { cashierMessage, cashierPage } from './cashier-page.ts';
import type { SandboxNotifier } from './sandbox.notifier.ts';
import { CASHIER_PATH, type SandboxProvider, TRADE_NO } from './sandbox.provider.ts';
import type { SandboxRepository } from './sandbox.repository.ts';

export interface CashierDeps {
  repo: SandboxRepository;
  provider: SandboxProvider;
  notifier: Pick<SandboxNotifier, 'wake'>;
  /** Whether a client at this address may pay here (the sandbox by default: this machine only). */
  clientMayPay: (clientIp: string) => boolean;
}

/** What a cashier call answers: a page (its status and HTML) or the payer sent back to the merchant. */
export type CashierAnswer = { page: string; status: number } | { redirect: string };

const notFoundPage = (): CashierAnswer => ({
  status: 404,
  page: cashierMessage('交易不存在', '交易不存在或已失效'),
});
// Another machine's payer sees why, and nothing is paid (docs/security.md).
const notForThisClient = (): CashierAnswer => ({
  status: 403,
  page: cashierMessage('无法支付', '沙箱支付仅限本机使用'),
});

const paymentOf = (deps: CashierDeps, tradeNo: string) =>
  TRADE_NO.test(tradeNo) ? deps.repo.byTradeNo(tradeNo) : Promise.resolve(undefined);

/** The cashier page of a trade. */
export async function showCashier(
  deps: CashierDeps,
  { tradeNo, clientIp }: { tradeNo: string; clientIp: string },
) {
  const payment = await paymentOf(deps, tradeNo);
  if (!payment) return notFoundPage();
  if (!deps.clientMayPay(clientIp)) return notForThisClient();
  const merchant = deps.provider.merchant(payment.merchantId);
  return { status: 200, page: cashierPage(payment, merchant?.name ?? payment.merchantId, CASHIER_PATH) };
}

/**
 * The payer confirms: the payment is recorded in the sandbox's book and the merchant is owed a signed notification
 * (sent by the notifier, woken here); paid now or before, the payer goes back to the merchant.
 */
export async function confirmPayment(
  deps: CashierDeps & { log: FastifyBaseLogger },
  { tradeNo, clientIp }: { tradeNo: string; clientIp: string },
): Promise<CashierAnswer> {
  const payment = await paymentOf(deps, tradeNo);
  if (!payment) return notFoundPage();
  if (!deps.clientMayPay(clientIp)) {
    deps.log.warn(
      { security: 'sandbox-foreign-client', tradeNo },
      'sandbox payment refused: not this machine',
    );
    return notForThisClient();
  }
  if (payment.status === 'cancelled')
    return { status: 409, page: cashierMessage('已取消', '订单已取消，无法支付') };
  if (await deps.repo.confirm(tradeNo, new Date())) {
    deps.log.info(
      { sandbox: 'paid', tradeNo, order: orderRef(payment.orderNo) },
      'sandbox payment confirmed',
    );
    deps.notifier.wake();
  }
  return { redirect: payment.returnUrl };
}

/** The payer cancels: the trade is cancelled and the payer goes back to the merchant. */
export async function cancelPayment(
  deps: CashierDeps,
  { tradeNo }: { tradeNo: string },
): Promise<CashierAnswer> {
  const payment = await paymentOf(deps, tradeNo);
  if (!payment) return notFoundPage();
  await deps.repo.cancel(tradeNo);
  return { redirect: payment.returnUrl };
}
