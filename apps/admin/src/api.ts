import type { BodyOf, DataOf, MultipartOf, ParamsOf, QueryOf, RouteSpec } from '@yueman/contract';
import { adminRoutes } from '@yueman/contract/admin';
import { ApiError, type Fields, fetchEnvelope, type Part, routePath } from '@yueman/contract/client';
import type { FormInstance } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';

// The console's calls are the contract's route table (packages/contract src/admin): `call(adminRoutes.x, input)`
// takes its path, inputs and answer from the entry, so no screen spells a path or guesses a type.
export { ApiError, adminRoutes };

/**
 * What a call sends, typed by its route: `params` fill the url's `:names`, `query` goes in the query string (empty
 * filters left out), `body` is sent as JSON, `multipart` as a form of files and text fields.
 */
export type ConsoleInput<R extends RouteSpec> = Part<'params', ParamsOf<R>> &
  Part<'query', QueryOf<R>> &
  Part<'body', BodyOf<R>> &
  Part<'multipart', MultipartOf<R>>;

export interface CallOptions {
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

/** A multipart form from a call's fields: files as they are, other values as text (null as empty, undefined left out). */
function formDataOf(fields: Fields) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value instanceof Blob) form.append(name, value);
    else if (value !== undefined) form.append(name, value === null ? '' : String(value));
  }
  return form;
}

/**
 * One console call, as its entry in the contract describes it: same-origin cookies (the `yadm` session), a JSON or
 * multipart body, the envelope's data back. Anything but result true is shown the console's way (401 to the login
 * page, 403 and others as an error, 409 as a warning and a reload, 400 under the form field it names) and rejects
 * with an ApiError.
 */
export async function call<R extends RouteSpec>(
  route: R,
  input: ConsoleInput<R>,
  options: CallOptions = {},
): Promise<DataOf<R>> {
  const { params, query, body, multipart } = input as {
    params?: Fields;
    query?: Fields;
    body?: Fields;
    multipart?: Fields;
  };
  const method = typeof route.method === 'string' ? route.method : route.method[0];
  const init: RequestInit = {
    method,
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  };
  if (multipart) {
    init.body = formDataOf(multipart);
  } else if (method === 'POST') {
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
    init.body = JSON.stringify(body ?? {});
  }
  let envelope: Awaited<ReturnType<typeof fetchEnvelope<DataOf<R>>>>;
  try {
    envelope = await fetchEnvelope<DataOf<R>>(routePath(route, { params, query }, { skipEmpty: true }), init);
  } catch (err) {
    const msg = err instanceof ApiError ? err.message : '网络错误，请稍后再试';
    messages?.error(msg);
    throw err instanceof ApiError ? err : new ApiError(0, msg);
  }
  if (!envelope.result) {
    handleRefusal(envelope.code, envelope.msg, envelope.data, options);
    throw new ApiError(envelope.code, envelope.msg, envelope.data);
  }
  return envelope.data;
}

/** The promise's value, or undefined once a refused call has been shown (other failures still throw). */
export async function shown<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (err) {
    if (err instanceof ApiError) return undefined;
    throw err;
  }
}

/** The routes whose answer is a page of a console table (`page`, `size` in the query; `{ page, size, total, list }`). */
type TableRoute = RouteSpec & { querystring: unknown };
type RowOf<R extends RouteSpec> = DataOf<R> extends { list: (infer T)[] } ? T : never;

/** A ProTable `request` over a console page: its filters in `query`, the table's page and size added. */
export async function tablePage<R extends TableRoute>(
  route: R,
  params: { current?: number; pageSize?: number },
  query: Omit<QueryOf<R>, 'page' | 'size'> = {} as Omit<QueryOf<R>, 'page' | 'size'>,
) {
  const page = params.current ?? 1;
  const size = params.pageSize ?? 20;
  try {
    const data = (await call(route, { query: { ...query, page, size } } as ConsoleInput<R>)) as {
      total: number;
      list: RowOf<R>[];
    };
    return { data: data.list, total: data.total, success: true };
  } catch (err) {
    if (err instanceof ApiError) return { data: [] as RowOf<R>[], total: 0, success: false };
    throw err;
  }
}

/** The address of a stored image (a cover, an ad) resized for the console. */
export const imageUrl = (path: string, width: 180 | 200 | 500 | 1000) =>
  routePath(adminRoutes.image, { query: { path, w: width } });
