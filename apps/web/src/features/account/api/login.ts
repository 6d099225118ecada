import { mutationOptions, useMutation } from '@tanstack/react-query';
import type { UserInfo } from '@yueman/contract';
import { call } from '../../../lib/api-client.ts';

export interface LoginInput {
  account: string;
  password: string;
}

/**
 * POST /api/user/login (form body account, password; never in the URL): the account name or a bound mobile. The server rotates the
 * session to that user; the envelope comes back whatever its result, so the screen can tell a wrong
 * password from a rate limit (code 429).
 */
export const fetchLogin = (input: LoginInput) =>
  call<UserInfo>('dynamic', 'POST', '/api/user/login', { form: { ...input } });

export const loginMutation = () =>
  mutationOptions({ mutationKey: ['user', 'login'], mutationFn: fetchLogin });

export const useLogin = () => useMutation(loginMutation());
