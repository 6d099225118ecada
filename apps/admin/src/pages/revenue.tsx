import { PageContainer, ProCard, StatisticCard } from '@ant-design/pro-components';
import type { Revenue, RevenueRow, RevenueSums } from '@yueman/contract/admin';
import { DatePicker, Space, Table, type TableColumnsType, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import { adminRoutes, call, shown } from '../api.ts';
import { chinaToday, yuan } from '../format.ts';

/** The server answers at most 92 days (both ends included). */
const MAX_DAYS = 92;
const DAY = 'YYYY-MM-DD';

// Days are China's: today is China's today, whatever the browser's zone.
type Range = [Dayjs, Dayjs];
const lastDays = (n: number): Range => [
  chinaToday()
    .subtract(n - 1, 'day')
    .startOf('day'),
  chinaToday().startOf('day'),
];

const PRESETS: { label: string; value: Range }[] = [
  { label: '今天', value: lastDays(1) },
  { label: '最近 7 天', value: lastDays(7) },
  { label: '最近 30 天', value: lastDays(30) },
  { label: '本月', value: [chinaToday().startOf('month'), chinaToday().startOf('day')] },
  {
    label: '上月',
    value: [
      chinaToday().subtract(1, 'month').startOf('month'),
      chinaToday().subtract(1, 'month').endOf('month'),
    ],
  },
  { label: '最近 92 天', value: lastDays(MAX_DAYS) },
];

const net = (s: RevenueSums) => s.paidAmount - s.refundedAmount;
const money = (cents: number) =>
  cents === 0 ? <Typography.Text type="secondary">{yuan(0)}</Typography.Text> : yuan(cents);

/** The three sums of one purpose (or of all) as a column group. */
function group(title: string, key: 'coin' | 'vip' | 'card' | 'all'): TableColumnsType<RevenueRow>[number] {
  const children: TableColumnsType<RevenueRow> = [
    { title: '支付订单', key: `${key}-count`, align: 'right', width: 80, render: (_, r) => r[key].paidCount },
    {
      title: '实收',
      key: `${key}-paid`,
      align: 'right',
      render: (_, r) => money(r[key].paidAmount),
    },
    {
      title: '退款',
      key: `${key}-refunded`,
      align: 'right',
      render: (_, r) =>
        r[key].refundedAmount > 0 ? (
          <Typography.Text type="danger">{yuan(r[key].refundedAmount)}</Typography.Text>
        ) : (
          money(0)
        ),
    },
  ];
  if (key === 'all') {
    children.push({
      title: '净收入',
      key: 'all-net',
      align: 'right',
      render: (_, r) => <Typography.Text strong>{yuan(net(r.all))}</Typography.Text>,
    });
  }
  return { title, key, children };
}

const columns: TableColumnsType<RevenueRow> = [
  {
    title: '推广渠道',
    key: 'branch',
    width: 180,
    render: (_, r) => (
      <Space direction="vertical" size={0}>
        <Typography.Text strong>{r.branchName || (r.branchId === -2 ? '默认' : '未命名')}</Typography.Text>
        <Typography.Text type="secondary">渠道 ID {r.branchId}</Typography.Text>
      </Space>
    ),
  },
  group('阅币充值', 'coin'),
  group('VIP', 'vip'),
  group('月卡', 'card'),
  group('合计', 'all'),
];

/**
 * Revenue per promotion branch over China dates: orders paid in the range and refunds made in it, by purpose,
 * with a total row. Amounts in yuan.
 */
export default function RevenuePage() {
  const [range, setRange] = useState<Range>(lastDays(7));
  const [revenue, setRevenue] = useState<Revenue>();
  const [loading, setLoading] = useState(true);

  const load = useCallback(async (r: Range) => {
    setLoading(true);
    const data = await shown(
      call(adminRoutes.revenue, { query: { from: r[0].format(DAY), to: r[1].format(DAY) } }),
    );
    if (data) setRevenue(data);
    setLoading(false);
  }, []);

  useEffect(() => {
    load(range);
  }, [load, range]);

  const total = revenue?.total;
  const cells = (s: RevenueSums, withNet: boolean) => [
    s.paidCount,
    yuan(s.paidAmount),
    yuan(s.refundedAmount),
    ...(withNet ? [yuan(net(s))] : []),
  ];

  return (
    <PageContainer
      title="营收"
      extra={
        <Space>
          <span>日期（北京时间）</span>
          <DatePicker.RangePicker
            data-testid="revenue-range"
            value={range}
            allowClear={false}
            presets={PRESETS}
            disabledDate={(day, info) =>
              day.isAfter(chinaToday(), 'day') ||
              (info.from
                ? Math.abs(day.startOf('day').diff(info.from.startOf('day'), 'day')) >= MAX_DAYS
                : false)
            }
            onChange={(value) => {
              if (value?.[0] && value[1]) setRange([value[0], value[1]]);
            }}
          />
        </Space>
      }
    >
      <StatisticCard.Group direction="row" loading={loading && !revenue} style={{ marginBottom: 16 }}>
        <StatisticCard statistic={{ title: '实收', value: yuan(total?.all.paidAmount ?? 0) }} />
        <StatisticCard statistic={{ title: '退款', value: yuan(total?.all.refundedAmount ?? 0) }} />
        <StatisticCard statistic={{ title: '净收入', value: yuan(total ? net(total.all) : 0) }} />
        <StatisticCard statistic={{ title: '支付订单', value: total?.all.paidCount ?? 0 }} />
      </StatisticCard.Group>
      <ProCard
        title="各推广渠道"
        subTitle={
          revenue
            ? `${revenue.from} 至 ${revenue.to}，共 ${revenue.days} 天；实收按支付时间，退款按发起时间（只计成功的退款）`
            : undefined
        }
        bordered
      >
        <Table<RevenueRow>
          rowKey="branchId"
          size="middle"
          bordered
          loading={loading}
          columns={columns}
          dataSource={revenue?.rows ?? []}
          pagination={false}
          locale={{ emptyText: '这段时间没有支付或退款' }}
          data-testid="revenue-table"
          summary={() =>
            total && (revenue?.rows.length ?? 0) > 0 ? (
              <Table.Summary fixed>
                <Table.Summary.Row data-testid="revenue-total" style={{ background: '#fafafa' }}>
                  <Table.Summary.Cell index={0}>
                    <Typography.Text strong>合计</Typography.Text>
                  </Table.Summary.Cell>
                  {[
                    ...cells(total.coin, false),
                    ...cells(total.vip, false),
                    ...cells(total.card, false),
                    ...cells(total.all, true),
                  ].map((value, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the cells are fixed columns in order
                    <Table.Summary.Cell key={i} index={i + 1} align="right">
                      <Typography.Text strong>{value}</Typography.Text>
                    </Table.Summary.Cell>
                  ))}
                </Table.Summary.Row>
              </Table.Summary>
            ) : undefined
          }
        />
      </ProCard>
    </PageContainer>
  );
}
