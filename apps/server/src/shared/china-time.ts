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
