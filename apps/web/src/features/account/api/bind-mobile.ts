import { mutationOptions, useMutation } from '@tanstack/react-query';
import { call, routes } from '../../../lib/api-client.ts';

/**
 * POST /api/user/bind_mobile (form body mobile): this screen sends the mobile only (spec section 7); answers
 * result, msg and, on success, the user info with the mobile bound.
 */
export const fetchBindMobile = (mobile: string) => call(routes.bindMobile, { query: { mobile } });

export const bindMobileMutation = () =>
  mutationOptions({ mutationKey: ['user', 'bind_mobile'], mutationFn: fetchBindMobile });

export const useBindMobile = () => useMutation(bindMobileMutation());
