import type { FormInstance } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';

/** Every `/api` answer (docs/api.md section 1). */
export interface Envelope<T> {
  result: boolean;
  code: number;
  msg: string;
  data: T;
}

/** A call that did not answer result true; its message has already been shown (or the login page opened). */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

type QueryValue = string | number | boolean | null | undefined;

export interface CallOptions {
  query?: Record<string, QueryValue>;
  /** A JSON body. */
  json?: unknown;
  /** A multipart body (files). */
  multipart?: FormData;
  /** The form whose field a 400 names (`data.field`): the message shows under that field. */
  form?: FormInstance;
  /** After a 409 (someone saved since): reload the record. */
  onConflict?: () => void;
  /** The login form shows its own 401 (wrong name or password) instead of going to the login page. */
  own401?: boolean;
  /** Show no message (a lookup while typing); 401 still opens the login page. */
  silent?: boolean;
}

// The app hands in its message API (antd's App context) and its router's navigation once it has them.
let messages: Pick<MessageInstance, 'error' | 'warning'> | undefined;
let toLogin: (from: string) => void = (from) =>
  window.location.assign(`/admin/login?from=${encodeURIComponent(from)}`);

export function connectApi(options: {
  message: Pick<MessageInstance, 'error' | 'warning'>;
  toLogin: (from: string) => void;
}) {
  messages = options.message;
  toLogin = options.toLogin;
}

const TIMEOUT_MS = 60_000;

function urlOf(path: string, query: CallOptions['query']) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** The page to come back to after signing in again: the path under /admin, with its query. */
function currentPage() {
  const { pathname, search } = window.location;
  const inApp = pathname.replace(/^\/admin/, '') || '/';
  return `${inApp}${search}`;
}

function fieldOf(data: unknown): string | undefined {
  if (data && typeof data === 'object' && 'field' in data) {
    const field = (data as { field: unknown }).field;
    if (typeof field === 'string') return field;
  }
  return undefined;
}

/** What the console does with a refused call (the brief's rules, by code), before the caller hears of it. */
function handleRefusal(code: number, msg: string, data: unknown, options: CallOptions) {
  if (code === 401 && !options.own401) {
    if (!window.location.pathname.startsWith('/admin/login')) toLogin(currentPage());
    return;
  }
  if (code === 401 || options.silent) return;
  if (code === 409) {
    messages?.warning(msg);
    options.onConflict?.();
    return;
  }
  const field = code === 400 ? fieldOf(data) : undefined;
  if (field && options.form) {
    options.form.setFields([{ name: field, errors: [msg] }]);
    return;
  }
  messages?.error(msg);
}

/**
 * One console call: same-origin cookies (the `yadm` session), a JSON or multipart body, the envelope's data back.
 * Anything but result true is shown the console's way (401 to the login page, 403 and others as an error, 409 as
 * a warning and a reload, 400 under the form field it names) and rejects with an ApiError.
 */
export async function call<T>(method: 'GET' | 'POST', path: string, options: CallOptions = {}): Promise<T> {
  const init: RequestInit = {
    method,
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  };
  if (options.multipart) {
    init.body = options.multipart;
  } else if (options.json !== undefined) {
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
    init.body = JSON.stringify(options.json);
  }
  let res: Response;
  try {
    res = await fetch(urlOf(path, options.query), init);
  } catch {
    const msg = '网络错误，请稍后再试';
    messages?.error(msg);
    throw new ApiError(0, msg);
  }
  const envelope = (await res.json().catch(() => null)) as Envelope<T> | null;
  if (!envelope || typeof envelope !== 'object' || !('result' in envelope)) {
    const msg = `请求失败 (${res.status})`;
    messages?.error(msg);
    throw new ApiError(res.status, msg);
  }
  if (!envelope.result) {
    const code = envelope.code || res.status;
    handleRefusal(code, envelope.msg, envelope.data, options);
    throw new ApiError(code, envelope.msg, envelope.data);
  }
  return envelope.data;
}

export const get = <T>(path: string, query?: CallOptions['query'], options: CallOptions = {}) =>
  call<T>('GET', path, { ...options, query });

export const post = <T>(path: string, json?: unknown, options: CallOptions = {}) =>
  call<T>('POST', path, { ...options, json: json ?? {} });

export const postMultipart = <T>(path: string, body: FormData, options: CallOptions = {}) =>
  call<T>('POST', path, { ...options, multipart: body });

/** The promise's value, or undefined once a refused call has been shown (other failures still throw). */
export async function shown<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (err) {
    if (err instanceof ApiError) return undefined;
    throw err;
  }
}

/** A ProTable `request` over a console page (`page`, `size` in the query; `{ page, size, total, list }` back). */
export async function tablePage<T>(
  path: string,
  params: { current?: number; pageSize?: number },
  query: CallOptions['query'] = {},
) {
  const page = params.current ?? 1;
  const size = params.pageSize ?? 20;
  try {
    const data = await get<{ page: number; size: number; total: number; list: T[] }>(path, {
      ...query,
      page,
      size,
    });
    return { data: data.list, total: data.total, success: true };
  } catch (err) {
    if (err instanceof ApiError) return { data: [] as T[], total: 0, success: false };
    throw err;
  }
}

/** The address of a stored image (a cover, an ad) resized for the console. */
export const imageUrl = (path: string, width: number) =>
  `/api/admin/image?${new URLSearchParams({ path, w: String(width) })}`;
