import { Envelope, type RouteSpec } from '@yueman/contract';
import type {
  FastifyContextConfig,
  FastifyRequest,
  onRequestHookHandler,
  preValidationHookHandler,
} from 'fastify';

/**
 * preValidation of routes whose query fields may come in a form body (RouteSpec.formFields): a field in the body
 * wins, and the query schema then validates both alike.
 */
export async function formFieldsIntoQuery(req: FastifyRequest) {
  const body = req.body;
  if (body === null || typeof body !== 'object') return;
  const query: Record<string, unknown> = { ...(req.query as Record<string, unknown>) };
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') query[name] = value;
  req.query = query;
}

/** What a module adds to a contract route: its own route config (rate limits, session) and hooks. */
export interface RouteExtras {
  config?: Omit<FastifyContextConfig, 'staticCache'>;
  onRequest?: onRequestHookHandler[];
  /** Run before the form fields are moved into the query (e.g. requireSession: 401 before any 400). */
  preValidation?: preValidationHookHandler[];
}

/**
 * Fastify route options from an entry of the contract's route table (packages/contract routes.ts): its method,
 * path, schemas (the response is the envelope of its data) and whether it is a static call, plus the module's
 * extras. A console route (tagged admin) names its roles in `extras.config.operatorRoles`. Modules spread it into `route({ ...contractRoute(routes.x), handler })`; the type provider then types
 * the handler's request and its answer from the same schemas the web app's calls are typed with.
 */
export function contractRoute<const R extends RouteSpec>(spec: R, extras: RouteExtras = {}) {
  const preValidation = [...(extras.preValidation ?? []), ...(spec.formFields ? [formFieldsIntoQuery] : [])];
  const success = spec.produces
    ? { content: { [spec.produces]: { schema: spec.data } } }
    : Envelope(spec.data as R['data']);
  const schema = {
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.multipart ? { consumes: ['multipart/form-data'] } : {}),
    params: spec.params as R['params'],
    querystring: spec.querystring as R['querystring'],
    body: spec.body as R['body'],
    response: { [spec.status ?? 200]: success } as {
      [K in R['status'] extends 202 ? 202 : 200]: R['produces'] extends string
        ? R['data']
        : ReturnType<typeof Envelope<R['data']>>;
    },
  };
  return {
    method: spec.method as R['method'] extends readonly unknown[] ? ('GET' | 'POST')[] : R['method'],
    url: spec.url,
    config: { ...extras.config, staticCache: spec.base === 'static' },
    ...(extras.onRequest ? { onRequest: extras.onRequest } : {}),
    ...(preValidation.length > 0 ? { preValidation } : {}),
    // Absent inputs are left out, not set to undefined (Fastify warns of a schema 'not well specified').
    schema: Object.fromEntries(
      Object.entries(schema).filter(([, value]) => value !== undefined),
    ) as typeof schema,
  };
}
