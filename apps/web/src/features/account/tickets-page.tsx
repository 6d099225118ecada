import type { ReadingTicket } from '@yueman/contract';
import { RecordRowsSkeleton } from '../../components/skeletons/parts.tsx';
import { chinaTimeFormat } from '../../lib/china-time.ts';
import { useTickets } from './api/get-tickets.ts';
import { AccountPage } from './components/account-layout.tsx';

const chinaMinute = chinaTimeFormat({
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

/** "2026/12/03 08:00（北京时间）". */
const chinaTimeLabel = (ms: number) => `${chinaMinute().format(ms)}（北京时间）`;

const STATE: Record<ReadingTicket['state'], string> = { usable: '可用', spent: '已使用', expired: '已过期' };

function Row({ ticket }: { ticket: ReadingTicket }) {
  const kind = ticket.kind === 'presale' ? '抢先券' : '阅读券';
  const lasts = ticket.rentalHours === null ? '解锁后永久阅读' : `解锁后可看${ticket.rentalHours}小时`;
  const scope = ticket.scope === null ? '全站通用' : '限指定作品';
  return (
    <li className={`record-row ticket-row is-${ticket.state}`}>
      <span className="record-text">
        <span className="record-title">
          {kind} · {scope}
        </span>
        <span className="record-date">{lasts}</span>
        <time className="record-date">
          {ticket.state === 'expired' ? '已于' : '有效期至'}
          {chinaTimeLabel(ticket.expiresAt)}
          {ticket.state === 'expired' && '过期'}
        </time>
      </span>
      <span className={`ticket-state is-${ticket.state}`}>{STATE[ticket.state]}</span>
    </li>
  );
}

/**
 * /user/tickets 我的阅读券: the reader's tickets as the server orders them (usable first, expiring soonest first),
 * each with its kind, what it opens for how long, and its expiry in China time; expired ones say so.
 */
export default function TicketsPage() {
  const tickets = useTickets();
  const list = tickets.data?.list ?? [];
  const usable = list.filter((t) => t.state === 'usable').length;

  let body: React.ReactNode;
  if (tickets.isPending)
    body = (
      <div aria-busy="true">
        <RecordRowsSkeleton />
      </div>
    );
  else if (tickets.isError)
    body = (
      <button type="button" className="list-retry" onClick={() => void tickets.refetch()}>
        加载失败，点击重试
      </button>
    );
  else if (list.length === 0) body = <p className="list-note records-empty">暂时没有阅读券</p>;
  else
    body = (
      <>
        <p className="list-note tickets-head">可用 {usable} 张 · 先到期的先使用</p>
        <ul className="records" data-testid="tickets">
          {list.map((t) => (
            <Row key={t.id} ticket={t} />
          ))}
        </ul>
      </>
    );

  return <AccountPage title="我的阅读券">{body}</AccountPage>;
}
