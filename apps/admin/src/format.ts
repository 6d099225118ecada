import dayjs from 'dayjs';

/** A time as operators read it (their own clock, to the minute or second). */
export const dateTime = (iso: string | null | undefined, seconds = false) =>
  iso ? dayjs(iso).format(seconds ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD HH:mm') : '-';
