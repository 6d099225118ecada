import { mutationOptions, useMutation } from '@tanstack/react-query';
import type { QueryOf } from '@yueman/contract';
import { call, routes } from '../../../lib/api-client.ts';

/**
 * POST /api/user/find_account (form body chargeTime: the China date of a payment, YYYY-MM-DD, and orderNo: its
 * merchant order number). Code 404 when nothing matches; on success the answer carries the account and its new
 * password, and the session moves to it.
 */
export const fetchFindAccount = (input: QueryOf<typeof routes.findAccount>) =>
  call(routes.findAccount, { query: input });

export const findAccountMutation = () =>
  mutationOptions({ mutationKey: ['user', 'find_account'], mutationFn: fetchFindAccount });

export const useFindAccount = () => useMutation(findAccountMutation());
