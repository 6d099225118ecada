import type { IncomingHttpHeaders } from 'node:http';

/** What the reconciler made of one order it asked a gateway about. */
export type ReconcileOutcome =
  | 'credited'
  | 'duplicate'
  | 'unpaid'
  | 'closed'
  | 'not_found'
  | 'mismatch'
  | 'error';

/** What other modules (and operations) may ask of payments. */
export interface PaymentsPort {
  /** The user who paid the order with this merchant number and amount (cents), when paid in [from, to) (find-account). */
  payerOf(paid: { orderNo: string; from: Date; to: Date; payAmount: number }): Promise<number | undefined>;
  /** One pass of the sweeper: expires unpaid orders whose time is up; answers their ids. */
  expireStaleOrders(now?: Date): Promise<number[]>;
  /** One round of the reconciler as if at `now`: what each order asked about turned out to be. */
  reconcile(now?: Date): Promise<{ outcomes: ReconcileOutcome[]; more: boolean }>;
}

// The gateway interface: what the adapter of a payment provider implements (gateways/ here, the sandbox module).

/** What we ask a gateway to collect: one order, with where it must notify us and where it returns the payer. */
export interface PaymentRequest {
  orderNo: string;
  channel: string;
  superiorCode: string;
  /** Cents the payer pays (after the channel's discount). */
  amount: number;
  /** The pack's title, for the payer's statement. */
  subject: string;
  expiresAt: Date;
  /** web: the browser is sent to the cashier; app: the native bridge opens it. */
  client: 'web' | 'app';
  /** Absolute URL of POST /api/pay/notify/{channel} on this server. */
  notifyUrl: string;
  /** Absolute URL on the public origin, already checked (no open redirect). */
  returnUrl: string;
  /** The payer's address (WeChat Pay H5 checks the cashier is opened from it). */
  clientIp?: string;
  /** The payer is in WeChat's own browser (its user agent says MicroMessenger). */
  inWechat?: boolean;
  /**
   * Where a gateway that must first learn who pays sends the browser back to carry on (WeChat JSAPI: after the
   * official account's OAuth), absolute, on the public origin.
   */
  resumeUrl?: string;
}

export type PaymentStart = { kind: 'redirect'; url: string } | { kind: 'app'; payUrl: string };

/** A notification whose signature checked out: what the gateway says was paid. */
export interface VerifiedNotification {
  orderNo: string;
  /** The gateway's own number for the payment. */
  tradeNo: string;
  /** Cents paid. */
  amount: number;
  merchantId: string;
  /**
   * Whether the gateway says the money arrived (Alipay TRADE_SUCCESS or TRADE_FINISHED, WeChat Pay SUCCESS; the
   * sandbox only notifies payments). False: recorded on the order, changes nothing. Absent means true.
   */
  paid?: boolean;
  /** The gateway's own word for the state (TRADE_SUCCESS, WAIT_BUYER_PAY, SUCCESS, …), for the order's story. */
  state?: string;
  /** What the gateway sent, without secrets, kept with the order (pay_order_events). */
  raw?: Record<string, unknown>;
}

/** What the gateway says of one order when asked (the reconciler's active query). */
export type PaymentQuery =
  | { state: 'paid'; notification: VerifiedNotification; raw: Record<string, unknown> }
  /** unpaid: still waiting for the payer; closed: it will never be paid; not_found: the gateway never saw it. */
  | { state: 'unpaid' | 'closed' | 'not_found'; raw: Record<string, unknown> };

/** Money back to the payer: part or all of a paid order, under our own refund number (idempotent at the gateway). */
export interface RefundRequest {
  orderNo: string;
  /** The gateway's number for the payment being refunded. */
  tradeNo: string;
  /** Our refund number: asking twice with one number refunds once. */
  refundNo: string;
  /** Cents to refund, and the order's total paid in cents. */
  amount: number;
  total: number;
  reason: string;
  /** Where the gateway notifies the refund's outcome (WeChat Pay), absolute. */
  notifyUrl: string;
}

export type RefundResult =
  | { state: 'success' | 'processing'; refundTradeNo?: string; raw: Record<string, unknown> }
  | { state: 'failed'; reason: string; raw: Record<string, unknown> };

export type Verification = { ok: true; notification: VerifiedNotification } | { ok: false; reason: string };

export interface NotificationInput {
  channel: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as it arrived: some gateways sign the raw bytes. */
  body: string;
}

/** The answer the gateway expects from us: success stops its retries, failure makes it retry. */
export interface Acknowledgement {
  status: number;
  contentType: string;
  body: string;
}

/**
 * One payment provider (the sandbox now; Alipay and WeChat Pay later). The order flow only talks to this
 * interface: a channel names its gateway in pay_channels.gateway, so adding a provider is a new adapter
 * registered here, not a change to the flow.
 */
export interface PaymentGateway {
  readonly name: string;
  /** Our merchant id at this provider: a verified notification for another merchant is refused. */
  readonly merchantId: string;
  /**
   * Whether a payer in WeChat's own browser can pay here: WeChat blocks Alipay's pages and WeChat Pay refuses H5
   * there, so only WeChat Pay with JSAPI (and the sandbox, our own page) can.
   */
  readonly worksInWechat: boolean;
  createPayment(order: PaymentRequest): Promise<PaymentStart>;
  /** Checks the signature (timing-safe) and the shape; never trusts anything in a notification before that. */
  verifyNotification(input: NotificationInput): Promise<Verification>;
  acknowledge(ok: boolean): Acknowledgement;
  /**
   * Asks the gateway about one order (optional until each gateway has it: the reconciler skips a gateway without
   * it). Signed as the gateway documents; its answer's signature is checked before anything in it is believed.
   */
  queryPayment?(orderNo: string): Promise<PaymentQuery>;
  /** Refunds through the gateway (optional, as queryPayment). */
  refund?(request: RefundRequest): Promise<RefundResult>;
  /** A refund's own notification (WeChat Pay sends one; Alipay says it in a trade notification). */
  verifyRefundNotification?(input: NotificationInput): Promise<RefundVerification>;
}

/** A refund's outcome as the gateway notified it, its signature checked. */
export interface RefundNotification {
  orderNo: string;
  refundNo: string;
  refundTradeNo: string;
  state: RefundResult['state'];
  /** Cents refunded. */
  amount: number;
  raw: Record<string, unknown>;
}
export type RefundVerification = { ok: true; refund: RefundNotification } | { ok: false; reason: string };
