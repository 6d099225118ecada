import type { ChapterItem } from '@yueman/contract';
import { memo } from 'react';
import { Link } from 'react-router';
import { imageUrl } from '../../../lib/images.ts';
import { readerPath } from '../../../lib/paths.ts';
import { chapterMarks } from '../book-helpers.ts';

/**
 * One catalogue entry: lazily loaded thumbnail (plain WebP, 320 x 180), title, and its marks (price, 已购, 租借中,
 * 抢先, 等免, 券: book-helpers.ts chapterMarks). Memoised: a list of
 * hundreds of chapters re-renders only the rows whose data changed.
 */
export const ChapterRow = memo(function ChapterRow({
  chapter,
  bookTitle,
  current,
}: {
  chapter: ChapterItem;
  bookTitle: string;
  current: boolean;
}) {
  return (
    <li className={`chapter-row ${current ? 'is-current' : ''}`}>
      <Link to={readerPath(chapter.bookId, chapter.number, bookTitle, chapter.title)}>
        <img
          className="chapter-thumb"
          loading="lazy"
          decoding="async"
          src={imageUrl(chapter.cover, 180)}
          width={320}
          height={180}
          alt=""
        />
        <span className="chapter-row-text">
          <span className="chapter-row-title">{chapter.title}</span>
          {current && <span className="chapter-row-current">上次读到这里</span>}
        </span>
        <span className="chapter-row-tags">
          {chapterMarks(chapter, Date.now()).map((m) => (
            <span key={m.kind} className={`chapter-tag chapter-tag-${m.kind}`}>
              {m.text}
            </span>
          ))}
        </span>
      </Link>
    </li>
  );
});
