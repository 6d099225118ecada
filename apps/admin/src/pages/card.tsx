import { PageContainer, ProCard } from '@ant-design/pro-components';
import type { CardDayCount, CardReward } from '@yueman/contract/admin';
import {
  Alert,
  App,
  Button,
  Form,
  Input,
  InputNumber,
  Select,
  Skeleton,
  Space,
  Statistic,
  Table,
  type TableColumnsType,
  Typography,
} from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { adminRoutes, call, shown } from '../api.ts';
import { inChinaTime } from '../format.ts';
import { PACK_KEEPERS, useCan } from '../session.tsx';
import { rewardWords } from './checkin.tsx';

// 月卡: the daily reward a card's claim pays (owners and finance save it, as they edit packs; support reads it), the
// cards running today, and how many readers claimed on each China day. The card packs themselves are on 套餐与支付.

/** The reward as the form edits it: the scope as the book ids typed, blank for any book. */
type Fields = Omit<CardReward, 'scope'> & { scopeText: string };

const fieldsOf = (r: CardReward): Fields => ({ ...r, scopeText: r.scope?.join(', ') ?? '' });

export default function CardPage() {
  const { message } = App.useApp();
  const canWrite = useCan(PACK_KEEPERS);
  const [fields, setFields] = useState<Fields>();
  const [claims, setClaims] = useState<{ running: number; list: CardDayCount[] }>();
  const [saving, setSaving] = useState(false);

  const load = useCallback(async () => {
    const [reward, perDay] = await Promise.all([
      shown(call(adminRoutes.cardReward, {})),
      shown(call(adminRoutes.cardClaims, { query: { days: 14 } })),
    ]);
    if (reward) setFields(fieldsOf(reward));
    if (perDay) setClaims(perDay);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const edit = (change: Partial<Fields>) => setFields((f) => f && { ...f, ...change });

  const save = async () => {
    if (!fields) return;
    const { scopeText, ...rest } = fields;
    const ids = scopeText
      .split(/[\s,，、]+/)
      .filter(Boolean)
      .map(Number);
    if (ids.some((n) => !Number.isInteger(n) || n < 1)) {
      message.error('适用书籍请填写书籍 ID，用逗号分隔；留空为全部书籍');
      return;
    }
    setSaving(true);
    const saved = await shown(
      call(adminRoutes.setCardReward, { body: { ...rest, scope: ids.length > 0 ? ids : null } }),
    );
    setSaving(false);
    if (!saved) return;
    setFields(fieldsOf(saved));
    message.success('月卡奖励已保存');
  };

  const whole = (min: number, max: number) => ({ min, max, precision: 0, disabled: !canWrite });
  const noTickets = !canWrite || fields?.tickets === 0;

  const claimColumns: TableColumnsType<CardDayCount> = [
    { title: inChinaTime('日期'), dataIndex: 'day' },
    { title: '领取人数', dataIndex: 'claims', align: 'right' },
    { title: '发放阅币', dataIndex: 'coins', align: 'right' },
    { title: '发放阅读券（张）', dataIndex: 'tickets', align: 'right' },
  ];

  return (
    <PageContainer
      title="月卡"
      content="读者购买月卡后，自购买当天起每个北京时间自然日可领取一次下面的奖励；续购天数累加。月卡的价格、天数和上下架在“套餐与支付”中设置。"
    >
      <ProCard
        title="每日奖励"
        bordered
        extra={
          canWrite && (
            <Button type="primary" loading={saving} disabled={!fields} onClick={() => void save()}>
              保存奖励
            </Button>
          )
        }
        data-testid="card-reward"
      >
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="修改只影响此后的领取；已领取的奖励不变。当天未领取的奖励不补发。"
        />
        {fields ? (
          <Form layout="vertical">
            <Space size="large" wrap align="start">
              <Form.Item label="阅币">
                <InputNumber
                  {...whole(0, 1000)}
                  aria-label="每日阅币"
                  value={fields.coins}
                  onChange={(v) => edit({ coins: v ?? 0 })}
                />
              </Form.Item>
              <Form.Item label="阅读券（张）">
                <InputNumber
                  {...whole(0, 10)}
                  aria-label="每日阅读券"
                  value={fields.tickets}
                  onChange={(v) => edit({ tickets: v ?? 0 })}
                />
              </Form.Item>
              <Form.Item label="券种类">
                <Select
                  disabled={noTickets}
                  style={{ width: 110 }}
                  value={fields.ticketKind}
                  onChange={(v) => edit({ ticketKind: v })}
                  options={[
                    { value: 'read', label: '阅读券' },
                    { value: 'presale', label: '抢先券' },
                  ]}
                />
              </Form.Item>
              <Form.Item label="有效天数">
                <InputNumber
                  {...whole(1, 365)}
                  disabled={noTickets}
                  value={fields.ticketDays}
                  onChange={(v) => edit({ ticketDays: v ?? 1 })}
                />
              </Form.Item>
              <Form.Item label="适用书籍">
                <Input
                  style={{ width: 320 }}
                  disabled={noTickets}
                  placeholder="留空为全部书籍；或填书籍 ID，逗号分隔"
                  value={fields.scopeText}
                  onChange={(e) => edit({ scopeText: e.target.value })}
                />
              </Form.Item>
            </Space>
            <Typography.Paragraph>
              读者看到：每日可领{' '}
              <b>{rewardWords({ ...fields, day: 1, scope: fields.scopeText ? [] : null })}</b>
            </Typography.Paragraph>
          </Form>
        ) : (
          <Skeleton active />
        )}
        {!canWrite && <Typography.Text type="secondary">只有所有者和财务可以修改月卡奖励。</Typography.Text>}
      </ProCard>
      <ProCard
        title={inChinaTime('最近 14 天领取')}
        bordered
        style={{ marginTop: 16 }}
        data-testid="card-claims"
        extra={<Statistic title="今天生效的月卡" value={claims?.running ?? '—'} />}
      >
        <Table<CardDayCount>
          rowKey="day"
          size="small"
          pagination={false}
          loading={!claims}
          columns={claimColumns}
          dataSource={claims?.list ?? []}
        />
      </ProCard>
    </PageContainer>
  );
}
