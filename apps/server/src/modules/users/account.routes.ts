import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  BindMobileQuery,
  Envelope,
  FindAccountQuery,
  FoundAccount,
  LoginQuery,
  ModifyPwdQuery,
  UserInfo,
} from '@yueman/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../../shared/envelope.ts';
import { unauthorized } from '../../shared/errors.ts';
import * as account from './account.service.ts';
import { AttemptLimiter } from './attempt-limiter.ts';
import { findAccount } from './find-account.service.ts';
import { formFieldsIntoQuery } from './form-fields.ts';
import { TooManyAttempts } from './password-guard.ts';
import { SESSION_COOKIE } from './sessions.ts';

const tags = ['users'];

function signedIn(req: FastifyRequest) {
  if (!req.user) throw unauthorized();
  return req.user;
}
// Before validation, so a call without a session answers 401 whatever its parameters.
const requireSession = async (req: FastifyRequest) => {
  signedIn(req);
};

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

export async function accountRoutes(
  app: FastifyInstance,
  deps: account.AccountDeps & { findAccountPerHour: number; findAccountPerOrderPerHour: number },
) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const orderAttempts = new AttemptLimiter(3600 * 1000);
  const takeOrderAttempt = (orderNo: string) =>
    orderAttempts.take([{ key: orderNo, max: deps.findAccountPerOrderPerHour }]);

  r.post(
    '/api/user/login',
    {
      preValidation: formFieldsIntoQuery,
      schema: {
        tags,
        summary: '登录（账号或手机号）',
        querystring: LoginQuery,
        response: { 200: Envelope(UserInfo) },
      },
    },
    async (req, reply) => {
      const { info, session } = await limited(req, reply, () =>
        account.login(deps, { ...req.query, ip: req.ip, oldToken: req.cookies[SESSION_COOKIE] }),
      );
      reply.startSession(session.token, session.expiresAt);
      return ok(info);
    },
  );

  r.post(
    '/api/user/bind_mobile',
    {
      preValidation: [requireSession, formFieldsIntoQuery],
      schema: {
        tags,
        summary: '绑定手机号',
        querystring: BindMobileQuery,
        response: { 200: Envelope(UserInfo) },
      },
    },
    async (req, reply) => {
      const { userId } = signedIn(req);
      const info = await limited(req, reply, () =>
        account.bindMobile(deps, {
          userId,
          mobile: req.query.mobile,
          password: req.query.password,
          ip: req.ip,
        }),
      );
      return ok(info, '手机绑定成功');
    },
  );

  r.post(
    '/api/user/modifyPwd',
    {
      preValidation: [requireSession, formFieldsIntoQuery],
      schema: {
        tags,
        summary: '修改密码',
        querystring: ModifyPwdQuery,
        response: { 200: Envelope(Type.Null()) },
      },
    },
    async (req) => {
      const { userId } = signedIn(req);
      const currentToken = req.cookies[SESSION_COOKIE];
      await account.modifyPassword(deps, { userId, password: req.query.password, currentToken });
      return ok(null, '密码修改成功');
    },
  );

  r.post(
    '/api/user/find_account',
    {
      // Per client address (req.ip: the socket's, or the first one TRUST_PROXY's proxies did not add).
      config: { rateLimit: { max: deps.findAccountPerHour, timeWindow: '1 hour' } },
      preValidation: formFieldsIntoQuery,
      schema: {
        tags,
        summary: '按充值日期和商户订单号找回账号',
        querystring: FindAccountQuery,
        response: { 200: Envelope(FoundAccount) },
      },
    },
    async (req, reply) => {
      const { found, session } = await limited(req, reply, () =>
        findAccount(
          { ...deps, takeOrderAttempt },
          {
            chargeTime: req.query.chargeTime,
            orderNo: req.query.orderNo,
            oldToken: req.cookies[SESSION_COOKIE],
          },
        ),
      );
      reply.startSession(session.token, session.expiresAt);
      return ok(found);
    },
  );
}
