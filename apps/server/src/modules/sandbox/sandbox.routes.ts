import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { cashierPolicy } from '../../shared/security-headers.ts';
import { CASHIER_PATH } from './sandbox.provider.ts';
import {
  type CashierAnswer,
  type CashierDeps,
  cancelPayment,
  confirmPayment,
  showCashier,
} from './sandbox.service.ts';

const TradeParams = Type.Object({ tradeNo: Type.String({ maxLength: 64 }) });

/**
 * The sandbox gateway's own pages: the cashier, and its confirm and cancel buttons (sandbox.service.ts). Confirm
 * records the payment in the sandbox's book, owes the merchant a signed notification (sent by the notifier, not
 * here), and returns the payer's browser to the merchant's return address.
 */
export async function sandboxRoutes(
  app: FastifyInstance,
  deps: CashierDeps & {
    /** Our pages, which may frame the cashier (the pay page) and where its forms lead back to. */
    trustedOrigins: readonly string[];
  },
) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const policy = cashierPolicy(deps.trustedOrigins);
  // The cashier may be shown in the web app's pay frame (/user/purchase/pay): frame-ancestors says by whom, so the
  // blanket X-Frame-Options: DENY does not apply here.
  const answer = (reply: FastifyReply, a: CashierAnswer) =>
    'redirect' in a
      ? reply.redirect(a.redirect, 302)
      : reply
          .code(a.status)
          .header('Content-Security-Policy', policy)
          .removeHeader('X-Frame-Options')
          .type('text/html; charset=utf-8')
          .send(a.page);
  const schema = { hide: true, params: TradeParams };

  r.get(`${CASHIER_PATH}/:tradeNo`, { schema }, async (req, reply) =>
    answer(reply, await showCashier(deps, { tradeNo: req.params.tradeNo, clientIp: req.ip })),
  );

  r.post(`${CASHIER_PATH}/:tradeNo/confirm`, { schema }, async (req, reply) =>
    answer(
      reply,
      await confirmPayment({ ...deps, log: req.log }, { tradeNo: req.params.tradeNo, clientIp: req.ip }),
    ),
  );

  r.post(`${CASHIER_PATH}/:tradeNo/cancel`, { schema }, async (req, reply) =>
    answer(reply, await cancelPayment(deps, { tradeNo: req.params.tradeNo })),
  );
}
