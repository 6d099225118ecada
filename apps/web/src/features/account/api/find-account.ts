import { mutationOptions, useMutation } from '@tanstack/react-query';
import type { FoundAccount } from '@yueman/contract';
import { call } from '../../../lib/api-client.ts';

export interface FindAccountInput {
  /** China date of the payment, YYYY-MM-DD. */
  chargeTime: string;
  /** The merchant order number of that payment, from the payer's bill or our cashier. */
  orderNo: string;
}

/**
 * POST /api/user/find_account (form body chargeTime, orderNo). Code 404 when nothing matches; on success the
 * answer carries the account and its new password, and the session moves to it.
 */
export const fetchFindAccount = (input: FindAccountInput) =>
  call<FoundAccount>('dynamic', 'POST', '/api/user/find_account', { form: { ...input } });

export const findAccountMutation = () =>
  mutationOptions({ mutationKey: ['user', 'find_account'], mutationFn: fetchFindAccount });

export const useFindAccount = () => useMutation(findAccountMutation());
