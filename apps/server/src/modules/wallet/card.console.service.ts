import type { CardDayCount, CardReward } from '@yueman/contract/admin';
import type { Queryable } from '../../db/client.ts';
import { chinaDate } from '../../shared/china-time.ts';
import { badRequest } from '../../shared/errors.ts';
import type { AuditEntry } from '../operators/index.ts';
import type { CardRepository, CardRewardRow } from './card.repository.ts';
import { CHECKIN_LIMITS } from './checkin.console.service.ts';
import { rewardOf } from './daily-reward.ts';

// The console's monthly card (docs/decisions.md, "Monthly card"): owners and finance set the daily reward (within
// check-in's limits: it gives coins and tickets away as check-in does), audited before and after; the roles that
// see the packs see the claims per China day and how many cards run today.

export interface CardConsoleDeps {
  repo: CardRepository;
  audit(q: Queryable, entry: AuditEntry): Promise<unknown>;
}

type Actor = { operatorId: number; actor: string };

const MESSAGES = {
  coins: '每日阅币须在 0 到 1000 之间',
  tickets: '每日阅读券须在 0 到 10 张之间',
  ticketDays: '阅读券有效期须在 1 到 365 天之间',
} as const;

function within(name: 'coins' | 'tickets' | 'ticketDays', value: number) {
  const limit = CHECKIN_LIMITS[name];
  if (value < limit.min || value > limit.max) throw badRequest(MESSAGES[name], name);
}

const cardRewardOf = (row: CardRewardRow | undefined): CardReward => ({
  ...rewardOf(row),
  scope: row?.ticketScope ?? null,
});

export async function cardReward(deps: CardConsoleDeps): Promise<CardReward> {
  return cardRewardOf(await deps.repo.reward());
}

/** Replaces the daily reward: within the limits, scoped to books that exist; audited. Later claims pay it. */
export async function setCardReward(
  deps: CardConsoleDeps,
  input: { reward: CardReward; by: Actor },
): Promise<CardReward> {
  const r = input.reward;
  within('coins', r.coins);
  within('tickets', r.tickets);
  within('ticketDays', r.ticketDays);
  const scope = r.scope === null || r.tickets === 0 ? null : [...new Set(r.scope)].sort((a, b) => a - b);
  if (scope !== null && scope.length === 0)
    throw badRequest('请至少选择一本书，或选择适用于全部书籍', 'scope');
  if (scope !== null && scope.length > CHECKIN_LIMITS.scopeBooks)
    throw badRequest(`指定书籍最多 ${CHECKIN_LIMITS.scopeBooks} 本`, 'scope');
  return deps.repo.transaction(async (tx) => {
    if (scope !== null) {
      const found = new Set((await deps.repo.booksOf(scope, tx)).map((b) => b.bookId));
      const missing = scope.filter((id) => !found.has(id));
      if (missing.length > 0) throw badRequest(`书籍 ID ${missing.join('、')} 不存在`, 'scope');
    }
    const before = cardRewardOf(await deps.repo.lockReward(tx));
    await deps.repo.setReward(tx, {
      coins: r.coins,
      tickets: r.tickets,
      ticketKind: r.ticketKind,
      ticketDays: r.ticketDays,
      ticketScope: scope,
    });
    const after = cardRewardOf(await deps.repo.reward(tx));
    await deps.audit(tx, { ...input.by, action: 'card.reward', target: 'card', before, after });
    return after;
  });
}

/** The last `days` China days' claims, newest first, a day without claims as zeros; the cards running today. */
export async function cardClaims(
  deps: CardConsoleDeps,
  input: { days: number; at?: Date },
): Promise<{ running: number; list: CardDayCount[] }> {
  const at = input.at ?? new Date();
  const since = chinaDate(at, -(input.days - 1));
  const [rows, running] = await Promise.all([deps.repo.perDay(since), deps.repo.runningOn(chinaDate(at))]);
  const counted = new Map(rows.map((r) => [r.day, r]));
  const list = Array.from({ length: input.days }, (_, i) => {
    const day = chinaDate(at, -i);
    return counted.get(day) ?? { day, claims: 0, coins: 0, tickets: 0 };
  });
  return { running, list };
}
