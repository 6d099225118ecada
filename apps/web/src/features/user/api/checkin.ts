import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { refreshUser } from '../../../lib/api/user-info.ts';
import { data, routes } from '../../../lib/api-client.ts';

/** GET /api/user/checkin: the streak calendar (the cycle's seven days, today's state, the streak). */
export const checkinQuery = () =>
  queryOptions({ queryKey: ['user', 'checkin'], queryFn: () => data(routes.checkin), staleTime: 0 });

export const useCheckin = () => useQuery(checkinQuery());

/**
 * POST /api/user/checkin/claim: today's check-in (a second one pays nothing). The answer replaces the calendar;
 * the balance and the tickets are read again, as they may have grown.
 */
export function useClaimCheckin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => data(routes.claimCheckin),
    onSuccess: (claim) => {
      client.setQueryData(checkinQuery().queryKey, claim);
      void refreshUser();
      void client.invalidateQueries({ queryKey: ['user', 'tickets'] });
    },
  });
}
