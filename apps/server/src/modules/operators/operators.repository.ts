import { and, desc, eq, gt, gte, like, lt, or } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { auditLog, type OperatorRole, operatorSessions, operators } from '../../db/schema/index.ts';
import type { AuditEntry } from './operators.port.ts';

export type { AuditEntry };

/** The audit log's filters (the console's 操作日志). */
export interface AuditFilter {
  operatorId?: number;
  action?: string;
  objectType?: string;
  objectId?: string;
  from?: Date;
  to?: Date;
}

/** A LIKE pattern's literal part: its wildcards and escape character taken as themselves. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The filters as one condition: the action whole or up to a dot; the object by its type (`book:…`, or the bare
 * `ads`) or by type and id (`book:65`, and what lies under it: `chapter:65/3` for book 65, and for chapter 65).
 */
function auditWhere(f: AuditFilter) {
  const objectOf = () => {
    if (f.objectType === undefined) return undefined;
    if (f.objectId === undefined || f.objectId === '') {
      return or(eq(auditLog.target, f.objectType), like(auditLog.target, `${literal(f.objectType)}:%`));
    }
    const exact = `${f.objectType}:${f.objectId}`;
    return or(
      eq(auditLog.target, exact),
      like(auditLog.target, `${literal(exact)}/%`),
      // A book's chapters are its own: `chapter:65/3` is found under book 65.
      f.objectType === 'book' ? like(auditLog.target, `chapter:${literal(f.objectId)}/%`) : undefined,
    );
  };
  return and(
    f.operatorId === undefined ? undefined : eq(auditLog.operatorId, f.operatorId),
    f.action === undefined
      ? undefined
      : or(eq(auditLog.action, f.action), like(auditLog.action, `${literal(f.action)}.%`)),
    objectOf(),
    f.from === undefined ? undefined : gte(auditLog.at, f.from),
    f.to === undefined ? undefined : lt(auditLog.at, f.to),
  );
}

const isUniqueViolation = (err: unknown) => (err as { cause?: { code?: string } }).cause?.code === '23505';

export type OperatorRow = typeof operators.$inferSelect;

/** What an operator is shown as: never the password hash. */
export const publicOperator = ({ id, name, role, disabled, createdAt }: OperatorRow) => ({
  id,
  name,
  role,
  disabled,
  createdAt: createdAt.toISOString(),
});
export type PublicOperator = ReturnType<typeof publicOperator>;

export function createOperatorsRepository(db: Database) {
  const audit = (q: Queryable, entry: AuditEntry) =>
    q.insert(auditLog).values({ ...entry, before: entry.before ?? null, after: entry.after ?? null });

  return {
    db,
    transaction: db.transaction.bind(db),
    audit,

    count: async () => (await db.$count(operators)) as number,

    async byName(name: string, q: Queryable = db) {
      const [row] = await q.select().from(operators).where(eq(operators.name, name));
      return row;
    },

    async byId(id: number, q: Queryable = db) {
      const [row] = await q.select().from(operators).where(eq(operators.id, id)).for('update');
      return row;
    },

    list: () => db.select().from(operators).orderBy(operators.id),

    /** The enabled owners, their rows locked until the transaction ends. */
    enabledOwners: (q: Queryable) =>
      q
        .select({ id: operators.id })
        .from(operators)
        .where(and(eq(operators.role, 'owner'), eq(operators.disabled, false)))
        .for('update'),

    /** Undefined when the name is taken (also under a concurrent insert). */
    async insert(q: Queryable, row: { name: string; passwordHash: string; role: OperatorRole }) {
      try {
        const [created] = await q.insert(operators).values(row).returning();
        return created;
      } catch (err) {
        if (isUniqueViolation(err)) return undefined;
        throw err;
      }
    },

    async update(
      q: Queryable,
      id: number,
      changes: Partial<Pick<OperatorRow, 'role' | 'disabled' | 'passwordHash'>>,
    ) {
      const [row] = await q.update(operators).set(changes).where(eq(operators.id, id)).returning();
      return row;
    },

    /** Ends every session of an operator (a new password, a role change, disabled). */
    endSessions: (q: Queryable, operatorId: number) =>
      q.delete(operatorSessions).where(eq(operatorSessions.operatorId, operatorId)),

    insertSession: (row: typeof operatorSessions.$inferInsert, q: Queryable = db) =>
      q.insert(operatorSessions).values(row),

    deleteSession: (tokenHash: string, q: Queryable = db) =>
      q.delete(operatorSessions).where(eq(operatorSessions.tokenHash, tokenHash)),

    /** The operator behind a live session, disabled or not (the caller refuses disabled ones). */
    async sessionOperator(tokenHash: string, now: Date) {
      const [row] = await db
        .select({ operator: operators })
        .from(operatorSessions)
        .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
        .where(and(eq(operatorSessions.tokenHash, tokenHash), gt(operatorSessions.expiresAt, now)));
      return row?.operator;
    },

    sweepSessions: async (now: Date) =>
      (await db.delete(operatorSessions).where(lt(operatorSessions.expiresAt, now)).returning()).length,

    async auditPage(filter: AuditFilter, offset: number, limit: number) {
      const where = auditWhere(filter);
      const rows = await db
        .select()
        .from(auditLog)
        .where(where)
        .orderBy(desc(auditLog.id))
        .offset(offset)
        .limit(limit);
      return { rows, total: (await db.$count(auditLog, where)) as number };
    },
  };
}

export type OperatorsRepository = ReturnType<typeof createOperatorsRepository>;
