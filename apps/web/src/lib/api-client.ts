import {
  type BodyOf,
  type DataOf,
  type Envelope,
  type ParamsOf,
  type QueryOf,
  type RouteSpec,
  type Routes,
  routePaths,
} from '@yueman/contract';
import {
  ApiError,
  type Fields,
  fetchEnvelope,
  fieldsOf,
  type Part,
  pathOf,
  routePath,
} from '@yueman/contract/client';
import { openedFromConsole } from './opened-from.ts';
import { runtimeConfig } from './runtime-config.ts';
import { useUserStore } from './user-store.ts';

export type { Envelope };
// One ApiError and one envelope request for both web apps (packages/contract client.ts).
export { ApiError, fieldsOf, routePath };

/**
 * The contract's route table as the browser has it: each call's method, path and base (routePaths). The schemas
 * are types only here (the server validates with them), so the bundle carries no TypeBox; nothing in the web app
 * reads a schema at run time.
 */
export const routes = routePaths as unknown as Routes;

const TIMEOUT_MS = 30_000;

// Dynamic calls wait for the start-up registration, so a visitor who opens a chapter link directly is
// already known when the reader asks for it (instead of getting code 101).
let sessionReady: Promise<unknown> = Promise.resolve();
export function dynamicCallsWaitFor(ready: Promise<unknown>) {
  sessionReady = ready.catch(() => undefined);
}

/**
 * What a call sends, typed by its route: `params` fill the url's `:names`, `query` goes in the query string (or,
 * for formFields routes, in a form body), `form` is the body of routes that take one.
 */
export type CallInput<R extends RouteSpec> = Part<'params', ParamsOf<R>> &
  Part<'query', QueryOf<R>> &
  Part<'form', BodyOf<R>> & {
    /** Start-up's own calls (register, the first user info) do not wait for the session. */
    beforeSession?: boolean;
    /** Aborts the call (react-query's, when its answer is no longer wanted). */
    signal?: AbortSignal;
  };
export type CallArgs<R extends RouteSpec> =
  Partial<CallInput<R>> extends CallInput<R> ? [input?: CallInput<R>] : [input: CallInput<R>];

/** CallInput as the code below reads it, whatever the route. */
type Input = {
  params?: Fields;
  query?: Fields;
  form?: Fields;
  beforeSession?: boolean;
  signal?: AbortSignal;
};

/** The full address of a call on its base (runtime config staticApiBase or dynamicApiBase). */
export const routeUrl = (route: RouteSpec, input?: { params?: Fields; query?: Fields }) =>
  `${route.base === 'static' ? runtimeConfig.staticApiBase : runtimeConfig.dynamicApiBase}${routePath(route, input)}`;

function headers(): Record<string, string> {
  const { traceId, userInfo, branchId } = useUserStore.getState();
  return {
    'x-trace-id': traceId,
    'x-user-id': userInfo ? String(userInfo.userId) : '',
    'x-account': userInfo?.account ?? '',
    'x-branch-id': String(branchId),
    ...(openedFromConsole() ? { 'x-opened-from': 'console' } : {}),
  };
}

/**
 * One call to the server, as its route in the contract describes it: the spec's headers, a form-encoded body when
 * there is one (a formFields route's fields go there, never in the URL: passwords stay out of addresses and
 * logs), a 30 s timeout, and the envelope back whatever its result (callers that need the code read it).
 */
export async function call<R extends RouteSpec>(
  route: R,
  ...[input]: CallArgs<R>
): Promise<Envelope<DataOf<R>>> {
  const { params, query, form, beforeSession, signal } = (input ?? {}) as Input;
  if (route.base === 'dynamic' && !beforeSession) await sessionReady;
  const init: RequestInit = {
    method: typeof route.method === 'string' ? route.method : route.method[0],
    headers: headers(),
    credentials: 'include',
    signal: signal
      ? AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)])
      : AbortSignal.timeout(TIMEOUT_MS),
  };
  const body = route.formFields ? query : form;
  if (body) {
    (init.headers as Record<string, string>)['content-type'] = 'application/x-www-form-urlencoded';
    init.body = fieldsOf(body);
  }
  return fetchEnvelope<DataOf<R>>(routeUrl(route, { params, query }), init);
}

/** The data of a call that must succeed; anything else rejects with an ApiError (spec section 8: logged, no message). */
export async function data<R extends RouteSpec>(route: R, ...args: CallArgs<R>): Promise<DataOf<R>> {
  const envelope = await call(route, ...args);
  if (!envelope.result) {
    console.error(
      'call failed',
      pathOf(route, (args[0] as Input | undefined)?.params),
      envelope.code,
      envelope.msg,
    );
    throw new ApiError(envelope.code, envelope.msg, envelope.data);
  }
  return envelope.data;
}
