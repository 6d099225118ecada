import type { ConsoleTicket, TicketGrant, TicketKind } from '@yueman/contract/admin';
import type { Queryable } from '../../db/client.ts';
import { AppError, badRequest, notFound } from '../../shared/errors.ts';
import type { AuditEntry } from '../operators/index.ts';
import { MAX_TICKETS_PER_GRANT, type TicketsConsoleRepository } from './tickets.console.repository.ts';

// Reading tickets an operator grants a reader (docs/decisions.md, "Unlock rules and ticket grants in the console"):
// owners and finance, a required reason, one grant per request id (a double click or a retry grants once), the audit
// entry with the reader's usable tickets before and after, in the grant's transaction.

export interface TicketsConsoleDeps {
  repo: TicketsConsoleRepository;
  audit(q: Queryable, entry: AuditEntry): Promise<unknown>;
}

type Actor = { operatorId: number; actor: string };

export const TICKET_GRANT_LIMITS = {
  count: { min: 1, max: MAX_TICKETS_PER_GRANT, msg: `每次发放 1 到 ${MAX_TICKETS_PER_GRANT} 张` },
  expiresInDays: { min: 1, max: 365, msg: '有效期须在 1 到 365 天之间' },
  rentalHours: { min: 1, max: 720, msg: '租借时长须在 1 到 720 小时之间，留空为永久解锁' },
  scopeBooks: 20,
} as const;

const DAY_MS = 86_400_000;
const readerNotFound = () => notFound('未找到该读者');
const requestReused = () =>
  new AppError(409, 409, '该请求编号已用于另一次发放，请关闭窗口后重新操作', { field: 'requestId' });

function within(name: 'count' | 'expiresInDays' | 'rentalHours', value: number) {
  const limit = TICKET_GRANT_LIMITS[name];
  if (value < limit.min || value > limit.max) throw badRequest(limit.msg, name);
}

/**
 * Grants `count` tickets of `kind` to the reader, each usable for `expiresInDays` days from now (then shown as
 * expired, never spent), on any book (scope null) or on the listed books (each must exist). The grant ids
 * `tickets:{userId}:{requestId}:{n}` make a double click or a retry grant nothing twice: it answers what the first
 * did, with `repeated`; the same request id with another kind or count is a 409. Grants to one reader queue on the
 * reader's row, so parallel copies of one request see each other.
 */
export async function grantReaderTickets(
  deps: TicketsConsoleDeps,
  input: {
    userId: number;
    kind: TicketKind;
    count: number;
    expiresInDays: number;
    scope: number[] | null;
    rentalHours?: number | null | undefined;
    reason: string;
    requestId: string;
    by: Actor;
  },
): Promise<TicketGrant> {
  const reason = input.reason.trim();
  if (reason === '') throw badRequest('请填写发放原因', 'reason');
  within('count', input.count);
  within('expiresInDays', input.expiresInDays);
  // null arrives as 0 (the schema's integer coercion): both mean a permanent unlock, as leaving it out does.
  const rentalHours = input.rentalHours ? input.rentalHours : null;
  if (rentalHours !== null) within('rentalHours', rentalHours);
  const scope = input.scope === null ? null : [...new Set(input.scope)].sort((a, b) => a - b);
  if (scope !== null && scope.length === 0)
    throw badRequest('请至少选择一本书，或选择适用于全部书籍', 'scope');
  if (scope !== null && scope.length > TICKET_GRANT_LIMITS.scopeBooks)
    throw badRequest(`指定书籍最多 ${TICKET_GRANT_LIMITS.scopeBooks} 本`, 'scope');
  const grantPrefix = `tickets:${input.userId}:${input.requestId}`;

  return deps.repo.transaction(async (tx) => {
    if (!(await deps.repo.readerExists(input.userId, tx, true))) throw readerNotFound();
    const earlier = await deps.repo.earlierGrant(tx, grantPrefix);
    if (earlier) {
      if (earlier.kind !== input.kind || earlier.count !== input.count) throw requestReused();
      const usable = await deps.repo.usable(input.userId, tx);
      return {
        kind: input.kind,
        count: input.count,
        expiresAt: earlier.expiresAt.toISOString(),
        usable,
        repeated: true,
      };
    }
    let titles: { bookId: number; title: string }[] = [];
    if (scope !== null) {
      titles = await deps.repo.booksOf(scope, tx);
      const missing = scope.filter((id) => !titles.some((b) => b.bookId === id));
      if (missing.length > 0) throw badRequest(`书籍 ID ${missing.join('、')} 不存在`, 'scope');
    }
    const before = await deps.repo.usable(input.userId, tx);
    const expiresAt = new Date(Date.now() + input.expiresInDays * DAY_MS);
    const made = await deps.repo.grant(tx, {
      userId: input.userId,
      grantPrefix,
      kind: input.kind,
      count: input.count,
      rentalHours,
      scope,
      reason,
      expiresAt,
    });
    // The reader's row lock makes another copy of this request impossible here; a partial grant must roll back.
    if (made !== input.count) throw new Error('a ticket grant collided with an earlier one');
    await deps.audit(tx, {
      ...input.by,
      action: 'reader.tickets.grant',
      target: `user:${input.userId}`,
      before: { usable: before },
      after: {
        usable: before + made,
        kind: input.kind,
        count: made,
        rentalHours,
        scope: scope && titles.map((b) => b.bookId),
        expiresAt: expiresAt.toISOString(),
        grantId: `${grantPrefix}:1..${made}`,
        reason,
      },
    });
    return {
      kind: input.kind,
      count: made,
      expiresAt: expiresAt.toISOString(),
      usable: before + made,
      repeated: false,
    };
  });
}

const iso = (v: Date | string) => new Date(v).toISOString();

/** A page of the reader's tickets with the titles of the books they are scoped to. */
export async function readerTickets(
  deps: TicketsConsoleDeps,
  input: { userId: number; page: number; size: number },
) {
  if (!(await deps.repo.readerExists(input.userId))) throw readerNotFound();
  const { total, list } = await deps.repo.page(input.userId, input.page, input.size);
  const ids = [...new Set(list.flatMap((t) => t.scope_book_ids ?? []))];
  const titles = new Map((await deps.repo.booksOf(ids)).map((b) => [b.bookId, b.title]));
  const rows: ConsoleTicket[] = list.map((t) => ({
    id: t.id,
    kind: t.kind,
    rentalHours: t.rental_hours,
    scope: t.scope_book_ids?.map((bookId) => ({ bookId, title: titles.get(bookId) ?? '' })) ?? null,
    source: t.source,
    reason: t.reason,
    state: t.state,
    expiresAt: iso(t.expires_at),
    spentAt: t.spent_at === null ? null : iso(t.spent_at),
    createdAt: iso(t.created_at),
  }));
  return { page: input.page, size: input.size, total, list: rows };
}
