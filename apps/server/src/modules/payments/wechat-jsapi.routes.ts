import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { WechatPayGateway } from './gateways/wechat-pay.gateway.ts';
import { JSAPI_RESUME_PATH, type PaymentsDeps } from './payments.service.ts';
import { resumeJsapiPayment } from './wechat-jsapi.service.ts';
import { BRIDGE_SCRIPT, BRIDGE_SCRIPT_PATH, sendPayPage } from './wechat-jsapi-page.ts';

const ResumeQuery = Type.Object({
  orderNo: Type.String({ pattern: '^[A-Za-z0-9]{1,64}$' }),
  code: Type.Optional(Type.String({ maxLength: 256 })),
  state: Type.Optional(Type.String({ maxLength: 128 })),
  /** Set on the second trip to WeChat's OAuth, so a code WeChat keeps refusing ends on a page, not in a loop. */
  again: Type.Optional(Type.Literal('1')),
});

/**
 * Paying inside WeChat (JSAPI): pay apply made the order and sent the reader to the official account's OAuth; WeChat
 * brings them back here with a code. The code gives the payer's openid, the openid a JSAPI order, and the page hands
 * its signed prepay_id to WeChat's bridge. Nothing is credited here: only WeChat Pay's notification (or the
 * reconciler's query) does, as for every payment.
 */
export async function wechatJsapiRoutes(app: FastifyInstance, deps: PaymentsDeps, gateway: WechatPayGateway) {
  if (!gateway.jsapi) return;
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const page = sendPayPage;

  r.get(BRIDGE_SCRIPT_PATH, { schema: { hide: true } }, async (_req, reply) =>
    reply
      .header('Cache-Control', 'public, max-age=300')
      .type('text/javascript; charset=utf-8')
      .send(BRIDGE_SCRIPT),
  );

  r.get(
    JSAPI_RESUME_PATH,
    {
      schema: { hide: true, querystring: ResumeQuery },
      config: { session: true, rateLimit: { max: 60, timeWindow: '1 minute' } },
    },
    async (req, reply) => {
      const answer = await resumeJsapiPayment(
        { ...deps, gateway, log: req.log },
        { ...req.query, userId: req.user?.userId },
      );
      return 'redirect' in answer
        ? reply.redirect(answer.redirect, 302)
        : page(reply, answer.status, answer.page);
    },
  );
}
