import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

// Every time the console shows or takes is China time (Asia/Shanghai, UTC+8 all year), whatever the zone of the
// operator's browser: the service's days, schedules and reports are China's.
export const CHINA_ZONE = 'Asia/Shanghai';
/** What every time shown or asked for says it is. */
export const CHINA_TIME = '北京时间';
/** A label with the zone its times are in, e.g. 定时发布（北京时间）. */
export const inChinaTime = (label: string) => `${label}（${CHINA_TIME}）`;

const WALL = 'YYYY-MM-DDTHH:mm:ss';

/** A time as operators read it: China time, to the minute or second. */
export const dateTime = (iso: string | null | undefined, seconds = false) =>
  iso
    ? dayjs(iso)
        .tz(CHINA_ZONE)
        .format(seconds ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD HH:mm')
    : '-';

/** A China date, 'YYYY-MM-DD', of an instant. */
export const chinaDate = (iso: string) => dayjs(iso).tz(CHINA_ZONE).format('YYYY-MM-DD');

/**
 * A date picker's value for an instant: the China wall clock of it (the pickers show and take wall clocks in the
 * browser's own zone; this one carries China's), or null.
 */
export const chinaPickerValue = (iso: string | null | undefined): Dayjs | null =>
  iso ? dayjs(dayjs(iso).tz(CHINA_ZONE).format(WALL)) : null;

/** The instant (ISO 8601) a date picker's China wall clock means, or null. */
export const instantOfPicker = (value: Dayjs | null | undefined): string | null =>
  value ? dayjs.tz(value.format(WALL), CHINA_ZONE).toISOString() : null;

/** Today in China, as a date picker's value (its start). */
export const chinaToday = (): Dayjs => dayjs(dayjs().tz(CHINA_ZONE).format('YYYY-MM-DD'));

/** 'YYYY-MM-DD HH:mm' typed as China time → the instant (ISO 8601), or null when empty. */
export const instantOfChinaText = (text: string | null | undefined): string | null =>
  text?.trim() ? dayjs.tz(text.trim().replace(' ', 'T'), CHINA_ZONE).toISOString() : null;

/** An instant as 'YYYY-MM-DD HH:mm' China time for a text field, '' for none. */
export const chinaText = (iso: string | null | undefined) =>
  iso ? dayjs(iso).tz(CHINA_ZONE).format('YYYY-MM-DD HH:mm') : '';

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
