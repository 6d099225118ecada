import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { routes } from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import { visitorIdFrom } from '../../shared/attribution.ts';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import * as support from './support.service.ts';

export async function supportRoutes(app: FastifyInstance, deps: support.SupportDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    ...contractRoute(routes.commonInfo),
    handler: async (req) => ok(await support.commonInfo(deps, req.params)),
  });

  r.route({
    ...contractRoute(routes.submitContact),
    handler: async (req) => {
      const { userId: claimedUserId, ...contact } = req.query;
      const input = { ...contact, claimedUserId, sessionUserId: req.user?.userId ?? null };
      return ok(await support.submitContact(deps, input));
    },
  });

  // The report (complaint) page posts here; see docs/decisions.md.
  r.route({
    ...contractRoute(routes.report),
    handler: async (req) => {
      const visitorId = visitorIdFrom(req.headers['x-trace-id']) ?? '';
      return ok(
        await support.submitReport(deps, { ...req.body, userId: req.user?.userId ?? null, visitorId }),
      );
    },
  });
}
