/** Lists are 20 a page, pages start at 1, totalPage = ceil(totalItem / 20) (docs/contract.md section 6). */
export const PAGE_SIZE = 20;

export const pageWindow = (page: number) => ({ limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });

export const totalPages = (totalItem: number) => Math.ceil(totalItem / PAGE_SIZE);
