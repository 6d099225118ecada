import { type Static, Type } from 'typebox';
import { AdminId, adminRoute, Instant, Nullable } from './common.ts';

/** A reader as the console's 读者账号 shows them: no password, no hash. */
export const Reader = Type.Object({
  userId: Type.Integer(),
  account: Type.String(),
  /** The bound mobile in part (`138****5678`), or null. */
  mobile: Nullable(Type.String()),
  vipEnd: Nullable(Instant),
  createdAt: Instant,
});
export type Reader = Static<typeof Reader>;

/** A reset's answer: the new password, shown once. */
export const ReaderReset = Type.Object({
  userId: Type.Integer(),
  account: Type.String(),
  password: Type.String(),
});
export type ReaderReset = Static<typeof ReaderReset>;

export const readersRoutes = {
  findReader: adminRoute({
    method: 'GET',
    url: '/api/admin/readers/lookup',
    summary: '查找读者（用户 ID，或账号 / 绑定的手机号）',
    querystring: Type.Object({
      userId: Type.Optional(AdminId),
      account: Type.Optional(Type.String({ maxLength: 64 })),
    }),
    refusals: [404],
    data: Reader,
  }),
  resetReaderPassword: adminRoute({
    method: 'POST',
    url: '/api/admin/readers/:userId/password',
    summary: '重置读者密码（须填原因，记入操作日志；新密码只显示这一次）',
    params: Type.Object({ userId: AdminId }),
    body: Type.Object({ reason: Type.String({ maxLength: 200 }) }),
    refusals: [404],
    data: ReaderReset,
  }),
} as const;
