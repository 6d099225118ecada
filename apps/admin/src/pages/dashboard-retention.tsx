import { DownloadOutlined } from '@ant-design/icons';
import { Column } from '@ant-design/plots';
import { ProCard, type ProColumns, ProTable } from '@ant-design/pro-components';
import type { DashboardRetention, DashboardRetentionTotal, RetentionDay } from '@yueman/contract/admin';
import { Button, Typography } from 'antd';
import { csvText, downloadCsv } from '../csv.ts';
import { branchLabel } from '../format.ts';

/** One line of the table: a promotion branch, or the total of them all. */
type Line = DashboardRetentionTotal & { key: string; branch: string };

const DAYS = [
  { key: 'day1', name: '次日留存' },
  { key: 'day7', name: '7 日留存' },
  { key: 'day30', name: '30 日留存' },
] as const;

/** A day-N share; "—" while no reader's day N has come in the window (no cohort to divide by). */
const share = (d: RetentionDay) => (d.cohort === 0 ? '—' : `${((d.returned / d.cohort) * 100).toFixed(1)}%`);

const linesOf = (r: DashboardRetention | undefined): Line[] =>
  r
    ? [
        ...r.branches.map((b) => ({
          ...b,
          key: String(b.branchId),
          branch: branchLabel(b.branchId, b.branchName),
        })),
        { ...r.total, key: 'total', branch: '合计' },
      ]
    : [];

const columns: ProColumns<Line>[] = [
  {
    title: '推广渠道',
    dataIndex: 'branch',
    render: (_, l) => (l.key === 'total' ? <Typography.Text strong>合计</Typography.Text> : l.branch),
  },
  { title: '新读者（首日在时段内）', dataIndex: 'newReaders', align: 'right' },
  ...DAYS.map(
    ({ key, name }): ProColumns<Line> => ({
      title: name,
      key,
      align: 'right',
      render: (_, l) => (
        <span data-testid={`retention-${l.key}-${key}`}>
          {share(l[key])}
          {l[key].cohort > 0 ? (
            <Typography.Text type="secondary">{`（${l[key].returned} / ${l[key].cohort}）`}</Typography.Text>
          ) : null}
        </span>
      ),
    }),
  ),
];

/**
 * 读者留存 on the dashboard: per promotion branch and in total, the window's new readers and the day-1, day-7 and
 * day-30 retention of the readers whose day N fell in the window (seen again on exactly that China day), with the
 * counts behind each share, a chart of the shares and a CSV download.
 */
export function RetentionSection(props: {
  retention: DashboardRetention | undefined;
  windowText: string | undefined;
  fileName: string;
  loading: boolean;
}) {
  const lines = linesOf(props.retention);
  const series = [...lines.slice(0, 10), ...(lines.length > 11 ? lines.slice(-1) : [])].flatMap((l) =>
    DAYS.filter(({ key }) => l[key].cohort > 0).map(({ key, name }) => ({
      branch: l.branch,
      day: name,
      percent: Math.round((l[key].returned / l[key].cohort) * 1000) / 10,
    })),
  );
  const download = () =>
    downloadCsv(
      props.fileName,
      csvText(
        ['推广渠道', '新读者', ...DAYS.flatMap(({ name }) => [name, `${name}·应回访`, `${name}·已回访`])],
        lines.map((l) => [
          l.branch,
          l.newReaders,
          ...DAYS.flatMap(({ key }) => [share(l[key]), l[key].cohort, l[key].returned]),
        ]),
      ),
    );
  return (
    <ProCard
      title="读者留存"
      subTitle={`${props.windowText ?? ''}第 N 天（注册当天为第 0 天，北京时间）落在时段内、且已到来的读者中，当天再次来访的比例`}
      bordered
      data-testid="dashboard-retention"
      extra={
        <Button
          icon={<DownloadOutlined />}
          size="small"
          onClick={download}
          disabled={lines.length === 0}
          data-testid="dashboard-retention-csv"
        >
          导出 CSV
        </Button>
      }
    >
      {series.length > 0 ? (
        <div style={{ marginBottom: 16 }}>
          <Column
            data={series}
            xField="branch"
            yField="percent"
            colorField="day"
            group
            height={240}
            style={{ maxWidth: 40 }}
            axis={{ y: { title: '%' } }}
          />
        </div>
      ) : null}
      <ProTable<Line>
        rowKey="key"
        size="small"
        loading={props.loading}
        dataSource={lines}
        columns={columns}
        search={false}
        options={false}
        cardProps={{ bodyStyle: { padding: 0 } }}
        pagination={lines.length > 11 ? { pageSize: 11, showSizeChanger: false } : false}
        locale={{ emptyText: '这段时间没有新读者' }}
      />
    </ProCard>
  );
}
