import { PAGE_SIZE } from '@yueman/contract';

/** The rows of a page (pages start at 1, PAGE_SIZE a page: packages/contract rules.ts). */
export const pageWindow = (page: number) => ({ limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
