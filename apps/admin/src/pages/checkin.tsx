import { PageContainer, ProCard } from '@ant-design/pro-components';
import type { CheckinDayCount, CheckinRewardDay } from '@yueman/contract/admin';
import {
  Alert,
  App,
  Button,
  Input,
  InputNumber,
  Select,
  Skeleton,
  Table,
  type TableColumnsType,
  Typography,
} from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { adminRoutes, call, shown } from '../api.ts';
import { inChinaTime } from '../format.ts';
import { READER_VALUE_KEEPERS, useCan } from '../session.tsx';

// 每日签到: the seven days' rewards (owners and finance save them, the whole week at once; support reads them), and
// how many readers checked in on each China day.

/** A day's row as the table edits it: the scope as the book ids typed, blank for any book. */
type Row = CheckinRewardDay & { scopeText: string };

const rowOf = (d: CheckinRewardDay): Row => ({ ...d, scopeText: d.scope?.join(', ') ?? '' });

/** What the day pays, in words ("5 阅币 + 1 张阅读券（7 天有效）", "无奖励"). */
export function rewardWords(d: CheckinRewardDay) {
  const parts: string[] = [];
  if (d.coins > 0) parts.push(`${d.coins} 阅币`);
  if (d.tickets > 0)
    parts.push(
      `${d.tickets} 张${d.ticketKind === 'presale' ? '抢先券' : '阅读券'}（${d.ticketDays} 天有效${d.scope ? '，限指定书籍' : ''}）`,
    );
  return parts.length > 0 ? parts.join(' + ') : '无奖励';
}

export default function CheckinPage() {
  const { message } = App.useApp();
  const canWrite = useCan(READER_VALUE_KEEPERS);
  const [rows, setRows] = useState<Row[]>();
  const [claims, setClaims] = useState<CheckinDayCount[]>();
  const [saving, setSaving] = useState(false);

  const load = useCallback(async () => {
    const [week, perDay] = await Promise.all([
      shown(call(adminRoutes.checkinRewards, {})),
      shown(call(adminRoutes.checkinClaims, { query: { days: 14 } })),
    ]);
    if (week) setRows(week.days.map(rowOf));
    if (perDay) setClaims(perDay.list);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const edit = (day: number, change: Partial<Row>) =>
    setRows((all) => all?.map((r) => (r.day === day ? { ...r, ...change } : r)));

  const save = async () => {
    if (!rows) return;
    const days: CheckinRewardDay[] = [];
    for (const { scopeText, ...r } of rows) {
      const ids = scopeText
        .split(/[\s,，、]+/)
        .filter(Boolean)
        .map(Number);
      if (ids.some((n) => !Number.isInteger(n) || n < 1)) {
        message.error(`第 ${r.day} 天：适用书籍请填写书籍 ID，用逗号分隔；留空为全部书籍`);
        return;
      }
      days.push({ ...r, scope: ids.length > 0 ? ids : null });
    }
    setSaving(true);
    const saved = await shown(call(adminRoutes.setCheckinRewards, { body: { days } }));
    setSaving(false);
    if (!saved) return;
    setRows(saved.days.map(rowOf));
    message.success('签到奖励已保存');
  };

  const whole = (min: number, max: number) => ({ min, max, precision: 0, disabled: !canWrite });
  const rewardColumns: TableColumnsType<Row> = [
    { title: '连续签到', dataIndex: 'day', width: 100, render: (day: number) => `第 ${day} 天` },
    {
      title: '阅币',
      key: 'coins',
      width: 120,
      render: (_, r) => (
        <InputNumber
          {...whole(0, 1000)}
          aria-label={`第${r.day}天阅币`}
          value={r.coins}
          onChange={(v) => edit(r.day, { coins: v ?? 0 })}
        />
      ),
    },
    {
      title: '阅读券（张）',
      key: 'tickets',
      width: 120,
      render: (_, r) => (
        <InputNumber
          {...whole(0, 10)}
          aria-label={`第${r.day}天阅读券`}
          value={r.tickets}
          onChange={(v) => edit(r.day, { tickets: v ?? 0 })}
        />
      ),
    },
    {
      title: '券种类',
      key: 'kind',
      width: 130,
      render: (_, r) => (
        <Select
          disabled={!canWrite || r.tickets === 0}
          style={{ width: 110 }}
          value={r.ticketKind}
          onChange={(v) => edit(r.day, { ticketKind: v })}
          options={[
            { value: 'read', label: '阅读券' },
            { value: 'presale', label: '抢先券' },
          ]}
        />
      ),
    },
    {
      title: '有效天数',
      key: 'ticketDays',
      width: 120,
      render: (_, r) => (
        <InputNumber
          {...whole(1, 365)}
          disabled={!canWrite || r.tickets === 0}
          value={r.ticketDays}
          onChange={(v) => edit(r.day, { ticketDays: v ?? 1 })}
        />
      ),
    },
    {
      title: '适用书籍',
      key: 'scope',
      render: (_, r) => (
        <Input
          disabled={!canWrite || r.tickets === 0}
          placeholder="留空为全部书籍；或填书籍 ID，逗号分隔"
          value={r.scopeText}
          onChange={(e) => edit(r.day, { scopeText: e.target.value })}
        />
      ),
    },
    { title: '读者看到', key: 'words', render: (_, r) => rewardWords(r) },
  ];

  const claimColumns: TableColumnsType<CheckinDayCount> = [
    { title: inChinaTime('日期'), dataIndex: 'day' },
    { title: '签到人数', dataIndex: 'claims', align: 'right' },
    { title: '其中首日（新开始连续签到）', dataIndex: 'firstDays', align: 'right' },
    { title: '发放阅币', dataIndex: 'coins', align: 'right' },
    { title: '发放阅读券（张）', dataIndex: 'tickets', align: 'right' },
  ];

  return (
    <PageContainer title="每日签到" content="读者每个北京时间自然日可签到一次；断签一天后从第 1 天重新开始。">
      <ProCard
        title="签到奖励"
        bordered
        extra={
          canWrite && (
            <Button type="primary" loading={saving} disabled={!rows} onClick={() => void save()}>
              保存奖励
            </Button>
          )
        }
        data-testid="checkin-rewards"
      >
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message="七天一个周期：连续签到第 8 天起按第 1 天的奖励重新开始。阅币和阅读券在签到时立即发放，每个读者每天只发一次。"
        />
        {rows ? (
          <Table<Row>
            rowKey="day"
            size="middle"
            pagination={false}
            columns={rewardColumns}
            dataSource={rows}
          />
        ) : (
          <Skeleton active />
        )}
        {!canWrite && <Typography.Text type="secondary">只有所有者和财务可以修改签到奖励。</Typography.Text>}
      </ProCard>
      <ProCard
        title={inChinaTime('最近 14 天签到')}
        bordered
        style={{ marginTop: 16 }}
        data-testid="checkin-claims"
      >
        <Table<CheckinDayCount>
          rowKey="day"
          size="small"
          pagination={false}
          loading={!claims}
          columns={claimColumns}
          dataSource={claims ?? []}
        />
      </ProCard>
    </PageContainer>
  );
}
