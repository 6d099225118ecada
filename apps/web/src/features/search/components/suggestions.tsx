import type { MatchReason, SearchSuggestion, TextMark } from '@yueman/contract';
import { Link } from 'react-router';

/** Text with the marked characters highlighted (marks are character offsets, not UTF-16 ones). */
function Marked({ text, marks }: { text: string; marks: TextMark[] }) {
  const chars = [...text];
  const parts: { text: string; marked: boolean }[] = [];
  chars.forEach((c, i) => {
    const marked = marks.some((m) => i >= m.start && i < m.end);
    const last = parts.at(-1);
    if (last && last.marked === marked) last.text += c;
    else parts.push({ text: c, marked });
  });
  return (
    <>
      {parts.map((p, i) =>
        p.marked ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in order
          <mark key={i}>{p.text}</mark>
        ) : (
          p.text
        ),
      )}
    </>
  );
}

const REASON_LABEL: Record<MatchReason['kind'], string> = {
  alias: '别名',
  pinyin: '拼音',
  author: '作者',
  description: '简介',
  typo: '你要找的是不是',
};

/** The titles suggested as the reader types; tapping one opens the book. */
export function Suggestions({ items }: { items: SearchSuggestion[] }) {
  if (items.length === 0) return null;
  return (
    <ul className="search-suggestions" aria-label="搜索提示">
      {items.map((s) => (
        <li key={s.bookId}>
          <Link to={`/book/${s.bookId}`} className="search-suggestion">
            <span className="search-suggestion-title">
              <Marked text={s.title} marks={s.titleMarks} />
            </span>
            {s.reason && s.reason.kind !== 'typo' && s.reason.text !== '' && (
              <span className="search-suggestion-reason">
                {REASON_LABEL[s.reason.kind]} <Marked text={s.reason.text} marks={s.reason.marks} />
              </span>
            )}
            {s.reason?.kind === 'typo' && (
              <span className="search-suggestion-reason">{REASON_LABEL.typo}</span>
            )}
          </Link>
        </li>
      ))}
    </ul>
  );
}
