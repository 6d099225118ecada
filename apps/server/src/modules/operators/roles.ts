import { OPERATOR_ROLES, type OperatorRole } from '../../db/schema/index.ts';

export { OPERATOR_ROLES, type OperatorRole };

/**
 * Who reaches which console calls. Every `/api/admin/` route names its roles in `config.operatorRoles` (the session
 * plugin refuses to register one that does not), so a new call is never open to every role by accident.
 *
 * - owner: everything, operators included;
 * - editor: the catalogue and the home page;
 * - finance: reads orders and money (its writes come with the console's part 2);
 * - support: reads, and answers complaints.
 */
export const ANY_ROLE: readonly OperatorRole[] = OPERATOR_ROLES;
export const OWNER_ONLY: readonly OperatorRole[] = ['owner'];
export const CATALOGUE_WRITERS: readonly OperatorRole[] = ['owner', 'editor'];
/** Orders and their stories: owners, finance, and customer service (a reader asking about a payment). */
export const ORDER_READERS: readonly OperatorRole[] = ['owner', 'finance', 'support'];
/** The money (revenue per branch): owners and finance. */
export const REVENUE_READERS: readonly OperatorRole[] = ['owner', 'finance'];
/** Refunds, and so whole order numbers in the console (others see them in part): owners. */
export const REFUNDERS: readonly OperatorRole[] = ['owner'];
/** Resetting a reader's password (audited, with a reason): owners and customer service. */
export const READER_ACCOUNT_KEEPERS: readonly OperatorRole[] = ['owner', 'support'];

export const isRole = (value: unknown): value is OperatorRole =>
  typeof value === 'string' && (OPERATOR_ROLES as readonly string[]).includes(value);
