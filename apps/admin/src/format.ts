import dayjs from 'dayjs';

/** A time as operators read it (their own clock, to the minute or second). */
export const dateTime = (iso: string | null | undefined, seconds = false) =>
  iso ? dayjs(iso).format(seconds ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD HH:mm') : '-';

/** Cents as yuan with two decimals, e.g. 2850 → ¥28.50. */
export const yuan = (cents: number) => `${cents < 0 ? '-' : ''}¥${(Math.abs(cents) / 100).toFixed(2)}`;

/** Yuan typed in a form (two decimals at most) as cents. */
export const centsOf = (yuanAmount: number) => Math.round(yuanAmount * 100);

/** A promotion branch as operators read it: its name (默认 for an unnamed -2) and its id. */
export const branchLabel = (branchId: number, name = '') => {
  const label = name || (branchId === -2 ? '默认' : '');
  return label ? `${label} (${branchId})` : String(branchId);
};
