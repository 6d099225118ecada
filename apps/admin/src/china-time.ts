// China time (UTC+8 all year, no daylight saving) whatever the operator's own clock: 'YYYY-MM-DD HH:mm'.
const CHINA_MS = 8 * 3_600_000;

/** An instant as China time, to the minute; '-' for none. Say 北京时间 beside it. */
export const chinaTime = (iso: string | null | undefined) =>
  iso ? new Date(new Date(iso).getTime() + CHINA_MS).toISOString().slice(0, 16).replace('T', ' ') : '-';
