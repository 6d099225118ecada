import { mutationOptions, useMutation } from '@tanstack/react-query';
import { call, routes } from '../../../lib/api-client.ts';

/**
 * POST /api/user/modifyPwd (form body password, kept out of the URL): answers result, msg; the server signs out
 * the user's other sessions.
 */
export const fetchModifyPassword = (password: string) => call(routes.modifyPwd, { query: { password } });

export const modifyPasswordMutation = () =>
  mutationOptions({ mutationKey: ['user', 'modifyPwd'], mutationFn: fetchModifyPassword });

export const useModifyPassword = () => useMutation(modifyPasswordMutation());
