import path from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { receiveToDisk } from '../../shared/upload.ts';
import { ANY_ROLE, auditActorOf, CATALOGUE_WRITERS } from '../operators/index.ts';
import * as imports from './imports.console.service.ts';

export { describeImportFailure } from './imports.console.service.ts';

const readers = { config: { operatorRoles: ANY_ROLE } };

/**
 * The console's import by upload: the archive is saved under DATA_DIR/uploads and queued (import_jobs); a server on
 * this data directory runs it. The browser follows its progress with the importJob call, from any server.
 */
export async function importRoutes(app: FastifyInstance, deps: imports.ImportsConsoleDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    ...contractRoute(adminRoutes.startImport, { config: { operatorRoles: CATALOGUE_WRITERS } }),
    handler: async (req, reply) => {
      const by = auditActorOf(req);
      const upload = await receiveToDisk(req, {
        fileField: 'file',
        maxBytes: deps.maxBytes,
        dir: deps.uploadDir,
        // A one-chapter archive without ComicInfo.xml names its book by its folder: the file's own name.
        subfolder: (name) => path.parse(name).name,
      });
      return reply.code(202).send(ok(await imports.startImport(deps, { upload, by })));
    },
  });

  r.route({
    ...contractRoute(adminRoutes.imports, readers),
    handler: async (req) => ok(await imports.listImports(deps, req.query)),
  });

  r.route({
    ...contractRoute(adminRoutes.importJob, readers),
    handler: async (req) => ok(await imports.importJob(deps, req.params.id)),
  });
}
