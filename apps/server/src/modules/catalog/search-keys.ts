import { BOOK_TEXT_LIMITS, clampText, SEARCH_MAX_LENGTH } from '@yueman/contract';
import { Converter } from 'opencc-js/t2cn';
import { pinyin } from 'pinyin-pro';

/**
 * The search keys of a book, computed once when its title, author or aliases are written (never on a read), and
 * the keyword's fold, so both sides meet (docs/decisions.md, "Search the way readers type").
 *
 * Folding: NFKC (full-width letters and digits to half-width, compatibility forms), OpenCC's traditional and
 * variant characters to simplified (opencc-js, the data of OpenCC's t2cn), lower case, and every space,
 * punctuation mark and symbol dropped. Pinyin: pinyin-pro's readings in context (重生 is chong sheng), with each
 * polyphonic character's other readings as alternatives (readers type zhong sheng too).
 */

/** Traditional (Taiwan, Hong Kong) and variant characters to mainland simplified, by OpenCC's dictionaries. */
const toSimplified = Converter({ from: 't', to: 'cn' });

const DROPPED = /[\p{P}\p{S}\p{Z}\p{Cc}\p{Cf}\s]/gu;

/** Text as search compares it; cut to `max` characters so a key stays bounded whatever the text. */
export function foldText(text: string, max: number = BOOK_TEXT_LIMITS.title): string {
  // Cut before and after: NFKC can lengthen text (㍿ is four characters), OpenCC keeps length.
  const cut = clampText(text, max * 2);
  return clampText(toSimplified(cut.normalize('NFKC')).toLowerCase().replace(DROPPED, ''), max);
}

/** A reader's keyword folded as the keys are; '' when nothing is left (only spaces or punctuation). */
export const foldKeyword = (keyword: string) => foldText(keyword, SEARCH_MAX_LENGTH);

/** Pinyin keys start at the first characters of a field only: readers type a title from its start or a word. */
const KEY_STARTS = 12;
/**
 * Other readings tried per start, of its first two characters only: a title of polyphonic characters makes at most
 * this many more keys, and a reader's other reading is that of the word they start with (重生 zhong sheng).
 */
const VARIANTS_PER_START = 3;
const VARIED_CHARACTERS = 2;
const MAX_ALIASES_KEYED = 3;

const isLatinOrDigit = (c: string) => /^[a-z0-9]$/.test(c);
/** ü as readers type it on a phone keyboard: v (lv, nv). (pinyin-pro's own `v` option costs 8 times the call.) */
const plainLetters = (reading: string) => reading.replaceAll('ü', 'v');

/** A character's readings out of context, kept: a few thousand characters cover every title. */
const readingsOfChar = new Map<string, string[]>();
function otherReadings(c: string): string[] {
  let found = readingsOfChar.get(c);
  if (!found) {
    found = pinyin(c, { type: 'array', toneType: 'none', multiple: true })
      .map(plainLetters)
      .filter((r) => /^[a-z]+$/.test(r));
    if (readingsOfChar.size < 50_000) readingsOfChar.set(c, found);
  }
  return found;
}

/**
 * Each character's readings: the reading in context first, then the character's other readings (at most three
 * in all); a letter or digit reads as itself; anything else has no reading ('').
 */
export function readingsOf(folded: string): string[][] {
  const chars = [...folded];
  if (chars.length === 0) return [];
  // pinyin-pro answers one reading per character, in context; a character that is not Chinese answers itself.
  const inContext = pinyin(folded, { type: 'array', toneType: 'none' });
  return chars.map((c, i) => {
    if (isLatinOrDigit(c)) return [c];
    const reading = plainLetters(inContext[i] ?? '');
    if (!/^[a-z]+$/.test(reading) || reading === c) return [''];
    return [...new Set([reading, ...otherReadings(c)])].slice(0, 3);
  });
}

/** The stored form of readings: a token per character, alternatives joined by '/' ("chong/zhong sheng"). */
export const readingsText = (readings: string[][]) => readings.map((r) => r.join('/') || '-').join(' ');
export const parseReadings = (text: string) => text.split(' ').map((t) => (t === '-' ? [''] : t.split('/')));

/** The full pinyin and initials keys from each start of a field, with polyphonic alternatives, bounded. */
export function pinyinKeysOf(readings: string[][]): string[] {
  const keys = new Set<string>();
  const join = (choice: string[], initials: boolean) =>
    choice
      .map((r) => (initials ? r.slice(0, 1) : r))
      .join('')
      .slice(0, SEARCH_MAX_LENGTH);
  for (let start = 0; start < Math.min(readings.length, KEY_STARTS); start++) {
    // A keyword has at most 20 letters: 20 characters' initials, fewer characters' full pinyin (cut in join).
    const window = readings.slice(start, start + SEARCH_MAX_LENGTH);
    if ((window[0]?.[0] ?? '') === '') continue;
    const primary = window.map((r) => r[0] ?? '');
    const choices = [primary];
    for (let j = 0; j < Math.min(window.length, VARIED_CHARACTERS); j++) {
      for (const other of (window[j] ?? []).slice(1)) {
        if (choices.length > VARIANTS_PER_START) break;
        choices.push(primary.map((r, k) => (k === j ? other : r)));
      }
    }
    for (const choice of choices) {
      for (const initials of [false, true]) {
        const key = join(choice, initials);
        // One letter is no key: every book would have one.
        if (key.length >= 2) keys.add(key);
      }
    }
  }
  return [...keys];
}

/** A pinyin key's row: tier 5 title or alias, 6 author (the search's ranking). */
export interface PinyinKey {
  key: string;
  tier: 5 | 6;
}

export interface SearchKeys {
  searchTitle: string;
  searchAuthor: string;
  /** The folded aliases, separated by spaces (a fold never leaves a space). */
  searchAliases: string;
  searchPinyin: string;
  pinyinKeys: PinyinKey[];
}

/** Everything search keeps of a book, from the text an operator or an import wrote. */
export function searchKeysOf(book: {
  title: string;
  author: string;
  aliases: readonly string[];
}): SearchKeys {
  const searchTitle = foldText(book.title, BOOK_TEXT_LIMITS.title);
  const searchAuthor = foldText(book.author, BOOK_TEXT_LIMITS.author);
  const aliases = book.aliases
    .slice(0, BOOK_TEXT_LIMITS.aliases)
    .map((a) => foldText(a, BOOK_TEXT_LIMITS.alias))
    .filter((a) => a !== '');
  const titleReadings = readingsOf(searchTitle);
  const keys = new Map<string, 5 | 6>();
  for (const key of pinyinKeysOf(readingsOf(searchAuthor))) keys.set(key, 6);
  for (const text of [searchTitle, ...aliases.slice(0, MAX_ALIASES_KEYED)]) {
    const readings = text === searchTitle ? titleReadings : readingsOf(text);
    for (const key of pinyinKeysOf(readings)) keys.set(key, 5);
  }
  // A key that begins another key of as good a tier finds nothing more (keywords match keys as prefixes).
  const sorted = [...keys].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const kept = sorted.filter(([key, tier], i) => {
    for (let j = i + 1; j < sorted.length && (sorted[j]?.[0] ?? '').startsWith(key); j++) {
      if ((sorted[j]?.[1] ?? 7) <= tier) return false;
    }
    return true;
  });
  return {
    searchTitle,
    searchAuthor,
    searchAliases: aliases.join(' '),
    searchPinyin: readingsText(titleReadings),
    pinyinKeys: kept.map(([key, tier]) => ({ key, tier })),
  };
}

/** A keyword that may be pinyin: letters (and digits), at least two of them. */
export const mayBePinyin = (folded: string) => /^[a-z0-9]*[a-z][a-z0-9]*$/.test(folded) && folded.length >= 2;
