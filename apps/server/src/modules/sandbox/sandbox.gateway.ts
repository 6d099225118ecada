import { fail, ok } from '../../shared/envelope.ts';
import type {
  NotificationInput,
  PaymentGateway,
  PaymentRequest,
  RefundRequest,
  RefundResult,
  Verification,
} from '../payments/payments.port.ts';
import type { SandboxProvider } from './sandbox.provider.ts';
import { readFields, signatureMatches } from './sandbox-signing.ts';

// A delivery signed longer ago than this is refused; the sandbox signs every retry afresh.
const MAX_AGE_MS = 5 * 60_000;

function parseBody(input: NotificationInput): Record<string, unknown> | undefined {
  const type = String(input.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/json')) {
    try {
      const parsed: unknown = JSON.parse(input.body);
      return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }
  return Object.fromEntries(new URLSearchParams(input.body));
}

/** Our side of the sandbox gateway: the adapter the order flow uses, as it would use Alipay's. */
export function createSandboxGateway(opts: {
  provider: SandboxProvider;
  merchantId: string;
  key: Buffer;
  now?: () => Date;
}): PaymentGateway {
  const now = opts.now ?? (() => new Date());
  return {
    name: 'sandbox',
    merchantId: opts.merchantId,
    // Our own cashier page: it opens anywhere, WeChat's browser included.
    worksInWechat: true,

    async createPayment(order: PaymentRequest) {
      const { cashierUrl } = await opts.provider.createPayment({
        merchantId: opts.merchantId,
        orderNo: order.orderNo,
        channel: order.channel,
        amount: order.amount,
        notifyUrl: order.notifyUrl,
        returnUrl: order.returnUrl,
      });
      return order.client === 'web'
        ? { kind: 'redirect', url: cashierUrl }
        : { kind: 'app', payUrl: cashierUrl };
    },

    async verifyNotification(input: NotificationInput): Promise<Verification> {
      const raw = parseBody(input);
      if (!raw) return { ok: false, reason: 'body is not a form or JSON object' };
      const read = readFields(raw);
      if (typeof read === 'string') return { ok: false, reason: read };
      if (!signatureMatches(opts.key, read.fields, read.sign)) return { ok: false, reason: 'bad signature' };
      const age = now().getTime() - Number(read.fields.timestamp) * 1000;
      if (Math.abs(age) > MAX_AGE_MS)
        return { ok: false, reason: `stale timestamp (${Math.round(age / 1000)} s)` };
      const { orderNo, tradeNo, amount, merchantId } = read.fields;
      return { ok: true, notification: { orderNo, tradeNo, amount: Number(amount), merchantId } };
    },

    // The cashier records the refund at once: success, or failed with its reason.
    async refund(request: RefundRequest): Promise<RefundResult> {
      const answer = await opts.provider.refund({
        merchantId: opts.merchantId,
        tradeNo: request.tradeNo,
        refundNo: request.refundNo,
        amount: request.amount,
      });
      return answer.ok
        ? { state: 'success', refundTradeNo: answer.refundTradeNo, raw: { ...answer } }
        : { state: 'failed', reason: answer.reason, raw: { ...answer } };
    },

    acknowledge(success: boolean) {
      return success
        ? { status: 200, contentType: 'application/json; charset=utf-8', body: JSON.stringify(ok(null)) }
        : {
            status: 400,
            contentType: 'application/json; charset=utf-8',
            body: JSON.stringify(fail(400, 'fail')),
          };
    },
  };
}
