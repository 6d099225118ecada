import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A home section: a title, a '更多' link to its list, and its books. */
export function Section(props: {
  title: string;
  more?: string;
  testId: string;
  /** A link beside 更多 (the daily updates' 更新日历). */
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="home-section" data-testid={props.testId}>
      <header className="home-section-head">
        <h2>{props.title}</h2>
        {props.extra}
        {props.more && (
          <Link to={props.more} className="home-more" aria-label={`${props.title} 更多`}>
            更多
          </Link>
        )}
      </header>
      {props.children}
    </section>
  );
}
