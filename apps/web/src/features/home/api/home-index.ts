import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HomeIndex } from '@yueman/contract';
import { data } from '../../../lib/api-client.ts';
import { takeEarly } from '../../../lib/early-data.ts';

/** GET /api/book/home/index (static): the carousel and every home section. */
export async function fetchHomeIndex(): Promise<HomeIndex> {
  const path = '/api/book/home/index';
  return (await takeEarly<HomeIndex>(path)) ?? data<HomeIndex>('static', 'GET', path);
}

export const homeIndexOptions = () => queryOptions({ queryKey: ['home-index'], queryFn: fetchHomeIndex });

export const useHomeIndex = () => useQuery(homeIndexOptions());
