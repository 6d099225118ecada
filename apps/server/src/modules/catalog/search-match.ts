import type { SearchSuggestion, TextMark } from '@yueman/contract';
import { SEARCH_TIERS, type SearchHit } from './catalog.repository.ts';
import { foldText, parseReadings } from './search-keys.ts';

type Mark = TextMark;

/**
 * Where a folded keyword sits in a text, in the text's own characters: each character folded alone (its fold is
 * empty for punctuation), so a mark spans the characters whose folds make the keyword.
 */
export function marksIn(text: string, keyword: string): Mark[] {
  const want = [...keyword];
  if (want.length === 0) return [];
  const folded: string[] = [];
  const from: number[] = [];
  [...text].forEach((c, i) => {
    for (const f of foldText(c, 4)) {
      folded.push(f);
      from.push(i);
    }
  });
  for (let at = 0; at + want.length <= folded.length; at++) {
    if (want.every((c, k) => folded[at + k] === c)) {
      return [{ start: from[at] ?? 0, end: (from[at + want.length - 1] ?? 0) + 1 }];
    }
  }
  return [];
}

/** Edit distance at most one between `a` and some substring of `text` (characters, not UTF-16 units). */
export function withinOneTypo(keyword: string, text: string): boolean {
  const k = [...keyword];
  const t = [...text];
  // Semi-global edit distance: a match may start and end anywhere in the text; rows kept two at a time.
  let prev = new Array<number>(t.length + 1).fill(0);
  for (let i = 1; i <= k.length; i++) {
    const row = new Array<number>(t.length + 1);
    row[0] = i;
    let best = row[0];
    for (let j = 1; j <= t.length; j++) {
      const cost = k[i - 1] === t[j - 1] ? 0 : 1;
      row[j] = Math.min((prev[j - 1] ?? 0) + cost, (prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1);
      best = Math.min(best, row[j] ?? best);
    }
    if (best > 1) return false;
    prev = row;
  }
  return Math.min(...prev) <= 1;
}

/**
 * The readings a pinyin keyword took through the title, from a character on: full pinyin (the last syllable may be
 * cut short, as one types) or initials. Answers, per character used, the reading and how many of its letters the
 * keyword covered.
 */
function readThrough(readings: string[][], start: number, keyword: string) {
  const walk = (
    i: number,
    rest: string,
    initials: boolean,
  ): { reading: string; covered: number }[] | null => {
    if (rest === '') return [];
    const options = readings[i];
    if (!options || options[0] === '') return null;
    for (const r of options) {
      if (initials) {
        if (r[0] === rest[0]) {
          const next = walk(i + 1, rest.slice(1), true);
          if (next) return [{ reading: r, covered: 1 }, ...next];
        }
      } else if (rest.startsWith(r)) {
        const next = walk(i + 1, rest.slice(r.length), false);
        if (next) return [{ reading: r, covered: r.length }, ...next];
      } else if (r.startsWith(rest)) {
        return [{ reading: r, covered: rest.length }];
      }
    }
    return null;
  };
  return walk(start, keyword, false) ?? walk(start, keyword, true);
}

/** The pinyin a keyword matched in a title, its letters marked, and the title's characters it covers. */
export function pinyinMatch(
  title: string,
  storedReadings: string,
  keyword: string,
): { text: string; marks: Mark[]; titleMarks: Mark[] } | null {
  const readings = parseReadings(storedReadings);
  for (let start = 0; start < readings.length; start++) {
    const used = readThrough(readings, start, keyword);
    if (!used) continue;
    // The readings shown: the title's own, with the ones the keyword took (a polyphonic character's other reading).
    const shown = readings.map((r, i) =>
      i >= start && i < start + used.length ? used[i - start]?.reading : r[0],
    );
    let text = '';
    const marks: Mark[] = [];
    shown.forEach((r, i) => {
      if (!r) return;
      if (text !== '') text += ' ';
      const u = i >= start ? used[i - start] : undefined;
      if (u) marks.push({ start: text.length, end: text.length + u.covered });
      text += r;
    });
    // The folded title has a character per reading; the title's marks are those characters' places in the title.
    const folded = [...foldText(title)].slice(start, start + used.length).join('');
    return { text, marks, titleMarks: marksIn(title, folded) };
  }
  return null;
}

/** Why a book came up for a keyword: the title's marks and, past the title, the text that matched. */
export function suggestionOf(hit: SearchHit, keyword: string): SearchSuggestion {
  const base = { bookId: hit.bookId, title: hit.title, cover: hit.cover };
  const inTitle = marksIn(hit.title, keyword);
  if (hit.tier <= SEARCH_TIERS.title) return { ...base, titleMarks: inTitle, reason: null };
  if (hit.tier === SEARCH_TIERS.alias) {
    const alias = hit.aliases.find((a) => marksIn(a, keyword).length > 0);
    if (alias)
      return {
        ...base,
        titleMarks: [],
        reason: { kind: 'alias', text: alias, marks: marksIn(alias, keyword) },
      };
  }
  if (hit.tier === SEARCH_TIERS.pinyin && hit.readings) {
    const found = pinyinMatch(hit.title, hit.readings, keyword);
    if (found)
      return {
        ...base,
        titleMarks: found.titleMarks,
        reason: { kind: 'pinyin', text: found.text, marks: found.marks },
      };
  }
  if (hit.tier === SEARCH_TIERS.author || hit.tier === SEARCH_TIERS.pinyin) {
    return {
      ...base,
      titleMarks: [],
      reason: { kind: 'author', text: hit.author, marks: marksIn(hit.author, keyword) },
    };
  }
  if (hit.tier === SEARCH_TIERS.typo)
    return { ...base, titleMarks: [], reason: { kind: 'typo', text: hit.title, marks: [] } };
  return { ...base, titleMarks: [], reason: { kind: 'description', text: '', marks: [] } };
}
