import { runtimeConfig } from './runtime-config.ts';
import { useUserStore } from './user-store.ts';

export interface Envelope<T> {
  result: boolean;
  code: number;
  msg: string;
  data: T;
}

/** A call that did not answer result true; `code` is the envelope's (999, 400, 101, 404 ...) or the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 30_000;

// Dynamic calls wait for the start-up registration, so a visitor who opens a chapter link directly is
// already known when the reader asks for it (instead of getting code 101).
let sessionReady: Promise<unknown> = Promise.resolve();
export function dynamicCallsWaitFor(ready: Promise<unknown>) {
  sessionReady = ready.catch(() => undefined);
}

type Query = Record<string, string | number | undefined>;

function headers(): Record<string, string> {
  const { traceId, userInfo, branchId } = useUserStore.getState();
  return {
    'x-trace-id': traceId,
    'x-user-id': userInfo ? String(userInfo.userId) : '',
    'x-account': userInfo?.account ?? '',
    'x-branch-id': String(branchId),
  };
}

function url(base: string, path: string, query?: Query) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) q.set(k, String(v));
  const qs = q.toString();
  return `${base}${path}${qs ? `?${qs}` : ''}`;
}

/**
 * One call to the server: the spec's headers, a form-encoded body when there is one, a 30 s timeout, and the
 * envelope back whatever its result (callers that need the code, such as the reader, read it).
 */
export async function call<T>(
  kind: 'static' | 'dynamic',
  method: 'GET' | 'POST',
  path: string,
  opts: { query?: Query; form?: Query; beforeSession?: boolean } = {},
): Promise<Envelope<T>> {
  if (kind === 'dynamic' && !opts.beforeSession) await sessionReady;
  const base = kind === 'static' ? runtimeConfig.staticApiBase : runtimeConfig.dynamicApiBase;
  const init: RequestInit = {
    method,
    headers: headers(),
    credentials: 'include',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  };
  if (opts.form) {
    (init.headers as Record<string, string>)['content-type'] = 'application/x-www-form-urlencoded';
    init.body = new URLSearchParams(
      Object.entries(opts.form).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
    );
  }
  const res = await fetch(url(base, path, opts.query), init);
  const body = (await res.json().catch(() => null)) as Envelope<T> | null;
  if (!body) throw new ApiError(res.status, `请求失败 (${res.status})`);
  return body;
}

/** The data of a call that must succeed; anything else rejects with an ApiError (spec section 8: logged, no message). */
export async function data<T>(...args: Parameters<typeof call>): Promise<T> {
  const envelope = await call<T>(...args);
  if (!envelope.result) {
    console.error('call failed', args[2], envelope.code, envelope.msg);
    throw new ApiError(envelope.code, envelope.msg, envelope.data);
  }
  return envelope.data;
}
