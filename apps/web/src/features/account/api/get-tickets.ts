import { queryOptions, useQuery } from '@tanstack/react-query';
import { data, routes } from '../../../lib/api-client.ts';

/** GET /api/user/tickets: the reader's reading tickets, usable first, expiring soonest first. */
export const ticketsQuery = () =>
  queryOptions({
    queryKey: ['user', 'tickets'],
    queryFn: () => data(routes.tickets),
    staleTime: 0,
  });

export const useTickets = () => useQuery(ticketsQuery());
