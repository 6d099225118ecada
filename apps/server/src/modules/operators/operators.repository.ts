import { and, desc, eq, gt, lt } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { auditLog, type OperatorRole, operatorSessions, operators } from '../../db/schema/index.ts';
import type { AuditEntry } from './operators.port.ts';

export type { AuditEntry };

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

    async auditPage(offset: number, limit: number) {
      const rows = await db.select().from(auditLog).orderBy(desc(auditLog.id)).offset(offset).limit(limit);
      return { rows, total: (await db.$count(auditLog)) as number };
    },
  };
}

export type OperatorsRepository = ReturnType<typeof createOperatorsRepository>;
