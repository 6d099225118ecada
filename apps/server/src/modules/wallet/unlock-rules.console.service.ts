import type { UnlockRules, UnlockRulesInput } from '@yueman/contract/admin';
import type { Queryable } from '../../db/client.ts';
import { badRequest, notFound } from '../../shared/errors.ts';
import type { AuditEntry } from '../operators/index.ts';
import type {
  UnlockRulesConsoleRepository,
  UnlockRulesRow,
  UnlockRulesValues,
} from './unlock-rules.console.repository.ts';

// A book's unlock rules in the console (docs/decisions.md, "Unlock rules and ticket grants in the console"): read by
// every role, set by owners and editors, the whole set at once, audited with the rules before and after.

export interface UnlockRulesConsoleDeps {
  repo: UnlockRulesConsoleRepository;
  audit(q: Queryable, entry: AuditEntry): Promise<unknown>;
  /** The book's detail (a kept static answer) says its wait-for-free: a save makes the kept answers stale. */
  changed?: () => void;
}

type Actor = { operatorId: number; actor: string };

/** The limits a save must keep, with what the operator reads when one is broken. */
export const UNLOCK_RULE_LIMITS = {
  waitMinutes: { min: 1, max: 43_200, msg: '等待时间须在 1 分钟到 30 天（43200 分钟）之间' },
  rentalHours: { min: 1, max: 720, msg: '租借时长须在 1 到 720 小时（30 天）之间' },
  newReaderExtra: { min: 0, max: 20, msg: '新读者首日额外免费话数须在 0 到 20 之间' },
  earlyAccessChapters: { min: 0, max: 100, msg: '抢先看话数须在 0 到 100 之间' },
  bundlePercent: { min: 0, max: 90, msg: '打包购买折扣须在 0% 到 90% 之间（0 为不开启打包购买）' },
} as const;

const bookNotFound = () => notFound('未找到该书籍');

/** The field a refusal names is the card's own (flat: waitMinutes, not waitFree.waitMinutes). */
function within(name: keyof typeof UNLOCK_RULE_LIMITS, value: number) {
  const limit = UNLOCK_RULE_LIMITS[name];
  if (value < limit.min || value > limit.max) throw badRequest(limit.msg, name);
}

/** The stored row as the contract's rules; a book without a row has none (coins only). */
function rulesOf(bookId: number, chapterCount: number, row: UnlockRulesRow | undefined): UnlockRules {
  return {
    bookId,
    waitFree:
      row?.waitMinutes == null
        ? null
        : { waitMinutes: row.waitMinutes, rentalHours: row.rentalHours, newReaderExtra: row.newReaderExtra },
    earlyAccessChapters: row?.earlyAccessChapters ?? 0,
    bundlePercent: row?.bundlePercent ?? 0,
    chapterCount,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

const auditedRules = ({ bookId, chapterCount, updatedAt, ...rules }: UnlockRules) => rules;

export async function bookUnlockRules(deps: UnlockRulesConsoleDeps, { id }: { id: number }) {
  const book = await deps.repo.book(id);
  if (!book) throw bookNotFound();
  return rulesOf(id, book.chapterCount, await deps.repo.rules(id));
}

/**
 * Replaces the book's unlock rules (every field at once, as the card shows them). Each number is checked against
 * UNLOCK_RULE_LIMITS (a Chinese 400 naming the field, nothing saved); an unknown book is a 404. Two saves of one
 * book queue on the book's row; the audit entry holds the rules before and after, in the same transaction.
 */
export async function setBookUnlockRules(
  deps: UnlockRulesConsoleDeps,
  input: { id: number; rules: UnlockRulesInput; by: Actor },
): Promise<UnlockRules> {
  const { waitFree, earlyAccessChapters, bundlePercent } = input.rules;
  if (waitFree) {
    within('waitMinutes', waitFree.waitMinutes);
    within('rentalHours', waitFree.rentalHours);
    within('newReaderExtra', waitFree.newReaderExtra);
  }
  within('earlyAccessChapters', earlyAccessChapters);
  within('bundlePercent', bundlePercent);
  const values: UnlockRulesValues = {
    waitMinutes: waitFree?.waitMinutes ?? null,
    rentalHours: waitFree?.rentalHours ?? 72,
    newReaderExtra: waitFree?.newReaderExtra ?? 0,
    earlyAccessChapters,
    bundlePercent,
  };
  const saved = await deps.repo.transaction(async (tx) => {
    const book = await deps.repo.book(input.id, tx, true);
    if (!book) throw bookNotFound();
    const before = rulesOf(input.id, book.chapterCount, await deps.repo.rules(input.id, tx));
    const after = rulesOf(input.id, book.chapterCount, await deps.repo.save(tx, input.id, values));
    await deps.audit(tx, {
      ...input.by,
      action: 'book.unlock-rules',
      target: `book:${input.id}`,
      before: before.updatedAt === null ? null : auditedRules(before),
      after: auditedRules(after),
    });
    return after;
  });
  deps.changed?.();
  return saved;
}
