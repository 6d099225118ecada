import { chinaTimeFormat } from '../../lib/china-time.ts';

/** Dates the reader picks are China dates (docs/api.md section 6), whatever the phone's own time zone. */
const chinaParts = chinaTimeFormat({ year: 'numeric', month: '2-digit', day: '2-digit' }, 'en-CA');

/** Today in China as a local-midnight Date, the picker's latest choice. */
export function chinaToday(): Date {
  const [y, m, d] = chinaParts().format(new Date()).split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The picker's calendar day as the call wants it: YYYY-MM-DD. */
export const toChargeTime = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

export const toLabel = (d: Date) => `${d.getFullYear()}年${pad(d.getMonth() + 1)}月${pad(d.getDate())}日`;
