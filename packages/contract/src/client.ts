// What both web apps' clients share (apps/web src/lib/api-client.ts for readers, apps/admin src/api.ts for the
// console): the error a refused call rejects with, a route's address from its entry, and one request that answers
// an envelope. Types only from the route table: this file imports nothing at run time, so no bundle carries TypeBox
// for it.
import type { Envelope } from './envelope.ts';
import type { RouteSpec } from './routes.ts';

/** A call that did not answer result true; `code` is the envelope's (Code in rules.ts) or the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

/** An input part the route has no schema for may not be given; one whose fields are all optional may be left out. */
export type Part<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: never }
  : Partial<T> extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

export type Fields = Record<string, unknown>;

/**
 * A call's fields as a form or query string: undefined ones left out (and, with `skipEmpty`, null and '' too: the
 * console's filters send only what the operator filled in).
 */
export const fieldsOf = (fields: Fields | undefined, options: { skipEmpty?: boolean } = {}) =>
  new URLSearchParams(
    Object.entries(fields ?? {}).flatMap(([k, v]) =>
      v === undefined || (options.skipEmpty && (v === null || v === '')) ? [] : [[k, String(v)]],
    ),
  );

/** The route's url with its `:params` filled in. */
export const pathOf = (route: Pick<RouteSpec, 'url'>, params: Fields | undefined) =>
  route.url.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params?.[name])));

/** The route's path with its `:params` filled in, and the query string when there is one. */
export function routePath(
  route: Pick<RouteSpec, 'url' | 'formFields'>,
  input: { params?: Fields; query?: Fields } = {},
  options: { skipEmpty?: boolean } = {},
): string {
  const qs = route.formFields ? '' : fieldsOf(input.query, options).toString();
  return `${pathOf(route, input.params)}${qs ? `?${qs}` : ''}`;
}

/** True for a JSON answer in the envelope's shape. */
const isEnvelope = (value: unknown): value is Envelope<unknown> =>
  value !== null && typeof value === 'object' && 'result' in value;

/**
 * One request whose answer is an envelope (docs/api.md section 1): the envelope whatever its result (callers that
 * need the code read it). An answer that is not an envelope rejects with an ApiError of the HTTP status; a request
 * that never got an answer rejects as fetch does.
 */
export async function fetchEnvelope<T>(url: string, init: RequestInit): Promise<Envelope<T>> {
  const res = await fetch(url, init);
  const envelope: unknown = await res.json().catch(() => null);
  if (!isEnvelope(envelope)) throw new ApiError(res.status, `请求失败 (${res.status})`);
  if (!envelope.result && !envelope.code) return { ...envelope, code: res.status };
  return envelope as Envelope<T>;
}
