import { createHash, randomBytes } from 'node:crypto';
import type { OperatorRole } from '../../db/schema/index.ts';
import { chinaDay } from '../../shared/china-time.ts';
import { badRequest } from '../../shared/errors.ts';
import { consoleWindow } from '../../shared/pagination.ts';
import { generatePassword, hashPassword } from '../../shared/passwords/password.ts';
import {
  badName,
  badRole,
  lastOwner,
  nameTaken,
  noSuchOperator,
  nothingToChange,
  wrongLogin,
} from './operators.errors.ts';
import {
  type AuditEntry,
  type OperatorRow,
  type OperatorsRepository,
  type PublicOperator,
  publicOperator,
} from './operators.repository.ts';
import { isRole } from './roles.ts';

/** A console session lasts a working day; it does not slide. */
export const OPERATOR_SESSION_MS = 8 * 3600 * 1000;
const NAME = /^[A-Za-z0-9_.-]{2,32}$/;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Who makes a write: an operator signed in to the console, or the command line (`npm run operator`). */
export type Actor = { operator: OperatorRow } | { cli: true };
const actorOf = (actor: Actor) =>
  'cli' in actor
    ? { operatorId: null, actor: 'cli' }
    : { operatorId: actor.operator.id, actor: actor.operator.name };

export interface PasswordCheck {
  check(input: {
    user: { id: number; passwordHash: string } | undefined;
    name: string;
    password: string;
    ip: string;
  }): Promise<boolean>;
}

/** Creates an operator with a generated password, shown once. */
export async function addOperator(
  repo: OperatorsRepository,
  input: { name: string; role: string; actor: Actor },
): Promise<{ operator: PublicOperator; password: string }> {
  if (!NAME.test(input.name)) throw badName();
  if (!isRole(input.role)) throw badRole();
  const password = generatePassword(16);
  const passwordHash = await hashPassword(password);
  const created = await repo.transaction(async (tx) => {
    const row = await repo.insert(tx, { name: input.name, passwordHash, role: input.role as OperatorRole });
    if (!row) throw nameTaken();
    await repo.audit(tx, {
      ...actorOf(input.actor),
      action: 'operator.add',
      target: `operator:${row.id}`,
      before: null,
      after: publicOperator(row),
    });
    return row;
  });
  return { operator: publicOperator(created), password };
}

/** A new generated password for an operator, named by name (the command line) or id (the console); their sessions end. */
export async function rotatePassword(
  repo: OperatorsRepository,
  input: ({ name: string } | { id: number }) & { actor: Actor },
): Promise<string> {
  const password = generatePassword(16);
  const passwordHash = await hashPassword(password);
  await repo.transaction(async (tx) => {
    const found = 'id' in input ? await repo.byId(input.id, tx) : await repo.byName(input.name, tx);
    if (!found) throw noSuchOperator();
    await repo.update(tx, found.id, { passwordHash });
    await repo.endSessions(tx, found.id);
    // The hash is no one's business: the log says that it changed, not what it is.
    await repo.audit(tx, {
      ...actorOf(input.actor),
      action: 'operator.password',
      target: `operator:${found.id}`,
      before: null,
      after: null,
    });
  });
  return password;
}

/** Changes an operator's role or disabled flag; the last enabled owner keeps both. Sessions end on any change. */
export async function updateOperator(
  repo: OperatorsRepository,
  input: { id: number; role?: string; disabled?: boolean; actor: Actor },
): Promise<PublicOperator> {
  if (input.role !== undefined && !isRole(input.role)) throw badRole();
  const changes = {
    ...(input.role !== undefined ? { role: input.role as OperatorRole } : {}),
    ...(input.disabled !== undefined ? { disabled: input.disabled } : {}),
  };
  // A body of unknown keys only passes the schema (they are dropped) and would be an update of no column.
  if (Object.keys(changes).length === 0) throw nothingToChange();
  return repo.transaction(async (tx) => {
    const before = await repo.byId(input.id, tx);
    if (!before) throw noSuchOperator();
    const after = { ...before, ...changes };
    const wasOwner = before.role === 'owner' && !before.disabled;
    const staysOwner = after.role === 'owner' && !after.disabled;
    if (wasOwner && !staysOwner) {
      // Every enabled owner's row, locked: two owners demoting each other at once cannot both pass.
      if ((await repo.enabledOwners(tx)).length <= 1) throw lastOwner();
    }
    const row = (await repo.update(tx, input.id, changes)) as OperatorRow;
    await repo.endSessions(tx, input.id);
    await repo.audit(tx, {
      ...actorOf(input.actor),
      action: 'operator.update',
      target: `operator:${input.id}`,
      before: publicOperator(before),
      after: publicOperator(row),
    });
    return publicOperator(row);
  });
}

/**
 * Signs an operator in: a new session token for the cookie, or wrongLogin (also for a disabled operator). Both are
 * in the audit log with the client's address: `operator.login`, and `operator.login-failed` under the name as typed
 * (an attempt refused by the attempt limit is not, so a flood adds no rows: it is logged at warn).
 */
export async function login(
  deps: { repo: OperatorsRepository; guard: PasswordCheck; log?: AuditFailureLog },
  input: { name: string; password: string; ip: string },
  now = new Date(),
) {
  const operator = await deps.repo.byName(input.name);
  const correct = await deps.guard.check({
    user: operator,
    name: input.name,
    password: input.password,
    ip: input.ip,
  });
  if (!correct || !operator || operator.disabled) {
    await auditBesideAnswer(deps, {
      operatorId: operator?.id ?? null,
      actor: input.name,
      action: 'operator.login-failed',
      target: operator ? `operator:${operator.id}` : 'operator:?',
      before: null,
      after: {
        address: input.ip,
        reason: !operator ? 'unknown-name' : correct ? 'disabled' : 'wrong-password',
      },
    });
    throw wrongLogin();
  }
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + OPERATOR_SESSION_MS);
  await deps.repo.transaction(async (tx) => {
    await deps.repo.insertSession({ tokenHash: hashToken(token), operatorId: operator.id, expiresAt }, tx);
    await deps.repo.audit(tx, {
      operatorId: operator.id,
      actor: operator.name,
      action: 'operator.login',
      target: `operator:${operator.id}`,
      before: null,
      after: { address: input.ip },
    });
  });
  return { operator: publicOperator(operator), token, expiresAt };
}

/** Ends a console session, in the audit log as `operator.logout` with the client's address. */
export async function logout(
  repo: OperatorsRepository,
  input: { token: string; operator: OperatorRow; ip: string },
) {
  await repo.transaction(async (tx) => {
    await repo.deleteSession(hashToken(input.token), tx);
    await repo.audit(tx, {
      operatorId: input.operator.id,
      actor: input.operator.name,
      action: 'operator.logout',
      target: `operator:${input.operator.id}`,
      before: null,
      after: { address: input.ip },
    });
  });
}

/**
 * A console write refused for the operator's role (403), in the audit log as `operator.refused`: the call
 * (`POST /api/admin/operators`), the role and the client's address.
 */
export const auditRefusal = (
  deps: { repo: OperatorsRepository; log?: AuditFailureLog },
  input: { operator: OperatorRow; call: string; ip: string },
) =>
  auditBesideAnswer(deps, {
    operatorId: input.operator.id,
    actor: input.operator.name,
    action: 'operator.refused',
    target: input.call,
    before: null,
    after: { address: input.ip, role: input.operator.role },
  });

export interface AuditFailureLog {
  warn(obj: object, msg: string): void;
}

/** An entry about a refusal: the refusal is the answer whatever happens to its entry (a failure is logged). */
async function auditBesideAnswer(
  deps: { repo: OperatorsRepository; log?: AuditFailureLog },
  entry: AuditEntry,
) {
  try {
    await deps.repo.audit(deps.repo.db, entry);
  } catch (err) {
    deps.log?.warn({ err, action: entry.action }, 'could not write an audit entry');
  }
}

/** The enabled operator behind a cookie token, or undefined. */
export async function operatorOf(repo: OperatorsRepository, token: string, now = new Date()) {
  const operator = await repo.sessionOperator(hashToken(token), now);
  return operator && !operator.disabled ? operator : undefined;
}

/** Every operator, without password hashes. */
export const listOperators = async (repo: OperatorsRepository) => (await repo.list()).map(publicOperator);

export interface AuditQuery {
  page: number;
  size: number;
  operatorId?: number;
  /** A whole action code, or the start of one up to a dot (`reader` finds `reader.coins.grant`). */
  action?: string;
  /** The object's type (`book`), and its id (`65`: the book and its chapters, `chapter:65/…`). */
  objectType?: string;
  objectId?: string;
  /** China dates, both included. */
  from?: string;
  to?: string;
}

function dayOf(text: string, field: 'from' | 'to') {
  const day = chinaDay(text);
  if (!day) throw badRequest(`${field === 'from' ? '开始' : '结束'}日期不正确，格式为 YYYY-MM-DD`, field);
  return day;
}

/** A page of the audit log, newest first, with its filters (an id without a type is refused, naming it). */
export async function auditPage(repo: OperatorsRepository, input: AuditQuery) {
  const { page, size, operatorId, action, objectType, objectId } = input;
  if (objectId !== undefined && objectType === undefined) throw badRequest('请先选择对象类型', 'objectType');
  const from = input.from === undefined ? undefined : dayOf(input.from, 'from').from;
  const to = input.to === undefined ? undefined : dayOf(input.to, 'to').to;
  if (from && to && to <= from) throw badRequest('结束日期不能早于开始日期', 'to');
  const { offset, limit } = consoleWindow({ page, size });
  const { rows, total } = await repo.auditPage(
    { operatorId, action, objectType, objectId: objectId?.trim(), from, to },
    offset,
    limit,
  );
  return { page, size, total, list: rows.map((row) => ({ ...row, at: row.at.toISOString() })) };
}
