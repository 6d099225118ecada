import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { routes } from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { requireSession, signedIn } from '../../shared/signed-in.ts';
import type { ProgressRepository } from './reading-progress.repository.ts';
import { listProgress, saveProgress } from './reading-progress.service.ts';

/** Where each reader stopped in each book, kept on the account (reading-progress.repository.ts). */
export async function readingProgressRoutes(app: FastifyInstance, deps: { repo: ProgressRepository }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const sessionFirst = { preValidation: [requireSession] };

  r.route({
    // A reader scrolling saves every few seconds at most (the web app throttles); this bounds a script.
    ...contractRoute(routes.saveProgress, {
      ...sessionFirst,
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
    }),
    handler: async (req) =>
      ok(await saveProgress(deps, { userId: signedIn(req).userId, progress: req.body })),
  });

  r.route({
    ...contractRoute(routes.readingProgress, sessionFirst),
    handler: async (req) =>
      ok(await listProgress(deps, { userId: signedIn(req).userId, bookId: req.query.bookId })),
  });
}
