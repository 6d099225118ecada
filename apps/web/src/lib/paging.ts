/** The page after `page` of a list the server says has `totalPage` pages; none when it is 0 or `page` is the last (spec section 4). */
export const nextPage = (totalPage: number, page: number) =>
  totalPage === 0 || page >= totalPage ? undefined : page + 1;
