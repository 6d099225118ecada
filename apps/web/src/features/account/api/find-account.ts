import { mutationOptions, useMutation } from '@tanstack/react-query';
import type { FoundAccount } from '@yueman/contract';
import { call } from '../../../lib/api-client.ts';

/**
 * POST /api/user/find_account?chargeTime=YYYY-MM-DD (China date of a payment). Code 404 when nothing
 * matches; on success the answer carries the account and its new password, and the session moves to it.
 */
export const fetchFindAccount = (chargeTime: string) =>
  call<FoundAccount>('dynamic', 'POST', '/api/user/find_account', { query: { chargeTime } });

export const findAccountMutation = () =>
  mutationOptions({ mutationKey: ['user', 'find_account'], mutationFn: fetchFindAccount });

export const useFindAccount = () => useMutation(findAccountMutation());
