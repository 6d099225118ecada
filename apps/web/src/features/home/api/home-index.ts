import { queryOptions, useQuery } from '@tanstack/react-query';
import { routes } from '../../../lib/api-client.ts';
import { earlyData } from '../../../lib/early-data.ts';

/** GET /api/book/home/index (static): the carousel and every home section; landing on home, index.html started it. */
export const fetchHomeIndex = () => earlyData(routes.homeIndex);

export const homeIndexOptions = () => queryOptions({ queryKey: ['home-index'], queryFn: fetchHomeIndex });

export const useHomeIndex = () => useQuery(homeIndexOptions());
