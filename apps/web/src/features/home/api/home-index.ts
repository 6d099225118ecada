import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HomeIndex } from '@yueman/contract';
import { data } from '../../../lib/api-client.ts';

/** GET /api/book/home/index (static): the carousel and every home section. */
export const fetchHomeIndex = () => data<HomeIndex>('static', 'GET', '/api/book/home/index');

export const homeIndexOptions = () => queryOptions({ queryKey: ['home-index'], queryFn: fetchHomeIndex });

export const useHomeIndex = () => useQuery(homeIndexOptions());
