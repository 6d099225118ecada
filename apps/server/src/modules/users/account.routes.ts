import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { routes } from '@yueman/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { createAttemptLimiter } from '../../shared/passwords/attempt-limiter.ts';
import { requireSession, signedIn } from '../../shared/signed-in.ts';
import * as account from './account.service.ts';
import { type FindAccountDeps, findAccount } from './find-account.service.ts';
import { SESSION_COOKIE } from './sessions.ts';
import { TooManyAttempts } from './users.errors.ts';

/** Calls that hit an attempt limit (passwords, find-account order numbers) answer 429 with Retry-After, and leave a security log line. */
async function limited<T>(req: FastifyRequest, reply: FastifyReply, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof TooManyAttempts) {
      reply.header('retry-after', String(err.retryAfterSeconds));
      req.log.warn(
        { security: 'attempts-limited', url: req.routeOptions.url, ip: req.ip },
        'attempts limited',
      );
    }
    throw err;
  }
}

export interface AccountRoutesOptions extends account.AccountDeps {
  findAccountPerHour: number;
  findAccountPerOrderPerHour: number;
  payerOf: FindAccountDeps['payerOf'];
}

/** Login, bind mobile, change password and find account: their fields come in the query or a form body. */
export async function accountRoutes(app: FastifyInstance, deps: AccountRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  // Counted in the app's limiter store, as every server's attempts on one order number add up.
  const orderAttempts = createAttemptLimiter(3600 * 1000, { store: app.limits, name: 'find-account-order' });
  const findDeps: FindAccountDeps = {
    ...deps,
    takeOrderAttempt: (orderNo) =>
      orderAttempts.take([{ key: orderNo, max: deps.findAccountPerOrderPerHour }]),
  };
  // Before validation, so a call without a session answers 401 whatever its parameters.
  const sessionFirst = { preValidation: [requireSession] };

  r.route({
    ...contractRoute(routes.login),
    handler: async (req, reply) => {
      const { info, session } = await limited(req, reply, () =>
        account.login(deps, { ...req.query, ip: req.ip, oldToken: req.cookies[SESSION_COOKIE] }),
      );
      reply.startSession(session.token, session.expiresAt);
      return ok(info);
    },
  });

  r.route({
    ...contractRoute(routes.bindMobile, sessionFirst),
    handler: async (req, reply) => {
      const { userId } = signedIn(req);
      const { mobile, password } = req.query;
      const info = await limited(req, reply, () =>
        account.bindMobile(deps, { userId, mobile, password, ip: req.ip }),
      );
      return ok(info, '手机绑定成功');
    },
  });

  r.route({
    ...contractRoute(routes.modifyPwd, sessionFirst),
    handler: async (req) => {
      const { userId } = signedIn(req);
      const currentToken = req.cookies[SESSION_COOKIE];
      await account.modifyPassword(deps, { userId, password: req.query.password, currentToken });
      return ok(null, '密码修改成功');
    },
  });

  r.route({
    // Per client address (req.ip: the socket's, or the first one TRUST_PROXY's proxies did not add).
    ...contractRoute(routes.findAccount, {
      config: { rateLimit: { max: deps.findAccountPerHour, timeWindow: '1 hour' } },
    }),
    handler: async (req, reply) => {
      const { chargeTime, orderNo, payAmount } = req.query;
      const oldToken = req.cookies[SESSION_COOKIE];
      const { found, session } = await limited(req, reply, () =>
        findAccount(findDeps, { chargeTime, orderNo, payAmount, oldToken }),
      );
      reply.startSession(session.token, session.expiresAt);
      return ok(found);
    },
  });
}
