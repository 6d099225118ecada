import { randomBytes } from 'node:crypto';
import type { SandboxRepository } from './sandbox.repository.ts';

export interface SandboxMerchant {
  id: string;
  /** Shown on the cashier page. */
  name: string;
  key: Buffer;
}

export const CASHIER_PATH = '/sandbox-pay/cashier';
export const TRADE_NO = /^SB[0-9A-F]{24}$/;

/**
 * The sandbox gateway's merchant-facing API: a merchant asks it to collect an amount and gets the address of
 * its cashier. A real provider is called over HTTPS here; the sandbox lives in this process, so its adapter
 * calls this directly. Everything after (the payer's confirmation, the signed notification) goes the way a
 * real provider's does.
 */
export function createSandboxProvider(opts: {
  repo: SandboxRepository;
  merchants: SandboxMerchant[];
  /** Origin the cashier pages are served on. */
  cashierBase: string;
}) {
  const merchants = new Map(opts.merchants.map((m) => [m.id, m]));
  return {
    merchant: (id: string) => merchants.get(id),

    async createPayment(request: {
      merchantId: string;
      orderNo: string;
      channel: string;
      amount: number;
      notifyUrl: string;
      returnUrl: string;
    }) {
      if (!merchants.has(request.merchantId))
        throw new Error(`sandbox: unknown merchant ${request.merchantId}`);
      // Like a real provider, one merchant order number is one payment: asked again, it answers the same cashier.
      const { tradeNo } = await opts.repo.insertOnce({
        tradeNo: `SB${randomBytes(12).toString('hex').toUpperCase()}`,
        ...request,
      });
      return { tradeNo, cashierUrl: `${opts.cashierBase}${CASHIER_PATH}/${tradeNo}` };
    },

    /**
     * Gives back part or all of a paid payment, recorded in the cashier's book under the merchant's refund number
     * (asked again with the same number, it answers the same refund and gives nothing more).
     */
    async refund(request: { merchantId: string; tradeNo: string; refundNo: string; amount: number }) {
      if (!merchants.has(request.merchantId)) return { ok: false as const, reason: 'unknown merchant' };
      const row = await opts.repo.refundOnce({
        refundNo: request.refundNo,
        tradeNo: request.tradeNo,
        amount: request.amount,
      });
      if (!row) return { ok: false as const, reason: 'payment not paid, or the refund exceeds what is left' };
      return { ok: true as const, refundTradeNo: `SR${request.refundNo.slice(2)}`, amount: row.amount };
    },
  };
}

export type SandboxProvider = ReturnType<typeof createSandboxProvider>;
