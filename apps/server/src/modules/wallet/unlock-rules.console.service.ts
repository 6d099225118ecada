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

/**
 * The stored row as the contract's rules. A branch without its own row shows the default's values (what its readers
 * follow) with updatedAt null; a book without a default row has none (coins only).
 */
function rulesOf(
  at: { bookId: number; branchId: number | null; chapterCount: number; branches: number[] },
  row: UnlockRulesRow | undefined,
  fallback?: UnlockRulesRow,
): UnlockRules {
  const values = row ?? fallback;
  return {
    bookId: at.bookId,
    branchId: at.branchId,
    waitFree:
      values?.waitMinutes == null
        ? null
        : {
            waitMinutes: values.waitMinutes,
            rentalHours: values.rentalHours,
            newReaderExtra: values.newReaderExtra,
          },
    earlyAccessChapters: values?.earlyAccessChapters ?? 0,
    bundlePercent: values?.bundlePercent ?? 0,
    chapterCount: at.chapterCount,
    updatedAt: row?.updatedAt.toISOString() ?? null,
    branches: at.branches,
  };
}

const auditedRules = ({ bookId, chapterCount, updatedAt, branches, ...rules }: UnlockRules) => rules;

/** The rules of the book's default (branchId null) or of one promotion branch, read inside `q`. */
async function read(
  repo: UnlockRulesConsoleRepository,
  q: Queryable | undefined,
  bookId: number,
  chapterCount: number,
  branchId: number | null,
) {
  const row = await repo.rules(bookId, branchId, q);
  const fallback = branchId === null ? undefined : await repo.rules(bookId, null, q);
  const branches = await repo.branches(bookId, q);
  return { row, rules: rulesOf({ bookId, branchId, chapterCount, branches }, row, fallback) };
}

export async function bookUnlockRules(
  deps: UnlockRulesConsoleDeps,
  { id, branchId = null }: { id: number; branchId?: number | null },
) {
  const book = await deps.repo.book(id);
  if (!book) throw bookNotFound();
  return (await read(deps.repo, undefined, id, book.chapterCount, branchId)).rules;
}

/**
 * Replaces the book's unlock rules, its default or one promotion branch's variant (every field at once, as the card
 * shows them). Each number is checked against UNLOCK_RULE_LIMITS (a Chinese 400 naming the field, nothing saved);
 * an unknown book is a 404. Two saves of one book queue on the book's row; the audit entry holds the rules before
 * (null when that row was never set) and after, with the branch, in the same transaction.
 */
export async function setBookUnlockRules(
  deps: UnlockRulesConsoleDeps,
  input: { id: number; rules: UnlockRulesInput; by: Actor },
): Promise<UnlockRules> {
  const { waitFree, earlyAccessChapters, bundlePercent } = input.rules;
  const branchId = input.rules.branchId ?? null;
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
    const before = await read(deps.repo, tx, input.id, book.chapterCount, branchId);
    await deps.repo.save(tx, input.id, branchId, values);
    const after = await read(deps.repo, tx, input.id, book.chapterCount, branchId);
    await deps.audit(tx, {
      ...input.by,
      action: 'book.unlock-rules',
      target: `book:${input.id}`,
      before: before.row ? auditedRules(before.rules) : null,
      after: auditedRules(after.rules),
    });
    return after.rules;
  });
  deps.changed?.();
  return saved;
}

/**
 * Deletes one promotion branch's variant: its readers follow the book's default rules again. Audited
 * (`book.unlock-rules.delete`, the variant before, null after); a book or a variant that does not exist is a 404 and
 * nothing is written. Answers the book's default rules.
 */
export async function deleteBookUnlockRules(
  deps: UnlockRulesConsoleDeps,
  input: { id: number; branchId: number; by: Actor },
): Promise<UnlockRules> {
  const rules = await deps.repo.transaction(async (tx) => {
    const book = await deps.repo.book(input.id, tx, true);
    if (!book) throw bookNotFound();
    const before = await read(deps.repo, tx, input.id, book.chapterCount, input.branchId);
    if (!before.row) throw notFound('该推广渠道没有专属解锁规则');
    await deps.repo.remove(tx, input.id, input.branchId);
    await deps.audit(tx, {
      ...input.by,
      action: 'book.unlock-rules.delete',
      target: `book:${input.id}`,
      before: auditedRules(before.rules),
      after: null,
    });
    return (await read(deps.repo, tx, input.id, book.chapterCount, null)).rules;
  });
  // The book's detail is a kept answer: a deleted variant changes nothing it shows today, but clearing keeps one rule
  // for every save of the rules.
  deps.changed?.();
  return rules;
}
