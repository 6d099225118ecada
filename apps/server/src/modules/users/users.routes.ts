import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Envelope, RegisterQuery, UserFromMark, UserFromMarkQuery, UserInfo } from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../shared/envelope.ts';
import { unauthorized } from '../../shared/errors.ts';
import { accountRoutes } from './account.routes.ts';
import { createPasswordGuard } from './password-guard.ts';
import { SESSION_COOKIE } from './sessions.ts';
import * as users from './users.service.ts';

const tags = ['users'];

export interface UsersRoutesOptions extends users.UsersDeps {
  registerPerHour: number;
  /** Failed password attempts allowed per account and per client address in 15 minutes. */
  loginFailuresPerAccount: number;
  loginFailuresPerAddress: number;
  findAccountPerHour: number;
  findAccountPerOrderPerHour: number;
}

export async function usersRoutes(app: FastifyInstance, deps: UsersRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/api/user/register',
    {
      // Per client address (req.ip: the socket's, or the first one TRUST_PROXY's proxies did not add).
      config: { rateLimit: { max: deps.registerPerHour, timeWindow: '1 hour' } },
      schema: {
        tags,
        summary: '访客注册',
        querystring: RegisterQuery,
        response: { 200: Envelope(UserInfo) },
      },
    },
    async (req, reply) => {
      const { info, session } = await users.register(deps, {
        fromDomain: req.query.fromDomain ?? '',
        traceId: req.headers['x-trace-id'],
        branchHeader: req.headers['x-branch-id'],
        ip: req.ip,
        oldToken: req.cookies[SESSION_COOKIE],
      });
      reply.startSession(session.token, session.expiresAt);
      return ok(info);
    },
  );

  r.get(
    '/api/user/info',
    { schema: { tags, summary: '用户信息', response: { 200: Envelope(UserInfo) } } },
    async (req) => {
      if (!req.user) throw unauthorized();
      return ok(await users.userInfo(deps, req.user.userId));
    },
  );

  r.post(
    '/api/user/user_from_mark',
    {
      schema: {
        tags,
        summary: '首次访问上报',
        querystring: UserFromMarkQuery,
        response: { 200: Envelope(UserFromMark) },
      },
    },
    async (req) =>
      ok(
        await users.markFirstVisit(deps, {
          traceId: req.headers['x-trace-id'],
          branchHeader: req.headers['x-branch-id'],
          referUrl: req.query.referUrl ?? '',
          userId: req.user?.userId ?? null,
          ip: req.ip,
          userAgent: req.headers['user-agent'] ?? '',
        }),
      ),
  );

  const guard = createPasswordGuard({
    perAccount: deps.loginFailuresPerAccount,
    perAddress: deps.loginFailuresPerAddress,
    windowMs: 15 * 60 * 1000,
  });
  await accountRoutes(app, { ...deps, guard });
}
