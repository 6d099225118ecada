import {
  ModalForm,
  PageContainer,
  ProFormDigit,
  ProFormSwitch,
  ProFormText,
} from '@ant-design/pro-components';
import type { ConsoleChannel, ConsolePack, PacksAndChannels } from '@yueman/contract/admin';
import { App, Button, Card, Form, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { adminRoutes, call } from '../api.ts';
import { centsOf, chinaText, instantOfChinaText, yuan } from '../format.ts';
import { PACK_KEEPERS, useCan } from '../session.tsx';

// The recharge centre's packs and pay channels, with the first-recharge offer. Times are China time whatever the
// operator's own clock (format.ts): shown and typed as 'YYYY-MM-DD HH:mm'.
const CHINA_TIME_TEXT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;
const instantOf = instantOfChinaText;

const APP_TYPE_NAMES: Record<string, string> = {
  wap_browser: '手机浏览器',
  other: '其他',
  shell: '安卓客户端',
  ios_desk: 'iOS 桌面',
};
const discountText = (percent: number) => (percent >= 100 ? '无折扣' : `${percent / 10}折`);

type PackType = ConsolePack['type'];
/** Each pack type's card title, add button and days/coins column (a card pack's days are claimable China days). */
const TYPE_WORDS: Record<PackType, { title: string; add: string; count: string }> = {
  coin: { title: '阅币套餐', add: '新增阅币套餐', count: '阅币' },
  vip: { title: 'VIP 套餐', add: '新增 VIP 套餐', count: 'VIP 天数' },
  card: { title: '月卡套餐（每日领取，奖励在“月卡”页设置）', add: '新增月卡套餐', count: '月卡天数' },
};

interface PackForm {
  type: PackType;
  title: string;
  configDesc?: string;
  yuanAmount: number;
  itemCount: number;
  presentCount?: number;
  sort: number;
  isRecommend: boolean;
  active: boolean;
  initiatorCode: string;
  firstPayBonus?: number;
  firstPayStartsAt?: string;
  firstPayEndsAt?: string;
}

const formOf = (p: ConsolePack): PackForm => ({
  type: p.type,
  title: p.title,
  configDesc: p.configDesc,
  yuanAmount: p.amountLevel / 100,
  itemCount: p.itemCount,
  presentCount: p.presentCount,
  sort: p.sort,
  isRecommend: p.isRecommend,
  active: p.active,
  initiatorCode: p.initiatorCode,
  firstPayBonus: p.firstPayBonus,
  firstPayStartsAt: chinaText(p.firstPayStartsAt),
  firstPayEndsAt: chinaText(p.firstPayEndsAt),
});

function offerText(p: ConsolePack) {
  if (p.firstPayBonus === 0 || !p.firstPayStartsAt || !p.firstPayEndsAt)
    return <Typography.Text type="secondary">无</Typography.Text>;
  const now = Date.now();
  const state =
    now < new Date(p.firstPayStartsAt).getTime() ? (
      <Tag>未开始</Tag>
    ) : now < new Date(p.firstPayEndsAt).getTime() ? (
      <Tag color="green">进行中</Tag>
    ) : (
      <Tag>已结束</Tag>
    );
  return (
    <Space direction="vertical" size={0}>
      <span>
        加赠 {p.firstPayBonus} 阅币 {state}
      </span>
      <Typography.Text type="secondary">
        {chinaText(p.firstPayStartsAt)} 至 {chinaText(p.firstPayEndsAt)}（北京时间）
      </Typography.Text>
    </Space>
  );
}

export default function PacksPage() {
  const { message } = App.useApp();
  const canEdit = useCan(PACK_KEEPERS);
  const [data, setData] = useState<PacksAndChannels>();
  const [editing, setEditing] = useState<ConsolePack | PackType>();
  const [channel, setChannel] = useState<ConsoleChannel>();
  const [packForm] = Form.useForm<PackForm>();
  const [channelForm] = Form.useForm<ConsoleChannel>();

  const load = useCallback(async () => setData(await call(adminRoutes.packsAndChannels, {})), []);
  useEffect(() => {
    load().catch(() => undefined);
  }, [load]);

  const savePack = async (v: PackForm) => {
    const type = typeof editing === 'object' ? editing.type : (editing ?? 'coin');
    const body = {
      amountLevel: centsOf(v.yuanAmount),
      itemCount: v.itemCount,
      presentCount: type === 'coin' ? (v.presentCount ?? 0) : 0,
      title: v.title,
      configDesc: v.configDesc ?? '',
      isRecommend: v.isRecommend,
      initiatorCode: v.initiatorCode,
      sort: v.sort,
      active: v.active,
      firstPayBonus: v.firstPayBonus ?? 0,
      firstPayStartsAt: instantOf(v.firstPayStartsAt),
      firstPayEndsAt: instantOf(v.firstPayEndsAt),
    };
    if (typeof editing === 'object') {
      await call(adminRoutes.editPack, { params: { id: editing.id }, body }, { form: packForm });
    } else {
      await call(adminRoutes.addPack, { body: { type, ...body } }, { form: packForm });
    }
    message.success('已保存，新订单生效（已下的订单按下单时的价格和阅币）');
    setEditing(undefined);
    await load();
    return true;
  };

  const saveChannel = async (v: ConsoleChannel) => {
    if (!channel) return false;
    await call(
      adminRoutes.editChannel,
      {
        params: { code: channel.subTypeCode },
        body: {
          active: v.active,
          discountPercent: v.discountPercent,
          initiatorCode: v.initiatorCode,
          sort: v.sort,
        },
      },
      { form: channelForm },
    );
    message.success('已保存，新订单生效');
    setChannel(undefined);
    await load();
    return true;
  };

  const packColumns = (type: PackType): TableColumnsType<ConsolePack> => [
    { title: '顺序', dataIndex: 'sort', width: 64, align: 'right' },
    {
      title: '套餐',
      key: 'title',
      render: (_, p) => (
        <Space direction="vertical" size={0}>
          <Space size={4}>
            <Typography.Text strong>{p.title}</Typography.Text>
            {p.isRecommend && <Tag color="orange">推荐</Tag>}
            {p.isDefault && <Tag color="blue">默认选中</Tag>}
          </Space>
          <Typography.Text type="secondary">{p.configDesc}</Typography.Text>
        </Space>
      ),
    },
    { title: '价格', key: 'price', align: 'right', render: (_, p) => yuan(p.amountLevel) },
    ...(type === 'coin'
      ? [
          { title: '阅币', dataIndex: 'itemCount', align: 'right' as const },
          { title: '赠送', dataIndex: 'presentCount', align: 'right' as const },
        ]
      : [{ title: TYPE_WORDS[type].count, dataIndex: 'itemCount', align: 'right' as const }]),
    { title: '首充加赠', key: 'offer', render: (_, p) => offerText(p) },
    {
      title: '推广渠道',
      dataIndex: 'initiatorCode',
      render: (c: string) => (c === 'default' ? '全部（默认）' : c),
    },
    {
      title: '状态',
      key: 'active',
      render: (_, p) => (p.active ? <Tag color="green">上架</Tag> : <Tag>下架</Tag>),
    },
    ...(canEdit
      ? [
          {
            title: '操作',
            key: 'edit',
            render: (_: unknown, p: ConsolePack) => (
              <Button type="link" onClick={() => setEditing(p)} aria-label={`编辑 ${p.title}`}>
                编辑
              </Button>
            ),
          },
        ]
      : []),
  ];

  const channelColumns: TableColumnsType<ConsoleChannel> = [
    { title: '顺序', dataIndex: 'sort', width: 64, align: 'right' },
    {
      title: '渠道',
      key: 'name',
      render: (_, c) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong>{c.subTypeDesc}</Typography.Text>
          <Typography.Text type="secondary">
            {c.subTypeCode} · {c.gateway === 'sandbox' ? '沙箱' : '正式商户'} ·{' '}
            {c.appTypes.map((a) => APP_TYPE_NAMES[a] ?? a).join('、')}
          </Typography.Text>
        </Space>
      ),
    },
    { title: '折扣', key: 'discount', render: (_, c) => discountText(c.discountPercent) },
    {
      title: '推广渠道',
      dataIndex: 'initiatorCode',
      render: (c: string) => (c === 'default' ? '全部（默认）' : c),
    },
    {
      title: '状态',
      key: 'active',
      render: (_, c) => (c.active ? <Tag color="green">开启</Tag> : <Tag>关闭</Tag>),
    },
    ...(canEdit
      ? [
          {
            title: '操作',
            key: 'edit',
            render: (_: unknown, c: ConsoleChannel) => (
              <Button
                type="link"
                onClick={() => setChannel(c)}
                aria-label={`编辑 ${c.subTypeDesc} ${c.subTypeCode}`}
              >
                编辑
              </Button>
            ),
          },
        ]
      : []),
  ];

  const packType = typeof editing === 'object' ? editing.type : editing;
  const packs = (type: PackType) => (data?.packs ?? []).filter((p) => p.type === type);

  return (
    <PageContainer
      title="套餐与支付"
      content="修改只影响新订单：已下的订单按下单时的价格、阅币、赠送和天数支付和到账。所有时间为北京时间。"
    >
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        {(['coin', 'vip', 'card'] as const).map((type) => (
          <Card
            key={type}
            title={TYPE_WORDS[type].title}
            extra={canEdit && <Button onClick={() => setEditing(type)}>{TYPE_WORDS[type].add}</Button>}
          >
            <Table<ConsolePack>
              rowKey="id"
              size="middle"
              pagination={false}
              loading={!data}
              columns={packColumns(type)}
              dataSource={packs(type)}
            />
          </Card>
        ))}
        <Card title="支付渠道">
          <Table<ConsoleChannel>
            rowKey="subTypeCode"
            size="middle"
            pagination={false}
            loading={!data}
            columns={channelColumns}
            dataSource={data?.channels ?? []}
          />
        </Card>
      </Space>

      <ModalForm<PackForm>
        name="pack"
        title={
          typeof editing === 'object' ? `编辑套餐：${editing.title}` : TYPE_WORDS[packType ?? 'coin'].add
        }
        open={editing !== undefined}
        form={packForm}
        width={640}
        grid
        initialValues={
          typeof editing === 'object'
            ? formOf(editing)
            : {
                sort: 100,
                isRecommend: false,
                active: true,
                initiatorCode: 'default',
                presentCount: 0,
                firstPayBonus: 0,
                // A monthly card runs 30 China days unless the operator says otherwise.
                ...(packType === 'card' ? { itemCount: 30 } : {}),
              }
        }
        modalProps={{ destroyOnHidden: true, okText: '保存', onCancel: () => setEditing(undefined) }}
        onOpenChange={(o) => !o && setEditing(undefined)}
        onFinish={savePack}
      >
        <ProFormText
          name="title"
          label="名称"
          colProps={{ span: 12 }}
          rules={[{ required: true, max: 40 }]}
        />
        <ProFormText
          name="configDesc"
          label="说明"
          colProps={{ span: 12 }}
          tooltip="读者在套餐上看到的文字：改了价格或赠送，请一并改这里"
          rules={[{ max: 100 }]}
        />
        <ProFormDigit
          name="yuanAmount"
          label="价格（元）"
          colProps={{ span: 8 }}
          min={0.01}
          fieldProps={{ precision: 2 }}
          rules={[{ required: true }]}
        />
        <ProFormDigit
          name="itemCount"
          label={TYPE_WORDS[packType ?? 'coin'].count}
          colProps={{ span: 8 }}
          min={1}
          fieldProps={{ precision: 0 }}
          rules={[{ required: true }]}
        />
        {packType === 'coin' && (
          <ProFormDigit
            name="presentCount"
            label="赠送阅币"
            colProps={{ span: 8 }}
            min={0}
            fieldProps={{ precision: 0 }}
          />
        )}
        <ProFormDigit
          name="sort"
          label="顺序（小的在前）"
          colProps={{ span: 8 }}
          min={0}
          fieldProps={{ precision: 0 }}
        />
        <ProFormText
          name="initiatorCode"
          label="推广渠道代码"
          colProps={{ span: 8 }}
          tooltip="default 为全部渠道"
          rules={[{ required: true, pattern: /^[A-Za-z0-9_-]+$/, message: '字母、数字、下划线或短横线' }]}
        />
        <ProFormSwitch name="isRecommend" label="推荐" colProps={{ span: 4 }} />
        <ProFormSwitch name="active" label="上架" colProps={{ span: 4 }} />
        <ProFormDigit
          name="firstPayBonus"
          label="首充加赠阅币（0 为不加赠）"
          colProps={{ span: 8 }}
          min={0}
          fieldProps={{ precision: 0 }}
        />
        <ProFormText
          name="firstPayStartsAt"
          label="开始（北京时间）"
          placeholder="2026-12-01 00:00"
          colProps={{ span: 8 }}
          rules={[{ pattern: CHINA_TIME_TEXT, message: '格式：2026-12-01 00:00' }]}
        />
        <ProFormText
          name="firstPayEndsAt"
          label="结束（北京时间）"
          placeholder="2026-12-31 23:59"
          colProps={{ span: 8 }}
          rules={[{ pattern: CHINA_TIME_TEXT, message: '格式：2026-12-31 23:59' }]}
        />
      </ModalForm>

      <ModalForm<ConsoleChannel>
        name="channel"
        title={channel ? `编辑支付渠道：${channel.subTypeDesc}（${channel.subTypeCode}）` : ''}
        open={channel !== undefined}
        form={channelForm}
        width={520}
        initialValues={channel}
        modalProps={{ destroyOnHidden: true, okText: '保存', onCancel: () => setChannel(undefined) }}
        onOpenChange={(o) => !o && setChannel(undefined)}
        onFinish={saveChannel}
      >
        <ProFormSwitch name="active" label="开启" />
        <ProFormDigit
          name="discountPercent"
          label="实付比例（%，95 即 9.5 折，100 为无折扣）"
          min={1}
          max={100}
          fieldProps={{ precision: 0 }}
          rules={[{ required: true }]}
        />
        <ProFormText
          name="initiatorCode"
          label="推广渠道代码（default 为全部渠道）"
          rules={[{ required: true, pattern: /^[A-Za-z0-9_-]+$/, message: '字母、数字、下划线或短横线' }]}
        />
        <ProFormDigit name="sort" label="顺序（小的在前）" min={0} fieldProps={{ precision: 0 }} />
      </ModalForm>
    </PageContainer>
  );
}
