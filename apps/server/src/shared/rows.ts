/** The single row an INSERT ... RETURNING or a keyed lookup must produce; anything else is a bug. */
export function one<T>(rows: T[]): T {
  const [row] = rows;
  if (row === undefined || rows.length !== 1) throw new Error(`expected exactly one row, got ${rows.length}`);
  return row;
}

/** The rows of `db.execute(sql...)`: node-postgres answers { rows }, PGlite's drizzle driver the same or an array. */
export const rowsOf = <T>(result: unknown): T[] =>
  Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);

/** A count or sum read from a row: node-postgres answers bigint and numeric as text, and a sum of nothing as null. */
export const numberOf = (v: unknown): number => Number(v ?? 0);
