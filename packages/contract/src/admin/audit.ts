import { Type } from 'typebox';
import { AdminId, adminRoute, ConsolePage, ConsolePageQuery } from './common.ts';
import { AuditRow } from './session.ts';

/** A China date (its being a real day is checked by the server, naming the field). */
const ChinaDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

export const auditRoutes = {
  audit: adminRoute({
    method: 'GET',
    url: '/api/admin/audit',
    summary:
      '操作日志（服务器分页，新的在前；可按操作员、操作、对象和北京时间日期筛选：action 取整个代码或其前缀，如 reader 含 reader.coins.grant；对象为类型 objectType 加可选编号 objectId，如 book 与 65，含该书的章节）',
    querystring: Type.Object({
      ...ConsolePageQuery,
      operatorId: Type.Optional(AdminId),
      action: Type.Optional(Type.String({ pattern: '^[a-z][a-z_.-]{0,63}$' })),
      objectType: Type.Optional(Type.String({ pattern: '^[a-z][a-z_-]{0,31}$' })),
      objectId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      from: Type.Optional(ChinaDate),
      to: Type.Optional(ChinaDate),
    }),
    data: ConsolePage(AuditRow),
  }),
} as const;
