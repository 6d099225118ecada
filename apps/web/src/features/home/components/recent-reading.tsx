import { Link } from 'react-router';
import { Cover } from '../../../components/cover.tsx';
import { readerPath, shelfPath } from '../../../lib/paths.ts';
import { useShelfStore } from '../../../lib/shelf-store.ts';
import { Section } from './section.tsx';

/** 最近阅读: up to 3 history entries, only when there are any (spec sections 2 and 9). */
export function RecentReading() {
  const history = useShelfStore((s) => s.history);
  if (history.length === 0) return null;
  return (
    <Section title="最近阅读" more={shelfPath('history')} testId="home-recent">
      <div className="home-recent">
        {history.slice(0, 3).map((h) => (
          <Link
            key={h.bookInfo.bookId}
            to={readerPath(h.bookInfo.bookId, h.number)}
            className="home-recent-item"
          >
            <Cover path={h.bookInfo.cover} width={200} alt={h.bookInfo.title} />
            <span className="home-recent-title">{h.bookInfo.title}</span>
            <span className="home-recent-meta">读到第{h.number}话</span>
          </Link>
        ))}
      </div>
    </Section>
  );
}
