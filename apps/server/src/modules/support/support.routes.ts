import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  BranchParams,
  CommonInfo,
  Created,
  Envelope,
  ReportBody,
  SubmitContactQuery,
} from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../shared/envelope.ts';
import { visitorIdFrom } from '../users/users.service.ts';
import type { SupportRepository } from './support.repository.ts';
import * as support from './support.service.ts';

const tags = ['support'];

export async function supportRoutes(app: FastifyInstance, repo: SupportRepository) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/common/info/v2/:branchId',
    {
      config: { staticCache: true },
      schema: { tags, summary: '公共信息', params: BranchParams, response: { 200: Envelope(CommonInfo) } },
    },
    async (req) => ok(await support.commonInfo(repo, req.params.branchId)),
  );

  r.post(
    '/api/user/submit_contact',
    {
      schema: {
        tags,
        summary: '留下联系方式',
        querystring: SubmitContactQuery,
        response: { 200: Envelope(Created) },
      },
    },
    async (req) =>
      ok(
        await support.submitContact(repo, {
          claimedUserId: req.query.userId,
          sessionUserId: req.user?.userId ?? null,
          visitorId: req.query.visitorId,
          contactType: req.query.contactType,
          contactPosition: req.query.contactPosition,
        }),
      ),
  );

  // The report (complaint) page posts here; see docs/decisions.md.
  r.post(
    '/api/support/report',
    { schema: { tags, summary: '投诉举报', body: ReportBody, response: { 200: Envelope(Created) } } },
    async (req) =>
      ok(
        await support.submitReport(repo, {
          userId: req.user?.userId ?? null,
          visitorId: visitorIdFrom(req.headers['x-trace-id']) ?? '',
          ...req.body,
        }),
      ),
  );
}
