import { queryOptions, useQuery } from '@tanstack/react-query';
import { data, routes } from '../../../lib/api-client.ts';

/** GET /api/book/category (static): publish statuses and categories, without the 'all' entries. */
export const fetchCategories = () => data(routes.category);

export const categoriesOptions = () =>
  queryOptions({ queryKey: ['categories'], queryFn: fetchCategories, staleTime: 10 * 60_000 });

export const useCategories = () => useQuery(categoriesOptions());
