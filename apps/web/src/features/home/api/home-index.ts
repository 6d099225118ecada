import { queryOptions, useQuery } from '@tanstack/react-query';
import { routes } from '../../../lib/api-client.ts';
import { earlyData, earlyDataNow } from '../../../lib/early-data.ts';

/** GET /api/book/home/index (static): the carousel and every home section; landing on home, index.html started it. */
export const fetchHomeIndex = () => earlyData(routes.homeIndex);

/** Landing on home, the answer in the page is the first frame's data (no skeleton over the painted first screen). */
export const homeIndexOptions = () =>
  queryOptions({
    queryKey: ['home-index'],
    queryFn: fetchHomeIndex,
    initialData: () => earlyDataNow(routes.homeIndex),
  });

export const useHomeIndex = () => useQuery(homeIndexOptions());
