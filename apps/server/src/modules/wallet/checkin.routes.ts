import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { routes } from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { requireSession, signedIn } from '../../shared/signed-in.ts';
import * as checkin from './checkin.service.ts';

/** Daily check-in: the streak calendar's state and the day's claim, for any account (visitors too). */
export async function checkinRoutes(app: FastifyInstance, deps: checkin.CheckinDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const sessionFirst = { preValidation: [requireSession] };

  r.route({
    ...contractRoute(routes.checkin, sessionFirst),
    handler: async (req) => ok(await checkin.checkinState(deps, { userId: signedIn(req).userId })),
  });

  r.route({
    ...contractRoute(routes.claimCheckin, sessionFirst),
    handler: async (req) => {
      const done = await checkin.claimCheckin(deps, { userId: signedIn(req).userId });
      return ok(done, done.claimed ? '签到成功' : '今天已经签到过了');
    },
  });
}
