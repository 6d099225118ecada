import type { Queryable } from '../../db/client.ts';

/** One audited write: who (an operator, or the command line), what, and the row before and after. */
export interface AuditEntry {
  operatorId: number | null;
  actor: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

/** What other modules and main.ts may ask of the operators module. */
export interface OperatorsPort {
  /** How many operators exist (main.ts says how to create the first one when there is none). */
  count(): Promise<number>;
  /** Records one write in the audit log, inside the write's own transaction. */
  audit(q: Queryable, entry: AuditEntry): Promise<unknown>;
}
