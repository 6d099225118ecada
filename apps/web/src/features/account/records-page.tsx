import type { ConsumptionRecord } from '@yueman/contract';
import { DotLoading, InfiniteScroll } from 'antd-mobile';
import { RecordRowsSkeleton } from '../../components/skeletons/parts.tsx';
import { useConsumption } from './api/get-consumption.ts';
import { AccountPage } from './components/account-layout.tsx';

const yuan = (cents: number) => `¥${(cents / 100).toFixed(2)}`;

/** Coins in or out, signed; VIP moves no coins and shows what was paid instead. */
function Amount({ record }: { record: ConsumptionRecord }) {
  if (record.coins === 0)
    return <span className="record-amount">{record.payAmount > 0 ? yuan(record.payAmount) : '—'}</span>;
  const incoming = record.coins > 0;
  return (
    <span className={`record-amount ${incoming ? 'record-in' : 'record-out'}`}>
      {incoming ? '+' : '-'}
      {Math.abs(record.coins)}阅币
      {record.payAmount > 0 && <small>支付 {yuan(record.payAmount)}</small>}
    </span>
  );
}

function Row({ record }: { record: ConsumptionRecord }) {
  return (
    <li className="record-row">
      <span className="record-text">
        <span className="record-title">{record.title}</span>
        <time className="record-date">{record.createdAt}</time>
      </span>
      <Amount record={record} />
    </li>
  );
}

/** /user/purchase/history: recharges, bonuses, chapters bought and VIP, newest first (China time). */
export default function RecordsPage() {
  const records = useConsumption();
  const rows = records.data?.pages.flatMap((p) => p.list) ?? [];

  let body: React.ReactNode;
  if (records.isPending)
    body = (
      <div aria-busy="true">
        <RecordRowsSkeleton />
      </div>
    );
  else if (records.isError && !records.data)
    body = (
      <button type="button" className="list-retry" onClick={() => void records.refetch()}>
        加载失败，点击重试
      </button>
    );
  else if (rows.length === 0) body = <p className="list-note records-empty">暂时没有记录</p>;
  else
    body = (
      <>
        <ul className="records" data-testid="records">
          {rows.map((r) => (
            <Row key={r.id} record={r} />
          ))}
        </ul>
        <InfiniteScroll
          hasMore={records.hasNextPage}
          loadMore={async () => {
            if (!records.isFetchingNextPage) await records.fetchNextPage({ throwOnError: true });
          }}
        >
          {records.hasNextPage ? (
            <DotLoading color="primary" />
          ) : (
            <span className="list-note">没有更多记录了</span>
          )}
        </InfiniteScroll>
      </>
    );

  return <AccountPage title="消费记录">{body}</AccountPage>;
}
