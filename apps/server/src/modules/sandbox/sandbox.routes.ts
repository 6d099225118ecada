import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { cashierPolicy } from '../../shared/security-headers.ts';
import { orderRef } from '../payments/index.ts';
import { cashierMessage, cashierPage } from './cashier-page.ts';
import type { SandboxNotifier } from './sandbox.notifier.ts';
import { CASHIER_PATH, type SandboxProvider, TRADE_NO } from './sandbox.provider.ts';
import type { SandboxRepository } from './sandbox.repository.ts';

const TradeParams = Type.Object({ tradeNo: Type.String({ maxLength: 64 }) });

const notFoundPage = () => cashierMessage('交易不存在', '交易不存在或已失效');

/**
 * The sandbox gateway's own pages: the cashier, and its confirm and cancel buttons. Confirm records the
 * payment in the sandbox's book, owes the merchant a signed notification (sent by the notifier, not here),
 * and returns the payer's browser to the merchant's return address.
 */
export async function sandboxRoutes(
  app: FastifyInstance,
  deps: {
    repo: SandboxRepository;
    provider: SandboxProvider;
    notifier: Pick<SandboxNotifier, 'wake'>;
    /** Our pages, which may frame the cashier (the pay page) and where its forms lead back to. */
    trustedOrigins: readonly string[];
    /** Whether a client at this address may pay here (the sandbox by default: this machine only). */
    clientMayPay: (clientIp: string) => boolean;
  },
) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const policy = cashierPolicy(deps.trustedOrigins);
  // The cashier may be shown in the web app's pay frame (/user/purchase/pay): frame-ancestors says by whom, so the
  // blanket X-Frame-Options: DENY does not apply here.
  const html = (reply: FastifyReply, status: number, page: string) =>
    reply
      .code(status)
      .header('Content-Security-Policy', policy)
      .removeHeader('X-Frame-Options')
      .type('text/html; charset=utf-8')
      .send(page);
  const schema = { hide: true, params: TradeParams };
  // Another machine's payer sees why, and nothing is paid (docs/security.md).
  const notForThisClient = (reply: FastifyReply) =>
    html(reply, 403, cashierMessage('无法支付', '沙箱支付仅限本机使用'));

  r.get(`${CASHIER_PATH}/:tradeNo`, { schema }, async (req, reply) => {
    const payment = TRADE_NO.test(req.params.tradeNo)
      ? await deps.repo.byTradeNo(req.params.tradeNo)
      : undefined;
    if (!payment) return html(reply, 404, notFoundPage());
    if (!deps.clientMayPay(req.ip)) return notForThisClient(reply);
    const merchant = deps.provider.merchant(payment.merchantId);
    return html(reply, 200, cashierPage(payment, merchant?.name ?? payment.merchantId, CASHIER_PATH));
  });

  r.post(`${CASHIER_PATH}/:tradeNo/confirm`, { schema }, async (req, reply) => {
    const { tradeNo } = req.params;
    const payment = TRADE_NO.test(tradeNo) ? await deps.repo.byTradeNo(tradeNo) : undefined;
    if (!payment) return html(reply, 404, notFoundPage());
    if (!deps.clientMayPay(req.ip)) {
      req.log.warn(
        { security: 'sandbox-foreign-client', tradeNo },
        'sandbox payment refused: not this machine',
      );
      return notForThisClient(reply);
    }
    if (payment.status === 'cancelled')
      return html(reply, 409, cashierMessage('已取消', '订单已取消，无法支付'));
    if (await deps.repo.confirm(tradeNo, new Date())) {
      req.log.info(
        { sandbox: 'paid', tradeNo, order: orderRef(payment.orderNo) },
        'sandbox payment confirmed',
      );
      deps.notifier.wake();
    }
    // Paid now or before: either way the payer goes back to the merchant, who learns of it by notification.
    return reply.redirect(payment.returnUrl, 302);
  });

  r.post(`${CASHIER_PATH}/:tradeNo/cancel`, { schema }, async (req, reply) => {
    const { tradeNo } = req.params;
    const payment = TRADE_NO.test(tradeNo) ? await deps.repo.byTradeNo(tradeNo) : undefined;
    if (!payment) return html(reply, 404, notFoundPage());
    await deps.repo.cancel(tradeNo);
    return reply.redirect(payment.returnUrl, 302);
  });
}
