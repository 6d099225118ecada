import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../../shared/envelope.ts';
import { consolePageQuery, consoleWindow } from '../../shared/pagination.ts';
import { TooManyAttempts } from '../../shared/passwords/too-many-attempts.ts';
import {
  ADMIN_API,
  clearOperatorCookie,
  LOGIN_URL,
  OPERATOR_COOKIE,
  operatorOfRequest,
  setOperatorCookie,
} from './operator-session.plugin.ts';
import { type OperatorsRepository, publicOperator } from './operators.repository.ts';
import * as operators from './operators.service.ts';
import { ANY_ROLE, OPERATOR_ROLES, OWNER_ONLY } from './roles.ts';

export interface OperatorsRoutesOptions {
  repo: OperatorsRepository;
  guard: operators.PasswordCheck;
  secureCookies: boolean;
}

const tags = ['admin'];
const Role = Type.Union(OPERATOR_ROLES.map((r) => Type.Literal(r)));
const Id = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

/** The console's own accounts: sign in and out, who am I, and (owners) the operators and the audit log. */
export async function operatorsRoutes(app: FastifyInstance, deps: OperatorsRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { repo } = deps;

  r.post(
    LOGIN_URL,
    {
      schema: {
        tags,
        summary: '操作员登录',
        body: Type.Object({
          name: Type.String({ maxLength: 64 }),
          password: Type.String({ maxLength: 128 }),
        }),
      },
    },
    async (req, reply) => {
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
  );

  r.post(
    `${ADMIN_API}/logout`,
    { schema: { tags, summary: '退出登录' }, config: { operatorRoles: ANY_ROLE } },
    async (req, reply) => {
      await operators.logout(repo, {
        token: req.cookies[OPERATOR_COOKIE] as string,
        operator: operatorOfRequest(req),
        ip: req.ip,
      });
      clearOperatorCookie(reply, deps.secureCookies);
      return ok(null, '已退出');
    },
  );

  r.get(
    `${ADMIN_API}/me`,
    { schema: { tags, summary: '当前操作员' }, config: { operatorRoles: ANY_ROLE } },
    async (req) => ok(publicOperator(operatorOfRequest(req))),
  );

  r.get(
    `${ADMIN_API}/operators`,
    { schema: { tags, summary: '操作员列表' }, config: { operatorRoles: OWNER_ONLY } },
    async () => ok((await repo.list()).map(publicOperator)),
  );

  r.post(
    `${ADMIN_API}/operators`,
    {
      schema: {
        tags,
        summary: '添加操作员（密码只显示这一次）',
        body: Type.Object({ name: Type.String({ maxLength: 64 }), role: Role }),
      },
      config: { operatorRoles: OWNER_ONLY },
    },
    async (req) => {
      const added = await operators.addOperator(repo, {
        ...req.body,
        actor: { operator: operatorOfRequest(req) },
      });
      return ok(added, '已添加');
    },
  );

  r.post(
    `${ADMIN_API}/operators/:id`,
    {
      schema: {
        tags,
        summary: '修改操作员角色或停用',
        params: Id,
        body: Type.Object(
          { role: Type.Optional(Role), disabled: Type.Optional(Type.Boolean()) },
          { minProperties: 1 },
        ),
      },
      config: { operatorRoles: OWNER_ONLY },
    },
    async (req) => {
      const actor = { operator: operatorOfRequest(req) };
      return ok(await operators.updateOperator(repo, { id: req.params.id, ...req.body, actor }), '已保存');
    },
  );

  r.post(
    `${ADMIN_API}/operators/:id/password`,
    {
      schema: { tags, summary: '重置操作员密码（新密码只显示这一次）', params: Id },
      config: { operatorRoles: OWNER_ONLY },
    },
    async (req) => {
      const password = await operators.rotatePassword(repo, {
        id: req.params.id,
        actor: { operator: operatorOfRequest(req) },
      });
      return ok({ password }, '密码已重置');
    },
  );

  r.get(
    `${ADMIN_API}/audit`,
    {
      schema: {
        tags,
        summary: '操作日志',
        querystring: Type.Object({
          ...consolePageQuery,
        }),
      },
      config: { operatorRoles: OWNER_ONLY },
    },
    async (req) => {
      const { page, size } = req.query;
      const { offset, limit } = consoleWindow({ page, size });
      const { rows, total } = await repo.auditPage(offset, limit);
      return ok({ page, size, total, list: rows.map((row) => ({ ...row, at: row.at.toISOString() })) });
    },
  );
}
