import { Type } from 'typebox';
import { adminRoute, ConsolePage, ConsolePageQuery } from './common.ts';
import { AuditRow } from './session.ts';

export const auditRoutes = {
  audit: adminRoute({
    method: 'GET',
    url: '/api/admin/audit',
    summary: '操作日志',
    querystring: Type.Object(ConsolePageQuery),
    data: ConsolePage(AuditRow),
  }),
} as const;
