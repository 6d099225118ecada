import type { PaymentGateway } from '../payments.port.ts';

// The gateway interface lives in the payments port: gateway modules (the sandbox) implement it.
export type {
  Acknowledgement,
  NotificationInput,
  PaymentGateway,
  PaymentQuery,
  PaymentRequest,
  PaymentStart,
  RefundNotification,
  RefundRequest,
  RefundResult,
  RefundVerification,
  Verification,
  VerifiedNotification,
} from '../payments.port.ts';

export class GatewayRegistry {
  readonly #added = new Map<string, PaymentGateway>();
  #pending: (() => PaymentGateway[]) | undefined;

  /**
   * `gateways` as a function is called at the first use: a gateway another module builds (the sandbox's, read from
   * its port) is asked for once every module has registered, never while registering.
   */
  constructor(gateways: PaymentGateway[] | (() => PaymentGateway[]) = []) {
    if (typeof gateways === 'function') this.#pending = gateways;
    else for (const gateway of gateways) this.register(gateway);
  }

  get #byName() {
    const pending = this.#pending;
    this.#pending = undefined;
    for (const gateway of pending?.() ?? []) this.register(gateway);
    return this.#added;
  }

  register(gateway: PaymentGateway) {
    if (this.#byName.has(gateway.name)) throw new Error(`payment gateway ${gateway.name} registered twice`);
    this.#added.set(gateway.name, gateway);
  }

  get(name: string): PaymentGateway | undefined {
    return this.#byName.get(name);
  }

  has(name: string) {
    return this.#byName.has(name);
  }

  names() {
    return this.#byName.keys();
  }

  /**
   * The gateway that takes a channel's payments: the real one of its kind when its keys are configured (a gateway
   * named as the channel's superior code, `alipay` or `wechat_pay`), else the channel's own (`sandbox`), if installed.
   */
  forChannel(channel: { superiorCode: string; gateway: string }): PaymentGateway | undefined {
    return (
      (REAL_GATEWAYS.has(channel.superiorCode) && this.#byName.get(channel.superiorCode)) ||
      this.get(channel.gateway)
    );
  }
}

/** The real gateways, each named as the spec's superior code of its channels (its notifications' path segment). */
export const REAL_GATEWAYS: ReadonlySet<string> = new Set(['alipay', 'wechat_pay']);
