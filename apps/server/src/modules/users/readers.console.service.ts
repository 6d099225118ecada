import type { Queryable } from '../../db/client.ts';
import { badRequest, notFound } from '../../shared/errors.ts';
import { generatePassword, hashPassword } from '../../shared/passwords/password.ts';
import type { AuditEntry } from '../operators/index.ts';
import type { UsersRepository } from './users.repository.ts';

// The console's help for a reader who lost their account: customer service (and owners) find the
// reader and give them a new password, shown once to the operator, with a reason that the audit log keeps. Readers'
// own find-account stays for readers: it needs what only the payer holds (the whole order number and the amount).

export interface ReaderConsoleDeps {
  repo: UsersRepository;
  audit(q: Queryable, entry: AuditEntry): Promise<unknown>;
}

const readerNotFound = () => notFound('未找到该读者');
const maskMobile = (mobile: string | null) =>
  mobile ? `${mobile.slice(0, 3)}****${mobile.slice(-4)}` : null;

/** The reader by user id, or by account name or bound mobile, as support reads it: no password, no hash. */
export async function findReader(deps: ReaderConsoleDeps, input: { userId?: number; account?: string }) {
  const account = input.account?.trim() ?? '';
  if (input.userId === undefined && account === '') throw badRequest('请输入用户 ID 或账号', 'account');
  const row =
    input.userId !== undefined
      ? await deps.repo.userById(input.userId)
      : await deps.repo.userByLoginName(account);
  if (!row) throw readerNotFound();
  return {
    userId: row.id,
    account: row.account,
    mobile: maskMobile(row.mobile),
    vipEnd: row.vipEnd?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

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
