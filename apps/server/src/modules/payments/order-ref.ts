import { createHash } from 'node:crypto';

/**
 * How a log line names an order: the first 12 hex digits of the SHA-256 of its merchant number. The number itself
 * recovers an account (with its day and amount, find-account) and is never logged; an operator who holds a number
 * finds its lines with `printf %s YM… | sha256sum | cut -c1-12` (docs/operations.md).
 */
export const orderRef = (orderNo: string) => createHash('sha256').update(orderNo).digest('hex').slice(0, 12);
