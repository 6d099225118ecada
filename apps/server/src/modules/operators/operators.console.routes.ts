import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { TooManyAttempts } from '../../shared/passwords/too-many-attempts.ts';
import {
  clearOperatorCookie,
  LOGIN_URL,
  OPERATOR_COOKIE,
  operatorOfRequest,
  setOperatorCookie,
} from './operator-session.plugin.ts';
import { type OperatorsRepository, publicOperator } from './operators.repository.ts';
import * as operators from './operators.service.ts';
import { ANY_ROLE, OWNER_ONLY } from './roles.ts';

export interface OperatorsRoutesOptions {
  repo: OperatorsRepository;
  guard: operators.PasswordCheck;
  secureCookies: boolean;
}

const anyRole = { config: { operatorRoles: ANY_ROLE } };
const ownerOnly = { config: { operatorRoles: OWNER_ONLY } };

/** The console's own accounts: sign in and out, who am I, and (owners) the operators and the audit log. */
export async function operatorsRoutes(app: FastifyInstance, deps: OperatorsRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { repo } = deps;

  r.route({
    ...contractRoute(adminRoutes.login),
    handler: async (req, reply) => {
      try {
        const session = await operators.login({ ...deps, log: req.log }, { ...req.body, ip: req.ip });
        setOperatorCookie(reply, session.token, session.expiresAt, deps.secureCookies);
        req.log.info({ operatorId: session.operator.id }, 'operator signed in');
        return ok(session.operator, '登录成功');
      } catch (err) {
        if (err instanceof TooManyAttempts) {
          reply.header('retry-after', String(err.retryAfterSeconds));
          req.log.warn({ security: 'attempts-limited', url: LOGIN_URL, ip: req.ip }, 'attempts limited');
        }
        throw err;
      }
    },
  });

  r.route({
    ...contractRoute(adminRoutes.logout, anyRole),
    handler: async (req, reply) => {
      await operators.logout(repo, {
        token: req.cookies[OPERATOR_COOKIE] as string,
        operator: operatorOfRequest(req),
        ip: req.ip,
      });
      clearOperatorCookie(reply, deps.secureCookies);
      return ok(null, '已退出');
    },
  });

  r.route({
    ...contractRoute(adminRoutes.me, anyRole),
    handler: async (req) => ok(publicOperator(operatorOfRequest(req))),
  });

  r.route({
    ...contractRoute(adminRoutes.operators, ownerOnly),
    handler: async () => ok(await operators.listOperators(repo)),
  });

  r.route({
    ...contractRoute(adminRoutes.addOperator, ownerOnly),
    handler: async (req) => {
      const added = await operators.addOperator(repo, {
        ...req.body,
        actor: { operator: operatorOfRequest(req) },
      });
      return ok(added, '已添加');
    },
  });

  r.route({
    ...contractRoute(adminRoutes.updateOperator, ownerOnly),
    handler: async (req) => {
      const actor = { operator: operatorOfRequest(req) };
      return ok(await operators.updateOperator(repo, { id: req.params.id, ...req.body, actor }), '已保存');
    },
  });

  r.route({
    ...contractRoute(adminRoutes.resetOperatorPassword, ownerOnly),
    handler: async (req) => {
      const password = await operators.rotatePassword(repo, {
        id: req.params.id,
        actor: { operator: operatorOfRequest(req) },
      });
      return ok({ password }, '密码已重置');
    },
  });

  r.route({
    ...contractRoute(adminRoutes.audit, ownerOnly),
    handler: async (req) => ok(await operators.auditPage(repo, req.query)),
  });
}
