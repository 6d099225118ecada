import type {
  ReaderMatch,
  ReaderProfile,
  ReaderPurchase,
  ReaderRecord,
  ReaderSession,
  ReaderTransfer,
} from '@yueman/contract/admin';
import type { Queryable } from '../../db/client.ts';
import { badRequest, notFound } from '../../shared/errors.ts';
import { consoleWindow } from '../../shared/pagination.ts';
import { generatePassword, hashPassword } from '../../shared/passwords/password.ts';
import type { AuditEntry } from '../operators/index.ts';
import type { ReaderQuery, ReadersConsoleRepository } from './readers.console.repository.ts';
import type { UsersRepository } from './users.repository.ts';

// The console's help for a reader who lost their account: customer service (and owners) find the
// reader and give them a new password, shown once to the operator, with a reason that the audit log keeps. Readers'
// own find-account stays for readers: it needs what only the payer holds (the whole order number and the amount).

export interface ReaderConsoleDeps {
  repo: UsersRepository;
  audit(q: Queryable, entry: AuditEntry): Promise<unknown>;
}

export const readerNotFound = () => notFound('未找到该读者');
const maskMobile = (mobile: string | null) =>
  mobile ? `${mobile.slice(0, 3)}****${mobile.slice(-4)}` : null;

/**
 * A new generated password for the reader; every session of theirs ends. The audit entry names the operator, the
 * reader and the reason, never the password; the password is answered this once.
 */
export async function resetReaderPassword(
  deps: ReaderConsoleDeps,
  input: { userId: number; reason: string; by: { operatorId: number; actor: string } },
) {
  const reason = input.reason.trim();
  if (reason === '') throw badRequest('请填写重置原因', 'reason');
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const row = await deps.repo.resetPassword(input.userId, passwordHash, (tx) =>
    deps.audit(tx, {
      ...input.by,
      action: 'reader.password.reset',
      target: `user:${input.userId}`,
      before: null,
      after: { reason },
    }),
  );
  if (!row) throw readerNotFound();
  return { userId: row.id, account: row.account, password };
}

// The reader page (docs/decisions.md, "The console's readers"): search, the page and its lists, and the account
// actions (sign out everywhere, block, unblock). Coins and VIP are the wallet's (wallet/coins.console.*).

export interface ReaderCareDeps {
  repo: ReadersConsoleRepository;
  audit(q: Queryable, entry: AuditEntry): Promise<unknown>;
  balanceOf(userId: number): Promise<number>;
  records(userId: number, limit: number, offset: number): Promise<{ total: number; list: ReaderRecord[] }>;
}

type Actor = { operatorId: number; actor: string };
type Paged = { page: number; size: number };

/** What the search box takes, and nothing else: letters, digits, `-` and `_`, 1 to 64 of them. */
const READER_INPUT = /^[A-Za-z0-9_-]{1,64}$/;
const ACCOUNT = /^yd\d{8}$/i;
const MOBILE = /^1\d{10}$/;
const USER_ID = /^\d{1,10}$/;
const MAX_MATCHES = 20;

/**
 * The search box's input read as what it can be: any of account name (`yd…`, either case), visitor id, user id
 * (digits within the id range) and bound mobile (11 digits from 1). Empty or any other shape is a 400 naming the
 * field, so a list filtered by it never silently lists everything.
 */
export function readerQuery(raw: string, field: string): ReaderQuery {
  const text = raw.trim();
  if (text === '') throw badRequest('请输入账号、手机号、用户 ID 或访客 ID', field);
  if (!READER_INPUT.test(text))
    throw badRequest('无法识别的读者：请输入账号（如 yd12345678）、绑定的手机号、用户 ID 或访客 ID', field);
  const query: ReaderQuery = { text: ACCOUNT.test(text) ? text.toLowerCase() : text };
  if (USER_ID.test(text) && Number(text) >= 1 && Number(text) <= 2_147_483_647) query.userId = Number(text);
  if (MOBILE.test(text)) query.mobile = text;
  return query;
}

function matchedBy(q: ReaderQuery, row: { userId: number; account: string; mobile: string | null }) {
  if (q.userId === row.userId) return 'userId' as const;
  if (row.account === q.text) return 'account' as const;
  if (q.mobile !== undefined && row.mobile === q.mobile) return 'mobile' as const;
  return 'visitorId' as const;
}

export async function searchReaders(
  deps: ReaderCareDeps,
  input: { q: string },
): Promise<{ list: ReaderMatch[] }> {
  const q = readerQuery(input.q, 'q');
  const rows = await deps.repo.search(q, MAX_MATCHES);
  return {
    list: rows.map((row) => ({
      userId: row.userId,
      account: row.account,
      mobile: maskMobile(row.mobile),
      matched: matchedBy(q, row),
      createdAt: row.createdAt.toISOString(),
      blocked: row.blockedAt !== null,
    })),
  };
}

/** The ids of the readers an input means (the orders list's 用户 filter): none is an empty list, never "all". */
export async function readerIdsMatching(
  deps: Pick<ReaderCareDeps, 'repo'>,
  input: { text: string; field: string; limit?: number },
) {
  const rows = await deps.repo.search(readerQuery(input.text, input.field), input.limit ?? MAX_MATCHES);
  return rows.map((r) => r.userId);
}

async function existing(deps: Pick<ReaderCareDeps, 'repo'>, userId: number) {
  const row = await deps.repo.user(userId);
  if (!row) throw readerNotFound();
  return row;
}

export async function readerProfile(deps: ReaderCareDeps, input: { userId: number }): Promise<ReaderProfile> {
  const row = await existing(deps, input.userId);
  const [extras, balance] = await Promise.all([
    deps.repo.profileExtras(row.id, row.visitorId, row.branchId, new Date()),
    deps.balanceOf(row.id),
  ]);
  return {
    userId: row.id,
    account: row.account,
    mobile: maskMobile(row.mobile),
    visitorId: row.visitorId,
    vipEnd: row.vipEnd?.toISOString() ?? null,
    balance,
    branchId: row.branchId,
    branchName: extras.branchName,
    // The first visit a branch link recorded, or the registration itself when none did (the first visit of a
    // visitor who came straight to the site is the moment the account was made for them).
    firstVisitAt: (extras.firstVisitAt && extras.firstVisitAt < row.createdAt
      ? extras.firstVisitAt
      : row.createdAt
    ).toISOString(),
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    activeSessions: extras.activeSessions,
    blocked:
      row.blockedAt === null ? null : { at: row.blockedAt.toISOString(), reason: row.blockReason ?? '' },
  };
}

const pageOf = <T>(input: Paged, total: number, list: T[]) => ({
  page: input.page,
  size: input.size,
  total,
  list,
});

export async function readerPurchases(deps: ReaderCareDeps, input: { userId: number } & Paged) {
  await existing(deps, input.userId);
  const { limit, offset } = consoleWindow(input);
  const { total, list } = await deps.repo.purchases(input.userId, limit, offset);
  return pageOf<ReaderPurchase>(
    input,
    total,
    list.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
  );
}

export async function readerTransfers(deps: ReaderCareDeps, input: { userId: number } & Paged) {
  await existing(deps, input.userId);
  const { limit, offset } = consoleWindow(input);
  const { total, list } = await deps.repo.transfers(input.userId, limit, offset);
  return pageOf<ReaderTransfer>(
    input,
    total,
    list.map((r) => ({
      ...r,
      amount: r.amount ?? 0,
      counterparty: r.counterparty ?? '',
      createdAt: r.createdAt.toISOString(),
    })),
  );
}

export async function readerRecords(deps: ReaderCareDeps, input: { userId: number } & Paged) {
  await existing(deps, input.userId);
  const { limit, offset } = consoleWindow(input);
  const { total, list } = await deps.records(input.userId, limit, offset);
  return pageOf<ReaderRecord>(input, total, list);
}

export async function readerSessions(deps: ReaderCareDeps, input: { userId: number } & Paged) {
  await existing(deps, input.userId);
  const { limit, offset } = consoleWindow(input);
  const { total, list } = await deps.repo.liveSessions(input.userId, new Date(), limit, offset);
  return pageOf<ReaderSession>(
    input,
    total,
    list.map((r) => ({ createdAt: r.createdAt.toISOString(), expiresAt: r.expiresAt.toISOString() })),
  );
}

/** A required reason, trimmed: 400 naming `reason` when empty. */
export function reasonOf(raw: string, what: string) {
  const reason = raw.trim();
  if (reason === '') throw badRequest(`请填写${what}原因`, 'reason');
  return reason;
}

/** Ends every session of the reader (they sign in again with their password); audited with the count. */
export async function signReaderOut(
  deps: ReaderCareDeps,
  input: { userId: number; reason: string; by: Actor },
) {
  const reason = reasonOf(input.reason, '退出登录的');
  const ended = await deps.repo.endSessions(input.userId, (tx, n) =>
    deps.audit(tx, {
      ...input.by,
      action: 'reader.sign-out',
      target: `user:${input.userId}`,
      before: { activeSessions: n },
      after: { activeSessions: 0, reason },
    }),
  );
  if (ended === undefined) throw readerNotFound();
  return { ended };
}

/**
 * Blocks (`block` true) or unblocks the reader: a blocked reader can neither pay nor buy, and reads what is free
 * and what they own. Audited with the state before and after; blocking a blocked reader keeps the first time and
 * takes the new reason.
 */
export async function setReaderBlock(
  deps: ReaderCareDeps,
  input: { userId: number; block: boolean; reason: string; by: Actor },
) {
  const reason = reasonOf(input.reason, input.block ? '封禁' : '解封');
  const now = new Date();
  const before = await deps.repo.setBlock(input.userId, input.block ? { at: now, reason } : null, (tx, was) =>
    deps.audit(tx, {
      ...input.by,
      action: input.block ? 'reader.block' : 'reader.unblock',
      target: `user:${input.userId}`,
      before: { blocked: was.blockedAt !== null, blockReason: was.blockReason },
      after: input.block ? { blocked: true, reason } : { blocked: false, reason },
    }),
  );
  if (!before) throw readerNotFound();
  return readerProfile(deps, { userId: input.userId });
}
