import { PAGE_SIZE } from '@yueman/contract';
import { Type } from 'typebox';

/** The rows of a page (pages start at 1, PAGE_SIZE a page: packages/contract rules.ts). */
export const pageWindow = (page: number) => ({ limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });

/**
 * The console's tables (/api/admin/): `page` from 1 and a `size` the table chooses, both in the query string. The
 * server pages; the browser never holds a whole table.
 */
export const consolePageQuery = {
  page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
};

/** The rows of a console page. */
export const consoleWindow = ({ page, size }: { page: number; size: number }) => ({
  limit: size,
  offset: (page - 1) * size,
});
