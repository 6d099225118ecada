import dayjs from 'dayjs';

/** A time as operators read it (their own clock, to the minute or second). */
export const dateTime = (iso: string | null | undefined, seconds = false) =>
  iso ? dayjs(iso).format(seconds ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD HH:mm') : '-';

/** Cents as yuan with two decimals, e.g. 2850 → ¥28.50. */
export const yuan = (cents: number) => `${cents < 0 ? '-' : ''}¥${(Math.abs(cents) / 100).toFixed(2)}`;

/** Yuan typed in a form (two decimals at most) as cents. */
export const centsOf = (yuanAmount: number) => Math.round(yuanAmount * 100);

/** A promotion branch as operators read it: its name (默认 for an unnamed -2) and its id. */
/**
 * A promotion branch as operators know it: its name, with its number (what the branch links carry); the default
 * branch (-2, a reader who came through no branch link) by what it means, never by its number.
 */
export const branchLabel = (branchId: number, name = '') => {
  if (branchId === -2) return name || '默认（未经推广链接）';
  return name ? `${name}（${branchId}）` : `渠道 ${branchId}`;
};
