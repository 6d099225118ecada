import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { WechatPayGateway } from './gateways/wechat-pay.gateway.ts';
import { orderRef } from './order-ref.ts';
import {
  JSAPI_RESUME_PATH,
  jsapiResumeUrl,
  type PaymentsDeps,
  paymentRequestOf,
} from './payments.service.ts';
import {
  BRIDGE_SCRIPT,
  BRIDGE_SCRIPT_PATH,
  jsapiMessagePage,
  jsapiPagePolicy,
  jsapiPayPage,
} from './wechat-jsapi-page.ts';

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
  const jsapi = gateway.jsapi;
  if (!jsapi) return;
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const page = (reply: FastifyReply, status: number, html: string) =>
    reply
      .code(status)
      .header('Content-Security-Policy', jsapiPagePolicy)
      .header('Cache-Control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(html);
  const home = `${deps.publicOrigin}/home`;

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
      const q = req.query;
      const order = await deps.repo.orderByNo(q.orderNo);
      // Only the reader who made the order carries on with it; to anyone else it does not exist.
      if (!order || !req.user || order.userId !== req.user.userId || order.gateway !== gateway.name)
        return page(reply, 404, jsapiMessagePage('订单不存在', home));
      const back = order.returnUrl || home;
      if (order.status === 'paid') return page(reply, 200, jsapiMessagePage('订单已支付', back));
      if (order.status !== 'created' || order.expiresAt.getTime() <= Date.now())
        return page(reply, 410, jsapiMessagePage('订单已过期，请返回重新下单', back));

      const resume = jsapiResumeUrl(deps.publicOrigin, order.orderNo);
      if (!q.code) return reply.redirect(jsapi.authorizeUrl(resume, order.orderNo), 302);
      if (q.state !== order.orderNo)
        return page(reply, 400, jsapiMessagePage('授权信息不符，请返回重新下单', back));

      const payer = await jsapi.openidFor(q.code);
      if (!payer.ok) {
        // A reload brings back a code already used: a fresh one is a silent trip away, once.
        if (payer.staleCode && !q.again)
          return reply.redirect(jsapi.authorizeUrl(`${resume}&again=1`, order.orderNo), 302);
        req.log.warn({ order: orderRef(order.orderNo), reason: payer.reason }, 'WeChat OAuth gave no payer');
        await deps.repo.note(order, { source: 'wechat_jsapi', detail: `OAuth refused: ${payer.reason}` });
        return page(reply, 502, jsapiMessagePage('微信授权失败，请返回重试', back));
      }

      const [channel, pack] = await Promise.all([
        deps.repo.channel(order.channel),
        deps.repo.pack(order.payConfigId),
      ]);
      const request = paymentRequestOf(
        deps,
        order,
        { subTypeCode: order.channel, superiorCode: channel?.superiorCode ?? 'wechat_pay' },
        gateway.name,
        pack?.title ?? order.orderNo,
      );
      let bridge: Awaited<ReturnType<WechatPayGateway['prepayJsapi']>>;
      try {
        bridge = await gateway.prepayJsapi(request, payer.openid);
      } catch (err) {
        req.log.error({ err, order: orderRef(order.orderNo) }, 'WeChat Pay refused the JSAPI order');
        return page(reply, 502, jsapiMessagePage('微信支付暂不可用，请稍后重试', back));
      }
      await deps.repo.note(order, {
        source: 'wechat_jsapi',
        detail: 'JSAPI order made; the payer is sent to WeChat’s cashier',
        payload: { openid: payer.openid, package: bridge.package },
      });
      return page(
        reply,
        200,
        jsapiPayPage({
          orderNo: order.orderNo,
          amount: order.payAmount,
          subject: request.subject,
          returnUrl: back,
          bridge,
        }),
      );
    },
  );
}
