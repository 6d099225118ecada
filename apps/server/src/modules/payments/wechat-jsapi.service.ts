import type { FastifyBaseLogger } from 'fastify';
import type { WechatPayGateway } from './gateways/wechat-pay.gateway.ts';
import { orderRef } from './order-ref.ts';
import { jsapiResumeUrl, type PaymentsDeps, paymentRequestOf } from './payments.service.ts';
import { jsapiMessagePage, jsapiPayPage } from './wechat-jsapi-page.ts';

/** What the OAuth return answers: a page (its status and HTML) or a trip to WeChat's OAuth. */
export type JsapiAnswer = { page: string; status: number } | { redirect: string };

/**
 * The reader is back from the official account's OAuth (or on the way there): the code gives the payer's openid, the
 * openid a JSAPI order, and the page hands its signed prepay_id to WeChat's bridge. Only the reader who made the order
 * carries on with it; to anyone else it does not exist. Nothing is credited here.
 */
export async function resumeJsapiPayment(
  deps: PaymentsDeps & { gateway: WechatPayGateway; log: FastifyBaseLogger },
  q: { orderNo: string; code?: string; state?: string; again?: '1'; userId: number | undefined },
): Promise<JsapiAnswer> {
  const { gateway } = deps;
  const jsapi = gateway.jsapi;
  const home = `${deps.publicOrigin}/home`;
  const order = await deps.repo.orderByNo(q.orderNo);
  if (
    !jsapi ||
    !order ||
    q.userId === undefined ||
    order.userId !== q.userId ||
    order.gateway !== gateway.name
  )
    return { status: 404, page: jsapiMessagePage('订单不存在', home) };
  const back = order.returnUrl || home;
  if (order.status === 'paid') return { status: 200, page: jsapiMessagePage('订单已支付', back) };
  if (order.status !== 'created' || order.expiresAt.getTime() <= Date.now())
    return { status: 410, page: jsapiMessagePage('订单已过期，请返回重新下单', back) };

  const resume = jsapiResumeUrl(deps.publicOrigin, order.orderNo);
  if (!q.code) return { redirect: jsapi.authorizeUrl(resume, order.orderNo) };
  if (q.state !== order.orderNo)
    return { status: 400, page: jsapiMessagePage('授权信息不符，请返回重新下单', back) };

  const payer = await jsapi.openidFor(q.code);
  if (!payer.ok) {
    // A reload brings back a code already used: a fresh one is a silent trip away, once.
    if (payer.staleCode && !q.again)
      return { redirect: jsapi.authorizeUrl(`${resume}&again=1`, order.orderNo) };
    deps.log.warn({ order: orderRef(order.orderNo), reason: payer.reason }, 'WeChat OAuth gave no payer');
    await deps.repo.note(order, { source: 'wechat_jsapi', detail: `OAuth refused: ${payer.reason}` });
    return { status: 502, page: jsapiMessagePage('微信授权失败，请返回重试', back) };
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
    deps.log.error({ err, order: orderRef(order.orderNo) }, 'WeChat Pay refused the JSAPI order');
    return { status: 502, page: jsapiMessagePage('微信支付暂不可用，请稍后重试', back) };
  }
  await deps.repo.note(order, {
    source: 'wechat_jsapi',
    detail: 'JSAPI order made; the payer is sent to WeChat’s cashier',
    payload: { openid: payer.openid, package: bridge.package },
  });
  return {
    status: 200,
    page: jsapiPayPage({
      orderNo: order.orderNo,
      amount: order.payAmount,
      subject: request.subject,
      returnUrl: back,
      bridge,
    }),
  };
}
