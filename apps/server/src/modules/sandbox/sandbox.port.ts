import type { PaymentGateway } from '../payments/payments.port.ts';

export interface NotifyRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}
export interface NotifyResponse {
  status: number;
  body: string;
}
/** Delivers one notification: over HTTP in the server, through app.inject in tests. */
export type NotifySend = (request: NotifyRequest) => Promise<NotifyResponse>;

/** What other modules (payments) and tests may ask of the sandbox gateway. */
export interface SandboxPort {
  /** Our side of the sandbox, the adapter the order flow uses as it would use Alipay's; undefined while it is off. */
  gateway: PaymentGateway | undefined;
  /** Whether the sandbox takes a payment from this client address (this machine only, unless SANDBOX_PAY=true). */
  clientMayPay(clientIp: string): boolean;
  /** One pass of the sandbox notifier: sends owed notifications that are due (tests pass their own send). */
  deliverDueNotifications(
    send?: NotifySend,
    now?: Date,
  ): Promise<{ delivered: number; failed: number; more: boolean }>;
}
