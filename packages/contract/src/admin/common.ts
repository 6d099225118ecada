// The console's calls (/api/admin/): the same route entries as the readers' (routes.ts), tagged admin. Every one
// needs an operator's session (the login aside); which roles reach it is the server's to decide (its routes name
// them), and the console shows a 403 as any refusal.
import { type Static, type TSchema, Type } from 'typebox';
import type { RouteSpec } from '../routes.ts';

/** A console route: always personal (never cached), always same-origin. */
export interface AdminRouteSpec extends RouteSpec {
  base: 'dynamic';
  tag: 'admin';
}

export const adminRoute = <const R extends Omit<AdminRouteSpec, 'base' | 'tag'>>(spec: R) =>
  ({ ...spec, base: 'dynamic', tag: 'admin' }) as R & { base: 'dynamic'; tag: 'admin' };

export const AdminId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
export const IdParams = Type.Object({ id: AdminId });
/** An instant as the console reads it (ISO 8601, UTC). */
export const Instant = Type.String({ format: 'date-time' });
/**
 * A value or null. A schema of one JSON type gets `null` beside it (`type: ['integer', 'null']`), not a union: the
 * server's validation coerces types (a query string's '3' is 3), and in a union it coerces in the first member it
 * tries, so a JSON null became 0 for a nullable integer, [null] for an array (or, null tried first, a 0 became null).
 * A type list coerces only what is neither. Literals and unions stay a union (the document shows both alike).
 */
export const Nullable = <T extends TSchema>(schema: T) => {
  const { type } = schema as { type?: unknown };
  return typeof type === 'string' && !('const' in schema) && !('enum' in schema)
    ? Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] })
    : Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()]));
};

/**
 * The console's tables: `page` from 1 and a `size` the table chooses, both in the query string. The server pages;
 * the browser never holds a whole table.
 */
export const ConsolePageQuery = {
  page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
};

/** A page of a console table: every matching row's count, and this page's rows. */
export const ConsolePage = <T extends TSchema>(row: T) =>
  Type.Object({ page: Type.Integer(), size: Type.Integer(), total: Type.Integer(), list: Type.Array(row) });

/** A file in a multipart form. */
export const Binary = Type.Unsafe<Blob>({ type: 'string', format: 'binary' });
/** A text field of a multipart form: sent as text (null as empty), read and checked by the server. */
export const FormText = Type.Unsafe<string | number | boolean | null>({ type: 'string' });
/** The bytes of an answer that is not an envelope (an image). */
export const Bytes = Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary' });
