import { DownloadOutlined } from '@ant-design/icons';
import { Bar, Column, Line } from '@ant-design/plots';
import { PageContainer, ProCard, StatisticCard } from '@ant-design/pro-components';
import type {
  Dashboard,
  DashboardBook,
  DashboardChapter,
  DashboardDay,
  DashboardFunnelRow,
  DashboardSummary,
  DashboardUnlockRow,
  DashboardWindow,
} from '@yueman/contract/admin';
import {
  Button,
  Col,
  DatePicker,
  Row,
  Segmented,
  Space,
  Table,
  type TableColumnsType,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { adminRoutes, call, shown } from '../api.ts';
import { csvText, downloadCsv } from '../csv.ts';
import { branchLabel, yuan } from '../format.ts';
import { RetentionSection } from './dashboard-retention.tsx';

const DAY = 'YYYY-MM-DD';
/** Today's date in China (the server sums China days whatever the browser's zone). */
const chinaToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());

const WINDOW_NAMES: Record<DashboardWindow, string> = { 1: '当天', 7: '最近 7 天', 30: '最近 30 天' };
const percent = (part: number, whole: number) =>
  whole === 0 ? '-' : `${((part / whole) * 100).toFixed(1)}%`;
/** Cents as yuan for a chart or a CSV cell: a number, two decimals. */
const yuanNumber = (cents: number) => Math.round(cents) / 100;

/** One column of a section: its table cell and its CSV cell, under the same title. */
interface Field<T> {
  title: string;
  csv: (row: T) => string | number;
  show?: (row: T) => ReactNode;
  align?: 'right';
  width?: number;
}

/** A figure of the dashboard: its chart (if any), its table, and a CSV download of the table. */
function Section<T extends object>(props: {
  title: string;
  subTitle?: string;
  testId: string;
  fileName: string;
  cols: Field<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  chart?: ReactNode;
  loading: boolean;
  empty: string;
}) {
  const columns: TableColumnsType<T> = props.cols.map((c, i) => ({
    key: String(i),
    title: c.title,
    align: c.align,
    width: c.width,
    render: (_: unknown, row: T) => (c.show ? c.show(row) : c.csv(row)),
  }));
  const download = () =>
    downloadCsv(
      props.fileName,
      csvText(
        props.cols.map((c) => c.title),
        props.rows.map((r) => props.cols.map((c) => c.csv(r))),
      ),
    );
  return (
    <ProCard
      title={props.title}
      subTitle={props.subTitle}
      bordered
      data-testid={props.testId}
      extra={
        <Button
          icon={<DownloadOutlined />}
          size="small"
          onClick={download}
          disabled={props.rows.length === 0}
          data-testid={`${props.testId}-csv`}
        >
          导出 CSV
        </Button>
      }
    >
      {props.chart && props.rows.length > 0 ? <div style={{ marginBottom: 16 }}>{props.chart}</div> : null}
      <Table<T>
        rowKey={props.rowKey}
        size="small"
        loading={props.loading}
        columns={columns}
        dataSource={props.rows}
        pagination={props.rows.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
        locale={{ emptyText: props.empty }}
      />
    </ProCard>
  );
}

const summaryCols: Field<DashboardSummary>[] = [
  { title: '时段', csv: (s) => WINDOW_NAMES[s.days], width: 110 },
  { title: '日期（北京时间）', csv: (s) => (s.from === s.to ? s.to : `${s.from} 至 ${s.to}`) },
  { title: '营收（元）', csv: (s) => yuanNumber(s.revenue), show: (s) => yuan(s.revenue), align: 'right' },
  { title: '支付订单', csv: (s) => s.paidOrders, align: 'right' },
  { title: '付费读者', csv: (s) => s.payingReaders, align: 'right' },
  { title: '新读者', csv: (s) => s.newReaders, align: 'right' },
  { title: '首次付费', csv: (s) => s.firstPayers, align: 'right' },
  { title: 'ARPPU（元）', csv: (s) => yuanNumber(s.arppu), show: (s) => yuan(s.arppu), align: 'right' },
  { title: '退款笔数', csv: (s) => s.refunds, align: 'right' },
  {
    title: '退款（元）',
    csv: (s) => yuanNumber(s.refundedAmount),
    show: (s) => yuan(s.refundedAmount),
    align: 'right',
  },
];

const trendCols: Field<DashboardDay>[] = [
  { title: '日期（北京时间）', csv: (d) => d.date },
  { title: '营收（元）', csv: (d) => yuanNumber(d.revenue), show: (d) => yuan(d.revenue), align: 'right' },
  {
    title: '退款（元）',
    csv: (d) => yuanNumber(d.refundedAmount),
    show: (d) => yuan(d.refundedAmount),
    align: 'right',
  },
  { title: '支付订单', csv: (d) => d.paidOrders, align: 'right' },
  { title: '新读者', csv: (d) => d.newReaders, align: 'right' },
];

const bookCols: Field<DashboardBook>[] = [
  { title: '作品', csv: (b) => b.title },
  { title: '书籍 ID', csv: (b) => b.bookId, align: 'right', width: 80 },
  { title: '消耗阅币', csv: (b) => b.coins, align: 'right' },
  { title: '在读读者', csv: (b) => b.readers, align: 'right' },
];

const chapterCols: Field<DashboardChapter>[] = [
  { title: '作品', csv: (c) => c.bookTitle },
  { title: '话', csv: (c) => c.number, align: 'right', width: 56 },
  { title: '章节', csv: (c) => c.title },
  { title: '章节 ID', csv: (c) => c.chapterId, align: 'right', width: 80 },
  { title: '消耗阅币', csv: (c) => c.coins, align: 'right' },
  { title: '解锁次数', csv: (c) => c.unlocks, align: 'right' },
];

const funnelCols: Field<DashboardFunnelRow>[] = [
  { title: '推广渠道', csv: (f) => branchLabel(f.branchId, f.branchName) },
  { title: '首次访问', csv: (f) => f.firstVisits, align: 'right' },
  { title: '注册账号', csv: (f) => f.accounts, align: 'right' },
  { title: '注册率', csv: (f) => percent(f.accounts, f.firstVisits), align: 'right' },
  { title: '付费读者', csv: (f) => f.payers, align: 'right' },
  { title: '付费率', csv: (f) => percent(f.payers, f.firstVisits), align: 'right' },
  {
    title: '30 天营收（元）',
    csv: (f) => yuanNumber(f.revenue),
    show: (f) => yuan(f.revenue),
    align: 'right',
  },
];

const unlockCols: Field<DashboardUnlockRow>[] = [
  { title: '作品', csv: (u) => u.bookTitle },
  { title: '推广渠道', csv: (u) => branchLabel(u.branchId, u.branchName) },
  { title: '阅币购买', csv: (u) => u.coinsUnlocks, align: 'right' },
  { title: '消耗阅币', csv: (u) => u.coins, align: 'right' },
  { title: '等待免费', csv: (u) => u.waitFreeUnlocks, align: 'right' },
  { title: '阅读券', csv: (u) => u.ticketUnlocks, align: 'right' },
  { title: '限免（0 阅币购买）', csv: (u) => u.freeUnlocks, align: 'right' },
];

/**
 * The first screen of owners and finance (数据概览): the day and the 7 and 30 China days ending with it, the
 * revenue trend, the top books and chapters, each promotion branch's funnel and the unlocks by how. Every figure
 * has its table and a CSV download (UTF-8 with a byte order mark, so Excel reads the Chinese).
 */
export default function DashboardPage() {
  const [date, setDate] = useState<string>(chinaToday());
  const [days, setDays] = useState<DashboardWindow>(7);
  const [data, setData] = useState<Dashboard>();
  const [loading, setLoading] = useState(true);

  const load = useCallback(async (d: string, w: DashboardWindow) => {
    setLoading(true);
    const answer = await shown(call(adminRoutes.dashboard, { query: { date: d, days: w } }));
    if (answer) setData(answer);
    setLoading(false);
  }, []);

  useEffect(() => {
    load(date, days);
  }, [load, date, days]);

  const today = data?.summaries.find((s) => s.days === 1);
  const window = data?.summaries.find((s) => s.days === days);
  const windowText = window ? `${window.from} 至 ${window.to}（北京时间）` : undefined;
  /** The half-width cards' subtitle: the window's name (its dates in full on the wide cards). */
  const windowName = window ? WINDOW_NAMES[days] : undefined;
  const file = (name: string, withWindow = true) =>
    `${name}-${data?.date ?? date}${withWindow ? `-${days}天` : ''}.csv`;

  const trendSeries = (data?.trend ?? []).flatMap((d) => [
    { date: d.date.slice(5), series: '营收', yuan: yuanNumber(d.revenue) },
    { date: d.date.slice(5), series: '退款', yuan: yuanNumber(d.refundedAmount) },
  ]);
  const funnelSeries = (data?.funnel ?? []).slice(0, 10).flatMap((f) => {
    const branch = branchLabel(f.branchId, f.branchName);
    return [
      { branch, step: '首次访问', count: f.firstVisits },
      { branch, step: '注册账号', count: f.accounts },
      { branch, step: '付费读者', count: f.payers },
    ];
  });

  return (
    <PageContainer
      title="数据概览"
      extra={
        <Space wrap>
          <span>日期（北京时间）</span>
          <DatePicker
            data-testid="dashboard-date"
            value={dayjs(date, DAY)}
            allowClear={false}
            disabledDate={(day: Dayjs) => day.format(DAY) > chinaToday()}
            onChange={(value) => {
              if (value) setDate(value.format(DAY));
            }}
          />
          <Segmented<DashboardWindow>
            data-testid="dashboard-window"
            value={days}
            onChange={setDays}
            options={[
              { label: '当天', value: 1 },
              { label: '7 天', value: 7 },
              { label: '30 天', value: 30 },
            ]}
          />
        </Space>
      }
    >
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <StatisticCard.Group
          direction="row"
          loading={loading && !data}
          title={`当天（${data?.date ?? date}，北京时间）`}
          data-testid="dashboard-today"
        >
          <StatisticCard statistic={{ title: '营收', value: yuan(today?.revenue ?? 0) }} />
          <StatisticCard statistic={{ title: '支付订单', value: today?.paidOrders ?? 0 }} />
          <StatisticCard statistic={{ title: '付费读者', value: today?.payingReaders ?? 0 }} />
          <StatisticCard statistic={{ title: '新读者', value: today?.newReaders ?? 0 }} />
          <StatisticCard statistic={{ title: '首次付费', value: today?.firstPayers ?? 0 }} />
          <StatisticCard statistic={{ title: 'ARPPU', value: yuan(today?.arppu ?? 0) }} />
          <StatisticCard statistic={{ title: '退款', value: yuan(today?.refundedAmount ?? 0) }} />
        </StatisticCard.Group>

        <Section
          title="核心指标"
          subTitle="营收按支付时间，退款按发起时间（只计成功的退款）；ARPPU = 营收 ÷ 付费读者"
          testId="dashboard-summary"
          fileName={file('核心指标', false)}
          cols={summaryCols}
          rows={data?.summaries ?? []}
          rowKey={(s) => s.days}
          loading={loading}
          empty="暂无数据"
        />

        <Section
          title="营收趋势"
          subTitle="最近 30 天，每天（北京时间）"
          testId="dashboard-trend"
          fileName={file('营收趋势', false)}
          cols={trendCols}
          rows={data?.trend ?? []}
          rowKey={(d) => d.date}
          loading={loading}
          empty="暂无数据"
          chart={
            <Line
              data={trendSeries}
              xField="date"
              yField="yuan"
              colorField="series"
              height={260}
              axis={{ y: { title: '元' } }}
            />
          }
        />

        <Row gutter={16}>
          <Col span={12}>
            <Section
              title="热门作品 · 按消耗阅币"
              subTitle={windowName}
              testId="dashboard-books-coins"
              fileName={file('热门作品-阅币')}
              cols={bookCols}
              rows={data?.topBooksByCoins ?? []}
              rowKey={(b) => b.bookId}
              loading={loading}
              empty="这段时间没有阅币消耗"
              chart={
                <Bar
                  data={data?.topBooksByCoins ?? []}
                  xField="title"
                  yField="coins"
                  height={240}
                  style={{ maxWidth: 28 }}
                />
              }
            />
          </Col>
          <Col span={12}>
            <Section
              title="热门作品 · 按在读读者"
              subTitle={windowName}
              testId="dashboard-books-readers"
              fileName={file('热门作品-在读')}
              cols={bookCols}
              rows={data?.topBooksByReaders ?? []}
              rowKey={(b) => b.bookId}
              loading={loading}
              empty="这段时间没有阅读记录"
              chart={
                <Bar
                  data={data?.topBooksByReaders ?? []}
                  xField="title"
                  yField="readers"
                  height={240}
                  style={{ maxWidth: 28 }}
                />
              }
            />
          </Col>
        </Row>

        <Row gutter={16}>
          <Col span={12}>
            <Section
              title="热门章节 · 按消耗阅币"
              subTitle={windowName}
              testId="dashboard-chapters-coins"
              fileName={file('热门章节-阅币')}
              cols={chapterCols}
              rows={data?.topChaptersByCoins ?? []}
              rowKey={(c) => c.chapterId}
              loading={loading}
              empty="这段时间没有阅币消耗"
            />
          </Col>
          <Col span={12}>
            <Section
              title="热门章节 · 按解锁次数"
              subTitle={windowName}
              testId="dashboard-chapters-unlocks"
              fileName={file('热门章节-解锁')}
              cols={chapterCols}
              rows={data?.topChaptersByUnlocks ?? []}
              rowKey={(c) => c.chapterId}
              loading={loading}
              empty="这段时间没有解锁"
            />
          </Col>
        </Row>

        <Section
          title="推广渠道转化"
          subTitle={`${windowText ?? ''}首次访问的读者，在首次访问后 30 天内注册、付费和带来的营收`}
          testId="dashboard-funnel"
          fileName={file('渠道转化')}
          cols={funnelCols}
          rows={data?.funnel ?? []}
          rowKey={(f) => f.branchId}
          loading={loading}
          empty="这段时间没有首次访问"
          chart={
            <Column
              data={funnelSeries}
              xField="branch"
              yField="count"
              colorField="step"
              group
              height={260}
              style={{ maxWidth: 40 }}
            />
          }
        />

        <Section
          title="按解锁方式"
          subTitle={`${windowText ?? ''}每部作品、每个推广渠道（读者所属）的章节解锁`}
          testId="dashboard-unlocks"
          fileName={file('按解锁方式')}
          cols={unlockCols}
          rows={data?.byUnlock ?? []}
          rowKey={(u) => `${u.bookId}:${u.branchId}`}
          loading={loading}
          empty="这段时间没有解锁"
        />
        <RetentionSection
          retention={data?.retention}
          windowText={windowText}
          fileName={file('读者留存')}
          loading={loading}
        />
        <Typography.Text type="secondary">
          所有日期与时间均为北京时间。营收单位为元；阅币为读者在章节上消耗的阅币。
        </Typography.Text>
      </Space>
    </PageContainer>
  );
}
