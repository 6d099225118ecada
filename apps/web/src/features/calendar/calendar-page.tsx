import { useQuery } from '@tanstack/react-query';
import type { CalendarBook, CalendarDay } from '@yueman/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { Cover } from '../../components/cover.tsx';
import { ServiceLinks } from '../../components/service-links.tsx';
import { TopBar } from '../../components/top-bar.tsx';
import { data, routes } from '../../lib/api-client.ts';
import { chinaTimeFormat } from '../../lib/china-time.ts';
import { bookPath } from '../../lib/paths.ts';
import { useShelfStore } from '../../lib/shelf-store.ts';
import './calendar.css';

const WEEKDAYS = ['', '周一', '周二', '周三', '周四', '周五', '周六', '周日'];

const timeFormat = chinaTimeFormat({
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

/** 今天 / 明天 / 周三, and the day of the month (China time, as the server counted the days). */
function dayLabel(day: CalendarDay, i: number) {
  return {
    name: i === 0 ? '今天' : i === 1 ? '明天' : (WEEKDAYS[day.weekday] ?? ''),
    date: day.date.slice(8),
  };
}

function CalendarRow({
  entry,
  followed,
  weekday,
}: {
  entry: CalendarBook;
  followed: boolean;
  weekday: number;
}) {
  const { book, chapters } = entry;
  const first = chapters[0];
  return (
    <li>
      <Link to={bookPath(book.bookId)} className="cal-row">
        <Cover path={book.cover} width={200} alt={book.title} />
        <div className="cal-row-text">
          <span className="cal-row-title">
            {followed && <span className="cal-followed">追更中</span>}
            {book.title}
          </span>
          <span className="cal-row-sub">{book.author}</span>
          <span className="cal-row-when">
            {first
              ? `${timeFormat().format(first.publishAt)} 更新第${first.number}话${chapters.length > 1 ? `等${chapters.length}话` : ''}`
              : `每${WEEKDAYS[weekday]}更新 · 已更新至第${book.chapterCount}话`}
          </span>
        </div>
      </Link>
    </li>
  );
}

/** /calendar: the release calendar (更新日历): today and the next six days (China time), followed books first. */
export default function CalendarPage() {
  const {
    data: days,
    isPending,
    isError,
    refetch,
  } = useQuery({
    queryKey: ['release-calendar'],
    queryFn: () => data(routes.releaseCalendar),
  });
  const favourites = useShelfStore((s) => s.favourites);
  const [active, setActive] = useState(0);
  const followed = new Set(favourites.map((b) => b.bookId));
  const day = days?.[active];
  const books = day
    ? [...day.books].sort((a, b) => Number(followed.has(b.book.bookId)) - Number(followed.has(a.book.bookId)))
    : [];

  return (
    <main className="page page-grey cal-page">
      <TopBar title="更新日历" />
      <p className="cal-note">按北京时间，今天起七天</p>
      <div className="cal-days" role="tablist" aria-label="日期">
        {(days ?? []).map((d, i) => {
          const label = dayLabel(d, i);
          return (
            <button
              key={d.date}
              type="button"
              role="tab"
              aria-selected={i === active}
              className={`cal-day${i === active ? ' cal-day-active' : ''}`}
              onClick={() => setActive(i)}
            >
              <span className="cal-day-name">{label.name}</span>
              <span className="cal-day-date">{label.date}</span>
            </button>
          );
        })}
      </div>
      {isPending && <p className="cal-empty">加载中…</p>}
      {isError && (
        <button type="button" className="list-retry" onClick={() => void refetch()}>
          加载失败，点击重试
        </button>
      )}
      {day &&
        (books.length === 0 ? (
          <p className="cal-empty">这一天暂时没有更新</p>
        ) : (
          <ul className="cal-list" aria-label={`${dayLabel(day, active).name}更新`}>
            {books.map((entry) => (
              <CalendarRow
                key={entry.book.bookId}
                entry={entry}
                followed={followed.has(entry.book.bookId)}
                weekday={day.weekday}
              />
            ))}
          </ul>
        ))}
      <ServiceLinks />
    </main>
  );
}
