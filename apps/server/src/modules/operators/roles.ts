import { OPERATOR_ROLES, type OperatorRole } from '../../db/schema/index.ts';

export { OPERATOR_ROLES, type OperatorRole };

/**
 * Who reaches which console calls. Every `/api/admin/` route names its roles in `config.operatorRoles` (the session
 * plugin refuses to register one that does not), so a new call is never open to every role by accident.
 *
 * - owner: everything, operators included;
 * - editor: the catalogue and the home page;
 * - finance: reads orders and money; adjusts a reader's coins and VIP days;
 * - support: reads, answers complaints, and keeps readers' accounts (password, sign-out, block).
 */
export const ANY_ROLE: readonly OperatorRole[] = OPERATOR_ROLES;
export const OWNER_ONLY: readonly OperatorRole[] = ['owner'];
export const CATALOGUE_WRITERS: readonly OperatorRole[] = ['owner', 'editor'];
/** Orders and their stories: owners, finance, and customer service (a reader asking about a payment). */
export const ORDER_READERS: readonly OperatorRole[] = ['owner', 'finance', 'support'];
/** The money (revenue per branch): owners and finance. */
export const REVENUE_READERS: readonly OperatorRole[] = ['owner', 'finance'];
/** Refunds (making and seeing them), and so whole order numbers in the console (others see them in part): owners and finance. */
export const REFUNDERS: readonly OperatorRole[] = ['owner', 'finance'];
/**
 * A reader's account (audited, with a reason): resetting the password, signing them out everywhere, blocking and
 * unblocking. Owners and customer service.
 */
export const READER_ACCOUNT_KEEPERS: readonly OperatorRole[] = ['owner', 'support'];
/** Finding a reader and reading their page (orders, purchases, records, coins, sessions): all but editors. */
export const READER_VIEWERS: readonly OperatorRole[] = ['owner', 'finance', 'support'];
/** A reader's coins and VIP days (grant or take back, audited, with a reason): owners and finance. */
export const READER_VALUE_KEEPERS: readonly OperatorRole[] = ['owner', 'finance'];

/** The recharge centre's packs and pay channels, with the first-recharge offer (audited): owners and finance edit. */
export const PACK_KEEPERS: readonly OperatorRole[] = ['owner', 'finance'];
/** Reading the packs and channels: also customer service (a reader asking what a pack gives or what they paid). */
export const PACK_VIEWERS: readonly OperatorRole[] = ['owner', 'finance', 'support'];

/**
 * The readers' complaints: reading them, taking them (处理中, 已处理) and adding notes or replies (audited): owners
 * and customer service. Taking the reported book or chapter down stays the catalogue's call (CATALOGUE_WRITERS).
 */
export const COMPLAINT_HANDLERS: readonly OperatorRole[] = ['owner', 'support'];

export const isRole = (value: unknown): value is OperatorRole =>
  typeof value === 'string' && (OPERATOR_ROLES as readonly string[]).includes(value);
