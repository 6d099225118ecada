import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** What an operator may do (modules/operators/roles.ts says which calls each role reaches). */
export const OPERATOR_ROLES = ['owner', 'editor', 'finance', 'support'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

// The people who run the service. Not readers: their own table, sessions and cookie.
export const operators = pgTable(
  'operators',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull().unique(),
    // argon2id PHC string (users/password.ts); never the plaintext.
    passwordHash: text().notNull(),
    role: text().$type<OperatorRole>().notNull(),
    disabled: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('operators_role', sql`${t.role} in ('owner', 'editor', 'finance', 'support')`),
    check('operators_name', sql`${t.name} ~ '^[A-Za-z0-9_.-]{2,32}$'`),
  ],
);

export const operatorSessions = pgTable(
  'operator_sessions',
  {
    // SHA-256 of the cookie token, hex; the token itself is never stored.
    tokenHash: text().primaryKey(),
    operatorId: integer()
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('operator_sessions_by_operator').on(t.operatorId)],
);

// Every write an operator makes (and the command line's, with operator_id null and actor 'cli'): who, when, what,
// the row before and after. Only ever inserted.
export const auditLog = pgTable(
  'audit_log',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    operatorId: integer().references(() => operators.id, { onDelete: 'set null' }),
    actor: text().notNull(),
    action: text().notNull(),
    target: text().notNull(),
    before: jsonb(),
    after: jsonb(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_at').on(t.at), index('audit_log_target').on(t.target)],
);
