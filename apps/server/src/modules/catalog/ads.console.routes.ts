import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { receiveImage } from '../../shared/upload.ts';
import { ANY_ROLE, auditActorOf, CATALOGUE_WRITERS } from '../operators/index.ts';
import { createAdsConsoleRepository } from './ads.console.repository.ts';
import * as carousel from './ads.console.service.ts';
import { IMAGE_UPLOAD_BYTES } from './uploaded-image.ts';

const readers = { config: { operatorRoles: ANY_ROLE } };
const writers = { config: { operatorRoles: CATALOGUE_WRITERS } };

/** The console's ad carousel: read by every role, changed by owners and editors. */
export async function adsConsoleRoutes(
  app: FastifyInstance,
  input: Omit<carousel.AdsConsoleDeps, 'repo'> & { db: Database },
) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const deps: carousel.AdsConsoleDeps = { ...input, repo: createAdsConsoleRepository(input.db) };

  r.route({
    ...contractRoute(adminRoutes.ads, readers),
    handler: async () => ok(await carousel.listAds(deps)),
  });

  r.route({
    ...contractRoute(adminRoutes.addAd, writers),
    handler: async (req) => {
      const upload = await receiveImage(req, { fileField: 'image', maxBytes: IMAGE_UPLOAD_BYTES });
      return ok(await carousel.addAd(deps, { upload, editor: auditActorOf(req) }), '已添加');
    },
  });

  r.route({
    ...contractRoute(adminRoutes.arrangeAds, writers),
    handler: async (req) =>
      ok(await carousel.arrangeAds(deps, { ids: req.body.ids, editor: auditActorOf(req) }), '已保存'),
  });

  r.route({
    ...contractRoute(adminRoutes.editAd, writers),
    handler: async (req) =>
      ok(
        await carousel.editAd(deps, { id: req.params.id, changes: req.body, editor: auditActorOf(req) }),
        '已保存',
      ),
  });

  r.route({
    ...contractRoute(adminRoutes.deleteAd, writers),
    handler: async (req) => {
      await carousel.removeAd(deps, { id: req.params.id, editor: auditActorOf(req) });
      return ok(null, '已删除');
    },
  });
}
