import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { routes } from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { userUnknown } from '../../shared/errors.ts';
import { signedIn } from '../../shared/signed-in.ts';
import { isVip } from './vip.ts';
import * as wallet from './wallet.service.ts';

export async function walletRoutes(app: FastifyInstance, deps: wallet.WalletDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    ...contractRoute(routes.buyChapter),
    handler: async (req) => {
      // The reader's screen refreshes the user on 101 (spec section 8), as it does for a priced chapter.
      if (!req.user) throw userUnknown();
      const { userId } = req.user;
      const input = {
        userId,
        isVip: isVip(req.user),
        blocked: req.user.blocked,
        chapterId: req.query.chapterId,
      };
      return ok(await wallet.buyChapter(deps, input), '购买成功');
    },
  });

  r.route({
    ...contractRoute(routes.consumption),
    handler: async (req) => {
      const { userId } = signedIn(req);
      return ok(await wallet.consumption(deps, { userId, page: req.query.page ?? 1 }));
    },
  });
}
