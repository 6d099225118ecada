import { DEFAULT_BRANCH, isTraceId } from '@yueman/contract';

/**
 * The headers the web app sends for attribution only (docs/api.md section 2): they say which visitor and which
 * promotion branch a request comes from, never who the user is.
 */

/** A well-formed x-trace-id is the visitor id; anything else is ignored. */
export const visitorIdFrom = (traceId: unknown) => (isTraceId(traceId) ? traceId : undefined);

/** x-branch-id as a branch id: an integer that fits the database's column, else the default branch. */
export function branchIdFrom(header: unknown): number {
  const n = typeof header === 'string' ? Number(header) : Number.NaN;
  return Number.isInteger(n) && Math.abs(n) <= 2_147_483_647 ? n : DEFAULT_BRANCH;
}
