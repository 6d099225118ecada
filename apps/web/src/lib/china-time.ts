/**
 * Formatters of China time (Asia/Shanghai, the time the server and the operators count in), each made on its first
 * use. Making an `Intl.DateTimeFormat` with a time zone loads the zone and the locale's patterns: about 10 ms of CPU
 * here and several times that on a phone. Made at a module's top level, that cost fell on the chunk's evaluation in
 * the first load (the reader's buy prompt: a 150 ms long task at Lighthouse's 4x CPU), for a screen that may never
 * show a date.
 */
export function chinaTimeFormat(options: Intl.DateTimeFormatOptions, locale = 'zh-CN') {
  let format: Intl.DateTimeFormat | undefined;
  return () => (format ??= new Intl.DateTimeFormat(locale, { ...options, timeZone: 'Asia/Shanghai' }));
}
