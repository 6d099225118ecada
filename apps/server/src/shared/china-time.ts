/** Dates shown to readers are China time (Asia/Shanghai, UTC+8 all year, no daylight saving). */
const OFFSET_MS = 8 * 3600 * 1000;

export function chinaTimeParts(at: Date) {
  const t = new Date(at.getTime() + OFFSET_MS);
  const year = t.getUTCFullYear();
  const month = t.getUTCMonth() + 1;
  const day = t.getUTCDate();
  const hour = t.getUTCHours();
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    year,
    month,
    day,
    hour,
    text: `${year}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(t.getUTCMinutes())}`,
  };
}

const DAY_MS = 24 * 3600 * 1000;

/** The UTC instants [from, to) of a China-time calendar day 'YYYY-MM-DD'; undefined when not a real date. */
export function chinaDay(text: string): { from: Date; to: Date } | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const midnightUtc = Date.UTC(year, month - 1, day);
  const check = new Date(midnightUtc);
  // Date.UTC rolls 2024-02-30 over to March: such a date is not real.
  if (year < 2000 || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  const from = midnightUtc - OFFSET_MS;
  return { from: new Date(from), to: new Date(from + DAY_MS) };
}

/** The China-time calendar day of an instant, 'YYYY-MM-DD' (`days` later or, negative, earlier). */
export const chinaDate = (at: Date, days = 0) =>
  new Date(at.getTime() + OFFSET_MS + days * DAY_MS).toISOString().slice(0, 10);
