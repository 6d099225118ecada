import type { IncomingHttpHeaders } from 'node:http';

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
}

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
  createPayment(order: PaymentRequest): Promise<PaymentStart>;
  /** Checks the signature (timing-safe) and the shape; never trusts anything in a notification before that. */
  verifyNotification(input: NotificationInput): Promise<Verification>;
  acknowledge(ok: boolean): Acknowledgement;
}

export class GatewayRegistry {
  readonly #byName = new Map<string, PaymentGateway>();

  constructor(gateways: PaymentGateway[] = []) {
    for (const gateway of gateways) this.register(gateway);
  }

  register(gateway: PaymentGateway) {
    if (this.#byName.has(gateway.name)) throw new Error(`payment gateway ${gateway.name} registered twice`);
    this.#byName.set(gateway.name, gateway);
  }

  get(name: string): PaymentGateway | undefined {
    return this.#byName.get(name);
  }

  has(name: string) {
    return this.#byName.has(name);
  }
}
