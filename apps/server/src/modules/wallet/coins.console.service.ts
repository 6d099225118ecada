import type { CoinAdjustment, VipAdjustment } from '@yueman/contract/admin';
import type { Queryable } from '../../db/client.ts';
import { AppError, badRequest, notFound } from '../../shared/errors.ts';
import type { AuditEntry } from '../operators/index.ts';
import type { CoinsConsoleRepository } from './coins.console.repository.ts';

// The console's changes to a reader's coins and VIP days (docs/decisions.md, "The console's readers"): one ledger
// transfer to or from system:adjustments, or one move of vip_end; a required reason; the audit entry with the
// state before and after, in the same transaction; each request (the form's request id) done once.

export interface CoinsConsoleDeps {
  repo: CoinsConsoleRepository;
  audit(q: Queryable, entry: AuditEntry): Promise<unknown>;
}

type Actor = { operatorId: number; actor: string };

const readerNotFound = () => notFound('未找到该读者');
const requestReused = () =>
  new AppError(409, 409, '该请求编号已用于另一次调整，请关闭窗口后重新操作', { field: 'requestId' });
const shortToTake = (balance: number) =>
  badRequest(`读者余额不足：当前 ${balance} 阅币，最多可扣回 ${balance} 阅币`, 'amount');

function reasonOf(raw: string) {
  const reason = raw.trim();
  if (reason === '') throw badRequest('请填写调整原因', 'reason');
  return reason;
}

/**
 * Grants coins to the reader, or takes them back (never below zero: a take-back larger than the balance is refused
 * and moves nothing). The transfer id `adjust:{userId}:{requestId}` makes a double click or a retry move nothing
 * twice: it answers what the first one did, with `repeated`; the same request id with another amount or direction is
 * a 409.
 */
export async function adjustReaderCoins(
  deps: CoinsConsoleDeps,
  input: {
    userId: number;
    direction: 'grant' | 'take';
    amount: number;
    reason: string;
    requestId: string;
    by: Actor;
  },
): Promise<CoinAdjustment> {
  const reason = reasonOf(input.reason);
  const transferId = `adjust:${input.userId}:${input.requestId}`;
  const kind = input.direction === 'grant' ? 'grant' : 'revoke';
  return deps.repo.transaction(async (tx) => {
    if (!(await deps.repo.readerExists(tx, input.userId))) throw readerNotFound();
    const done = await deps.repo.adjustCoins(tx, {
      transferId,
      userId: input.userId,
      direction: input.direction,
      amount: input.amount,
      memo: reason,
    });
    const answer = { transferId, direction: input.direction, amount: input.amount };
    if (done.outcome === 'duplicate') {
      const same =
        done.posted.userId === input.userId &&
        done.posted.kind === kind &&
        done.posted.amount === input.amount;
      if (!same) throw requestReused();
      return { ...answer, balance: done.balance, repeated: true };
    }
    if (done.outcome === 'short') throw shortToTake(done.balance);
    await deps.audit(tx, {
      ...input.by,
      action: input.direction === 'grant' ? 'reader.coins.grant' : 'reader.coins.take',
      target: `user:${input.userId}`,
      before: { balance: done.before },
      after: { balance: done.after, amount: input.amount, transferId, reason },
    });
    return { ...answer, balance: done.after, repeated: false };
  });
}

/**
 * Grants VIP days (from the later of now and the current end) or shortens them (days negative: from the current
 * end, never before now; a reader who is not VIP has nothing to shorten). Once per request id.
 */
export async function adjustReaderVip(
  deps: CoinsConsoleDeps,
  input: { userId: number; days: number; reason: string; requestId: string; by: Actor },
): Promise<VipAdjustment> {
  if (input.days === 0) throw badRequest('天数不能为 0：正数为赠送，负数为缩短', 'days');
  const reason = reasonOf(input.reason);
  const id = `vip:${input.userId}:${input.requestId}`;
  return deps.repo.transaction(async (tx) => {
    const held = await deps.repo.lockVip(tx, input.userId);
    if (!held) throw readerNotFound();
    const earlier = await deps.repo.vipAdjustment(tx, id);
    if (earlier) {
      if (earlier.days !== input.days) throw requestReused();
      return { days: input.days, vipEnd: held.vipEnd?.toISOString() ?? null, repeated: true };
    }
    if (input.days < 0 && (held.vipEnd === null || held.vipEnd.getTime() <= Date.now()))
      throw badRequest('读者当前不是 VIP，没有可缩短的天数', 'days');
    const after = await deps.repo.moveVip(tx, {
      id,
      userId: input.userId,
      days: input.days,
      before: held.vipEnd,
    });
    await deps.audit(tx, {
      ...input.by,
      action: input.days > 0 ? 'reader.vip.grant' : 'reader.vip.shorten',
      target: `user:${input.userId}`,
      before: { vipEnd: held.vipEnd?.toISOString() ?? null },
      after: { vipEnd: after?.toISOString() ?? null, days: input.days, reason },
    });
    return { days: input.days, vipEnd: after?.toISOString() ?? null, repeated: false };
  });
}
