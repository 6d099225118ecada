// The payment gateways' calls to the server, not the web app's: their notifications of payments and refunds. The
// server reads each body as the bytes the gateway signed and answers in the gateway's own format, so neither side
// of these entries is an envelope; they are here for the OpenAPI document and for the server's registration.
import { Type } from 'typebox';
import { PayNotifyParams } from './payments.ts';
import type { RouteSpec } from './routes.ts';

const gatewayRoute = <const R extends RouteSpec>(spec: R) => spec;

/** The gateway's acknowledgement: Alipay's `success` or `fail` as text, WeChat Pay's JSON (204 with no body on success). */
const Ack = Type.String({
  description: '网关要求的应答：支付宝为文本 success 或 fail；微信支付为 JSON，成功时 204 无内容',
});

export const gatewayRoutes = {
  payNotify: gatewayRoute({
    method: 'POST',
    url: '/api/pay/notify/:channel',
    base: 'dynamic',
    tag: 'payments',
    summary: '支付网关异步通知（服务器对服务器，报文由网关签名）',
    session: 'none',
    params: PayNotifyParams,
    produces: 'text/plain',
    data: Ack,
  }),
  refundNotify: gatewayRoute({
    method: 'POST',
    url: '/api/pay/notify/:channel/refund',
    base: 'dynamic',
    tag: 'payments',
    summary: '支付网关的退款结果通知（服务器对服务器，报文由网关签名）',
    session: 'none',
    params: Type.Object({ channel: Type.String({ maxLength: 32 }) }),
    produces: 'text/plain',
    data: Ack,
  }),
} as const;
