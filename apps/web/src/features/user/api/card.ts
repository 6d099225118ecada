import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { refreshUser } from '../../../lib/api/user-info.ts';
import { data, routes } from '../../../lib/api-client.ts';

/** GET /api/user/card: the monthly card (runs today, days left, claimed today, today's reward). */
export const cardQuery = () =>
  queryOptions({ queryKey: ['user', 'card'], queryFn: () => data(routes.card), staleTime: 0 });

export const useMonthlyCard = () => useQuery(cardQuery());

/**
 * POST /api/user/card/claim: today's reward of the card (a second claim pays nothing). The answer replaces the
 * card's state; the balance and the tickets are read again, as they may have grown.
 */
export function useClaimCard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => data(routes.claimCard),
    onSuccess: (claim) => {
      client.setQueryData(cardQuery().queryKey, claim);
      void refreshUser();
      void client.invalidateQueries({ queryKey: ['user', 'tickets'] });
    },
  });
}
