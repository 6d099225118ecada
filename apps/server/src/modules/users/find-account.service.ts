import type { FoundAccount } from '@yueman/contract';
import { chinaDay } from '../../shared/china-time.ts';
import { badRequest } from '../../shared/errors.ts';
import { generatePassword, hashPassword } from '../../shared/passwords/password.ts';
import type { PaymentsPort } from '../payments/payments.port.ts';
import { hashToken, issueSession } from './sessions.ts';
import { accountNotFound, TooManyAttempts } from './users.errors.ts';
import type { UsersDeps } from './users.service.ts';

/** Merchant order numbers: ours are `YM` + date + 16 hex digits; a gateway's bill shows the same number. */
const ORDER_NO = /^[A-Z0-9]{6,64}$/;
/** Yuan as a reader reads it off the bill: '30', '30.0', '30.00', optionally with '¥' or '元'. */
const YUAN = /^[¥￥]?\s*(\d{1,7})(?:\.(\d{1,2}))?\s*元?$/;

/** The amount typed, in cents, or undefined when it is no amount. */
export function centsOfYuan(text: string): number | undefined {
  const m = YUAN.exec(text.trim());
  if (!m) return undefined;
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return cents > 0 ? cents : undefined;
}

export interface FindAccountDeps extends UsersDeps {
  /** Counts one attempt for this order number; answers the seconds to wait when it is over its limit. */
  takeOrderAttempt: (orderNo: string) => Promise<number>;
  /** Who paid this order in [from, to): the payments module's port. */
  payerOf: PaymentsPort['payerOf'];
}

/**
 * Recovers the recharge account from a payment: the China-time day it was paid, its merchant order number, which
 * only the payer holds (docs/api.md section 2), and the amount paid. A date, a trace id or a network address is no
 * secret, so they match nothing by themselves; the amount keeps an order number seen somewhere else (a log, a
 * screenshot, the console) from being enough on its own (docs/decisions.md, "Find account asks the amount paid"). Every attempt counts against the order number before the lookup, so a number
 * cannot be guessed from many addresses. On a match the account's password is replaced by a new generated one,
 * every session of it ends, and this request gets a new session on it ('save and log in').
 */
export async function findAccount(
  deps: FindAccountDeps,
  input: { chargeTime: string; orderNo: string; payAmount: string; oldToken: string | undefined },
): Promise<{ found: FoundAccount; session: { token: string; expiresAt: Date } }> {
  const text = input.chargeTime.trim();
  if (text === '') throw badRequest('请选择您的充值扣款日期');
  const day = chinaDay(text);
  if (!day) throw badRequest('充值扣款日期不正确，格式为 YYYY-MM-DD');
  const orderNo = input.orderNo.trim().toUpperCase();
  if (orderNo === '') throw badRequest('请输入订单号');
  if (!ORDER_NO.test(orderNo)) throw badRequest('订单号不正确，请核对支付账单中的商户订单号');
  // Old clients send no amount: told what is missing, before any attempt is counted.
  if (input.payAmount.trim() === '') throw badRequest('请输入支付金额');
  const payAmount = centsOfYuan(input.payAmount);
  if (payAmount === undefined) throw badRequest('支付金额不正确，请填写支付账单中的实付金额（元）');

  const wait = await deps.takeOrderAttempt(orderNo);
  if (wait > 0) throw new TooManyAttempts(wait);
  const payerId = await deps.payerOf({ ...day, orderNo, payAmount });
  const match = payerId === undefined ? undefined : await deps.repo.userById(payerId);
  if (!match) throw accountNotFound();

  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const session = await issueSession(deps.repo, match.id, input.oldToken);
  // Every other session of the account ends with the old password; the one just issued stays.
  await deps.repo.setPassword(match.id, passwordHash, hashToken(session.token));
  return { found: { account: match.account, password }, session };
}
