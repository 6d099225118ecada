import type { CheckinDayCount, CheckinRewardDay, CheckinRewards } from '@yueman/contract/admin';
import type { Queryable } from '../../db/client.ts';
import { chinaDate } from '../../shared/china-time.ts';
import { badRequest } from '../../shared/errors.ts';
import type { AuditEntry } from '../operators/index.ts';
import type { CheckinRepository, CheckinRewardRow } from './checkin.repository.ts';
import { CHECKIN_CYCLE } from './checkin.service.ts';

// The console's daily check-in (docs/decisions.md, "Daily check-in"): owners and finance set the seven days' rewards
// (they give coins and tickets away, as a ticket grant does), the whole week at once, audited before and after; the
// roles that read the reader pages see the claims per China day.

export interface CheckinConsoleDeps {
  repo: CheckinRepository;
  audit(q: Queryable, entry: AuditEntry): Promise<unknown>;
}

type Actor = { operatorId: number; actor: string };

export const CHECKIN_LIMITS = {
  coins: { min: 0, max: 1000, msg: '每天的阅币须在 0 到 1000 之间' },
  tickets: { min: 0, max: 10, msg: '每天的阅读券须在 0 到 10 张之间' },
  ticketDays: { min: 1, max: 365, msg: '阅读券有效期须在 1 到 365 天之间' },
  scopeBooks: 20,
} as const;

function within(name: 'coins' | 'tickets' | 'ticketDays', value: number) {
  const limit = CHECKIN_LIMITS[name];
  if (value < limit.min || value > limit.max) throw badRequest(limit.msg, name);
}

const dayOf = (row: CheckinRewardRow): CheckinRewardDay => ({
  day: row.day,
  coins: row.coins,
  tickets: row.tickets,
  ticketKind: row.ticketKind as 'read' | 'presale',
  ticketDays: row.ticketDays,
  scope: row.ticketScope,
});

/** The seven days' rewards; a day without a row pays nothing. */
const weekOf = (rows: CheckinRewardRow[]): CheckinRewards => ({
  days: Array.from({ length: CHECKIN_CYCLE }, (_, i) => {
    const row = rows.find((r) => r.day === i + 1);
    return row
      ? dayOf(row)
      : { day: i + 1, coins: 0, tickets: 0, ticketKind: 'read' as const, ticketDays: 7, scope: null };
  }),
});

export async function checkinRewards(deps: CheckinConsoleDeps): Promise<CheckinRewards> {
  return weekOf(await deps.repo.rewards());
}

/** Replaces the seven days' rewards: each day once, within the limits, scoped to books that exist; audited. */
export async function setCheckinRewards(
  deps: CheckinConsoleDeps,
  input: { days: CheckinRewardDay[]; by: Actor },
): Promise<CheckinRewards> {
  const days = [...input.days].sort((a, b) => a.day - b.day);
  if (days.some((d, i) => d.day !== i + 1)) throw badRequest('须填写第 1 到第 7 天的奖励，每天一次', 'days');
  const scoped = new Set<number>();
  const clean = days.map((d) => {
    within('coins', d.coins);
    within('tickets', d.tickets);
    within('ticketDays', d.ticketDays);
    const scope = d.scope === null ? null : [...new Set(d.scope)].sort((a, b) => a - b);
    if (scope !== null && scope.length === 0)
      throw badRequest('请至少选择一本书，或选择适用于全部书籍', 'scope');
    if (scope !== null && scope.length > CHECKIN_LIMITS.scopeBooks)
      throw badRequest(`指定书籍最多 ${CHECKIN_LIMITS.scopeBooks} 本`, 'scope');
    for (const id of scope ?? []) scoped.add(id);
    return { ...d, scope: d.tickets === 0 ? null : scope };
  });
  return deps.repo.transaction(async (tx) => {
    if (scoped.size > 0) {
      const found = new Set((await deps.repo.booksOf([...scoped], tx)).map((b) => b.bookId));
      const missing = [...scoped].filter((id) => !found.has(id));
      if (missing.length > 0) throw badRequest(`书籍 ID ${missing.join('、')} 不存在`, 'scope');
    }
    const before = weekOf(await deps.repo.lockRewards(tx));
    await deps.repo.replaceRewards(
      tx,
      clean.map((d) => ({
        day: d.day,
        coins: d.coins,
        tickets: d.tickets,
        ticketKind: d.ticketKind,
        ticketDays: d.ticketDays,
        ticketScope: d.scope,
      })),
    );
    const after = weekOf(await deps.repo.rewards(tx));
    await deps.audit(tx, {
      ...input.by,
      action: 'checkin.rewards',
      target: 'checkin',
      before,
      after,
    });
    return after;
  });
}

/** The last `days` China days' check-ins, newest first, a day without claims as zeros. */
export async function checkinClaims(
  deps: CheckinConsoleDeps,
  input: { days: number; at?: Date },
): Promise<{ list: CheckinDayCount[] }> {
  const at = input.at ?? new Date();
  const since = chinaDate(at, -(input.days - 1));
  const counted = new Map((await deps.repo.perDay(since)).map((r) => [r.day, r]));
  const list = Array.from({ length: input.days }, (_, i) => {
    const day = chinaDate(at, -i);
    return counted.get(day) ?? { day, claims: 0, firstDays: 0, coins: 0, tickets: 0 };
  });
  return { list };
}
