import { mutationOptions, useMutation } from '@tanstack/react-query';
import type { QueryOf } from '@yueman/contract';
import { call, routes } from '../../../lib/api-client.ts';

/**
 * POST /api/user/login (form body account, password; never in the URL): the account name or a bound mobile. The
 * server rotates the session to that user; the envelope comes back whatever its result, so the screen can tell
 * a wrong password from a rate limit (code 429).
 */
export const fetchLogin = (input: QueryOf<typeof routes.login>) => call(routes.login, { query: input });

export const loginMutation = () =>
  mutationOptions({ mutationKey: ['user', 'login'], mutationFn: fetchLogin });

export const useLogin = () => useMutation(loginMutation());
