// The rules the server and the web app must agree on, written once (docs/api.md). No schemas here: the web app
// imports these at run time, and this file must not bring TypeBox into its bundle.

/** The envelope's codes (docs/api.md, "Envelope and codes"). Business outcomes come with HTTP 200. */
export const Code = {
  ok: 200,
  /** The chapter must be bought first (read_chapter), or the coins fall short (chapter/buy). */
  paymentNeeded: 999,
  /** No such chapter: 没有更多章节啦 ^_^ (also the HTTP 400 of malformed input). */
  noMoreChapters: 400,
  /** The user behind the request could not be established for a call that needs one. */
  userUnknown: 101,
  /** Unknown book or route; find_account matched nothing. */
  notFound: 404,
  /** Login: account or password wrong. */
  wrongCredentials: 102,
  /** Bind mobile: the number belongs to another account. */
  mobileTaken: 103,
  /** Transport statuses, answered with the same number as code and HTTP status. */
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  tooManyRequests: 429,
  serverError: 500,
} as const;
export type Code = (typeof Code)[keyof typeof Code];

/** The branch (promotion channel) of a visitor who came without a tgId. */
export const DEFAULT_BRANCH = -2;

/** A visitor (trace) id the server accepts from x-trace-id; anything else is ignored or replaced. */
export const TRACE_ID = /^[A-Za-z0-9-]{8,64}$/;
export const isTraceId = (value: unknown): value is string =>
  typeof value === 'string' && TRACE_ID.test(value);

/** Lists are 20 a page, pages start at 1. */
export const PAGE_SIZE = 20;
export const totalPages = (totalItem: number) => Math.ceil(totalItem / PAGE_SIZE);

/** Search keywords: 1 to 20 characters after trimming. */
export const SEARCH_MAX_LENGTH = 20;

/**
 * What the payer pays through a channel, in cents: the pack's price (amountLevel, cents) times the channel's
 * discount as the recharge centre shows it (9.5 is 9.5折; 10 or more, or 0, is no discount), rounded to the cent,
 * half up. Worked in whole tenths of a 折, so no floating-point remainder makes the two sides disagree by a cent.
 */
export function payAmountOf(amountLevel: number, discount: number): number {
  const tenths = discount > 0 && discount < 10 ? Math.round(discount * 10) : 100;
  return Math.floor((amountLevel * tenths + 50) / 100);
}

/** Client types that are app shells: their pay channels answer JSON for a native bridge instead of redirecting. */
export const APP_SHELL_TYPES = ['shell', 'ios_desk'] as const;
export const isAppShell = (appType: string) => (APP_SHELL_TYPES as readonly string[]).includes(appType);

/**
 * The longest text of a book's fields, in characters (code points), for every writer of a book: the console's forms
 * and API, the importer (which cuts longer ComicInfo text to these), the seeds, and the database's CHECK constraints
 * (migration 0017). The search index's cost per book is linear in these, so they also bound every book's re-index.
 * A title of 100 and a description of 2000 are what the console always allowed; an author line of 50 holds a few
 * pen names joined (the console's limit too); a category is a short tab label (20). A chapter's title: 100, as the
 * console's.
 */
export const BOOK_TEXT_LIMITS = {
  title: 100,
  author: 50,
  description: 2000,
  category: 20,
  chapterTitle: 100,
  /** A book's other names readers search by: at most `aliases` of them, each at most `alias` characters. */
  aliases: 10,
  alias: 50,
} as const;

/** Suggestions shown as a reader types on the search screen. */
export const SUGGESTION_LIMIT = 8;

/** `text` cut to at most `max` characters (code points: a character outside the BMP is one, never split). */
export function clampText(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = Array.from(text.slice(0, 2 * max));
  return chars.length <= max ? chars.join('') : chars.slice(0, max).join('');
}
