import type { SwaggerTransform } from '@fastify/swagger';
import { Envelope, type Method, type RouteSpec } from '@yueman/contract';
import type {
  FastifyContextConfig,
  FastifyRequest,
  onRequestHookHandler,
  preValidationHookHandler,
} from 'fastify';
import { OPERATOR_ROLES } from '../db/schema/index.ts';
import { documentedAnswers, operationIdOf, refusalsOf, securityOf, sessionOf } from './openapi.ts';
import { requireSession } from './signed-in.ts';

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
export interface RouteExtras<M extends Method = Method> {
  /**
   * The one method of an entry of several to register: each is its own route, so each is its own operation (with its
   * own operationId) in the OpenAPI document.
   */
  method?: M;
  config?: Omit<FastifyContextConfig, 'staticCache' | 'swaggerTransform'>;
  onRequest?: onRequestHookHandler[];
  /** Run before the form fields are moved into the query (e.g. requireSession: 401 before any 400). */
  preValidation?: preValidationHookHandler[];
}

/** The method a route registers: its entry's one, or the one the module chose of an entry of several. */
type MethodOf<R extends RouteSpec, M extends Method> = [M] extends [never]
  ? Exclude<R['method'], readonly Method[]>
  : M;

/** The method to register, checked against the entry: one of several must be chosen (RouteExtras.method). */
function methodOf(spec: RouteSpec, chosen: Method | undefined): Method {
  const methods = [spec.method].flat();
  const method = chosen ?? (methods.length === 1 ? methods[0] : undefined);
  if (method === undefined || !methods.includes(method)) {
    throw new Error(`${spec.url}: register each of ${methods.join(', ')} on its own (extras.method)`);
  }
  return method;
}

/**
 * The refusals the document lists for a route (shared/openapi.ts), checked against what the module wires: a rate limit
 * is a 429 its entry must list, a session required before validation one its entry must require.
 */
function refusalsOfRoute(spec: RouteSpec, method: Method, extras: RouteExtras<Method>) {
  const where = `${method} ${spec.url}`;
  if (extras.config?.rateLimit !== undefined && !spec.refusals?.includes(429)) {
    throw new Error(`${where}: it is rate limited, so its contract entry must list 429 in refusals`);
  }
  if (extras.preValidation?.includes(requireSession) && sessionOf(spec) !== 'required') {
    throw new Error(`${where}: it requires a session, so its contract entry must say session: 'required'`);
  }
  const roles = extras.config?.operatorRoles;
  return refusalsOf(spec, method, {
    rolesLimited: roles !== undefined && roles.length < OPERATOR_ROLES.length,
  });
}

/**
 * Fastify route options from an entry of the contract's route table (packages/contract routes.ts): its method,
 * path, schemas (the response is the envelope of its data) and whether it is a static call, plus the module's
 * extras. A console route (tagged admin) names its roles in `extras.config.operatorRoles`. Modules spread it into
 * `route({ ...contractRoute(routes.x), handler })`; the type provider then types the handler's request and its answer
 * from the same schemas the web app's calls are typed with. The OpenAPI document takes the operation from the same
 * entry: its operationId, tag, summary and security here, its refusals through the route's swaggerTransform (they
 * are the document's only: the error handler answers refusals without the route's response schemas).
 */
export function contractRoute<const R extends RouteSpec, const M extends Method = never>(
  spec: R,
  extras: RouteExtras<M> = {},
) {
  const method = methodOf(spec, extras.method);
  const refusals = refusalsOfRoute(spec, method, extras);
  const preValidation = [...(extras.preValidation ?? []), ...(spec.formFields ? [formFieldsIntoQuery] : [])];
  const success = spec.produces
    ? { content: { [spec.produces]: { schema: spec.data } } }
    : Envelope(spec.data as R['data']);
  const schema = {
    operationId: operationIdOf(spec, method),
    tags: [spec.tag],
    summary: spec.summary,
    security: securityOf(spec),
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
  const swaggerTransform: SwaggerTransform = ({ schema: documented, url }) => ({
    schema: { ...documented, response: documentedAnswers(spec, documented.response, refusals) },
    url,
  });
  return {
    method: method as MethodOf<R, M>,
    url: spec.url,
    config: { ...extras.config, staticCache: spec.base === 'static', swaggerTransform },
    ...(extras.onRequest ? { onRequest: extras.onRequest } : {}),
    ...(preValidation.length > 0 ? { preValidation } : {}),
    // Absent inputs are left out, not set to undefined (Fastify warns of a schema 'not well specified').
    schema: Object.fromEntries(
      Object.entries(schema).filter(([, value]) => value !== undefined),
    ) as typeof schema,
  };
}
