import { type Static, Type } from 'typebox';
import { AdminId, adminRoute, IdParams, Instant } from './common.ts';

export const ROLES = ['owner', 'editor', 'finance', 'support'] as const;
export const Role = Type.Union([
  Type.Literal('owner'),
  Type.Literal('editor'),
  Type.Literal('finance'),
  Type.Literal('support'),
]);
export type Role = (typeof ROLES)[number];

export const Operator = Type.Object({
  id: AdminId,
  name: Type.String(),
  role: Role,
  disabled: Type.Boolean(),
  createdAt: Instant,
});
export type Operator = Static<typeof Operator>;

export const AuditRow = Type.Object({
  id: Type.Integer(),
  operatorId: Type.Union([Type.Integer(), Type.Null()]),
  actor: Type.String(),
  action: Type.String(),
  target: Type.String(),
  before: Type.Unknown(),
  after: Type.Unknown(),
  at: Instant,
});
export type AuditRow = Static<typeof AuditRow>;

const NewPassword = Type.Object({ password: Type.String() });

/** The console's own accounts: sign in and out, who am I, and (owners) the operators. */
export const sessionRoutes = {
  login: adminRoute({
    method: 'POST',
    url: '/api/admin/login',
    summary: '操作员登录',
    body: Type.Object({ name: Type.String({ maxLength: 64 }), password: Type.String({ maxLength: 128 }) }),
    session: 'none',
    refusals: [401, 429],
    data: Operator,
  }),
  logout: adminRoute({ method: 'POST', url: '/api/admin/logout', summary: '退出登录', data: Type.Null() }),
  me: adminRoute({ method: 'GET', url: '/api/admin/me', summary: '当前操作员', data: Operator }),
  operators: adminRoute({
    method: 'GET',
    url: '/api/admin/operators',
    summary: '操作员列表',
    data: Type.Array(Operator),
  }),
  addOperator: adminRoute({
    method: 'POST',
    url: '/api/admin/operators',
    summary: '添加操作员（密码只显示这一次）',
    body: Type.Object({ name: Type.String({ maxLength: 64 }), role: Role }),
    data: Type.Object({ operator: Operator, password: Type.String() }),
  }),
  updateOperator: adminRoute({
    method: 'POST',
    url: '/api/admin/operators/:id',
    summary: '修改操作员角色或停用',
    params: IdParams,
    body: Type.Object(
      { role: Type.Optional(Role), disabled: Type.Optional(Type.Boolean()) },
      { minProperties: 1 },
    ),
    refusals: [404],
    data: Operator,
  }),
  resetOperatorPassword: adminRoute({
    method: 'POST',
    url: '/api/admin/operators/:id/password',
    summary: '重置操作员密码（新密码只显示这一次）',
    params: IdParams,
    refusals: [404],
    data: NewPassword,
  }),
} as const;
