import {
  ModalForm,
  PageContainer,
  ProCard,
  ProFormDigit,
  ProFormRadio,
  ProFormTextArea,
} from '@ant-design/pro-components';
import type { LedgerTransfer, OrderEvent, OrderStory, Refund } from '@yueman/contract/admin';
import {
  Alert,
  App,
  Button,
  Collapse,
  Descriptions,
  type DescriptionsProps,
  Empty,
  Form,
  Skeleton,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Timeline,
  Tooltip,
  Typography,
} from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { adminRoutes, call, shown } from '../api.ts';
import { branchLabel, centsOf, dateTime, inChinaTime, yuan } from '../format.ts';
import { REFUND_STATE_NAMES } from '../names.ts';
import { contentOf, StateTag } from '../order-parts.tsx';
import { REFUNDERS, useCan } from '../session.tsx';

/** Where an event came from, as operators read it (docs/payments.md, "The story of an order"). */
const SOURCE_NAMES: Record<string, string> = {
  apply: '下单',
  notify: '网关通知',
  query: '向网关查询',
  sweeper: '超时未支付',
  refund: '退款',
  'refund-notify': '退款通知',
  'refund-coins': '退款：阅币与会员',
  wechat_jsapi: '微信内支付',
};

const KIND_NAMES: Record<LedgerTransfer['kind'], string> = {
  recharge: '充值',
  bonus: '赠送',
  purchase: '购买',
  grant: '补发',
  revoke: '扣回',
};

const ACCOUNT_NAMES: Record<string, string> = {
  'system:payments': '系统：充值',
  'system:bonus': '系统：赠送',
  'system:sales': '系统：销售',
  'system:adjustments': '系统：调整',
};

function eventColor(e: OrderEvent) {
  if (e.detail.startsWith('refused') || e.detail.includes('failed')) return 'red';
  if (e.toStatus === 'paid' && e.fromStatus !== 'paid') return 'green';
  if (e.source.startsWith('refund') || e.source === 'offline') return 'orange';
  if (e.toStatus === 'expired' || e.toStatus === 'cancelled') return 'gray';
  return 'blue';
}

/** One event: where it came from, the state change, the detail, and what the gateway said (folded). */
function EventBody({ event }: { event: OrderEvent }) {
  return (
    <Space direction="vertical" size={4} style={{ width: '100%' }}>
      <Space size={8} wrap>
        <Typography.Text strong>{SOURCE_NAMES[event.source] ?? event.source}</Typography.Text>
        {event.fromStatus === event.toStatus ? (
          <Typography.Text type="secondary">状态不变</Typography.Text>
        ) : (
          <Space size={4}>
            {event.fromStatus && <StateTag state={event.fromStatus} />}
            {event.fromStatus && <span>→</span>}
            <StateTag state={event.toStatus} />
          </Space>
        )}
      </Space>
      {event.detail && (
        <Typography.Text type="secondary" style={{ wordBreak: 'break-all' }}>
          {event.detail}
        </Typography.Text>
      )}
      {event.payload !== null && event.payload !== undefined && (
        <Collapse
          size="small"
          items={[
            {
              key: 'payload',
              label: '网关报文',
              children: <pre className="json-block">{JSON.stringify(event.payload, null, 2)}</pre>,
            },
          ]}
        />
      )}
    </Space>
  );
}

/** A refund's request id: made once when the form opens, so a second submit of it refunds once. */
function newRequestId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `console-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

interface RefundFields {
  /** Yuan, two decimals. */
  amount: number;
  reason: string;
  /** 收回阅币 or 保留阅币: the operator chooses, nothing is preselected. */
  coins: 'take' | 'keep';
}

/** What a refund did to the coins the order brought, as the refunds table says it. */
function coinsOf(r: Refund) {
  if (r.coins === 'keep') return '保留阅币';
  return r.coinsTaken === null ? '收回阅币（待退款成功）' : `收回 ${r.coinsTaken} 阅币`;
}

const refundColumns: TableColumnsType<Refund> = [
  {
    title: '退款单号',
    dataIndex: 'refundNo',
    render: (no: string) => <Typography.Text copyable>{no}</Typography.Text>,
  },
  { title: '金额', dataIndex: 'amount', width: 100, align: 'right', render: (c: number) => yuan(c) },
  { title: '原因', dataIndex: 'reason', ellipsis: true },
  {
    title: '状态',
    dataIndex: 'state',
    width: 90,
    render: (s: Refund['state']) => (
      <Tag color={s === 'success' ? 'success' : s === 'failed' ? 'error' : 'processing'}>
        {REFUND_STATE_NAMES[s]}
      </Tag>
    ),
  },
  {
    title: '方式',
    dataIndex: 'kind',
    width: 100,
    render: (k: Refund['kind']) => (k === 'offline' ? <Tag color="purple">线下已退款</Tag> : '原路退回'),
  },
  { title: '阅币', key: 'coins', width: 150, render: (_: unknown, r: Refund) => coinsOf(r) },
  { title: '网关退款号', dataIndex: 'gatewayRefundNo', render: (n: string | null) => n ?? '-' },
  { title: '操作人', dataIndex: 'actor', width: 110 },
  {
    title: inChinaTime('时间'),
    dataIndex: 'createdAt',
    width: 190,
    render: (at: string) => dateTime(at, true),
  },
];

const ledgerColumns: TableColumnsType<LedgerTransfer> = [
  {
    title: '转账',
    dataIndex: 'transferId',
    render: (id: string) => <Typography.Text code>{id}</Typography.Text>,
  },
  { title: '类型', dataIndex: 'kind', width: 80, render: (k: LedgerTransfer['kind']) => KIND_NAMES[k] },
  { title: '阅币', dataIndex: 'amount', width: 90, align: 'right' },
  {
    title: '分录（两边之和为 0）',
    dataIndex: 'entries',
    render: (entries: LedgerTransfer['entries']) => (
      <Space direction="vertical" size={0}>
        {entries.map((e) => (
          <span key={e.account}>
            {ACCOUNT_NAMES[e.account] ?? e.account.replace(/^user:/, '读者 ')}{' '}
            <Typography.Text type={e.amount > 0 ? 'success' : 'secondary'}>
              {e.amount > 0 ? `+${e.amount}` : e.amount}
            </Typography.Text>
          </span>
        ))}
      </Space>
    ),
  },
  {
    title: inChinaTime('时间'),
    dataIndex: 'createdAt',
    width: 190,
    render: (at: string) => dateTime(at, true),
  },
];

/** The whole story of an order: what was bought, every event with the gateway's messages, refunds, the ledger. */
export default function OrderPage() {
  // By the whole number (owners' links, a number a reader tells) or by id (the links of roles that see numbers in part).
  const params = useParams();
  const orderNo = params.orderNo ?? '';
  const byId = params.id === undefined ? undefined : Number(params.id);
  const navigate = useNavigate();
  const { message } = App.useApp();
  const canRefund = useCan(REFUNDERS);
  const [story, setStory] = useState<OrderStory>();
  const [missing, setMissing] = useState(false);
  // Which form is open: a refund through the gateway, or marking one made outside (线下已退款).
  const [refunding, setRefunding] = useState<false | 'gateway' | 'offline'>(false);
  const requestId = useRef('');
  const [refundForm] = Form.useForm<RefundFields>();

  const load = useCallback(async () => {
    const found = await shown(
      byId === undefined
        ? call(adminRoutes.order, { params: { orderNo } })
        : call(adminRoutes.orderById, { params: { id: byId } }),
    );
    if (found) setStory(found);
    else setMissing(true);
  }, [byId, orderNo]);

  useEffect(() => {
    load();
  }, [load]);

  const back = () => navigate('/orders');
  if (missing) {
    return (
      <PageContainer title="订单详情" onBack={back}>
        <Empty description="订单不存在" />
      </PageContainer>
    );
  }
  if (!story) {
    return (
      <PageContainer title="订单详情">
        <Skeleton active />
      </PageContainer>
    );
  }
  const { order, user, refund } = story;

  const openRefund = (how: 'gateway' | 'offline') => {
    requestId.current = newRequestId();
    setRefunding(how);
  };
  const offline = refunding === 'offline';
  // VIP and card orders bring days, not coins: their refund has no coins choice.
  const vip = order.purpose === 'vip';
  const days = order.purpose !== 'coin';
  // The gateway cannot refund this paid order: it can be marked refunded outside instead.
  const outsideOnly =
    order.state === 'paid' && refund.left > 0 && refund.refusal !== null && refund.processing === 0;

  const submitRefund = async (values: RefundFields) => {
    const answer = await shown(
      call(
        adminRoutes.refund,
        {
          params: { orderNo: order.orderNo },
          body: {
            amount: centsOf(values.amount),
            reason: values.reason.trim(),
            requestId: requestId.current,
            coins: days ? 'keep' : values.coins,
            ...(offline ? { offline: true } : {}),
          },
        },
        { form: refundForm },
      ),
    );
    // Refused (shown already): the form stays open with the same request id, so sending it again is the same refund.
    if (!answer) return false;
    const { state, amount } = answer.refund;
    if (state === 'success') message.success(`${offline ? '已标记线下退款' : '已退款'} ${yuan(amount)}`);
    else if (state === 'processing') message.info('退款处理中：结果以支付网关为准，稍后刷新查看');
    else message.error('支付网关拒绝了这笔退款，详见订单经过');
    setRefunding(false);
    await load();
    return true;
  };

  const items: DescriptionsProps['items'] = [
    {
      key: 'orderNo',
      label: '订单号',
      children: <Typography.Text copyable={canRefund}>{order.orderNo}</Typography.Text>,
    },
    {
      key: 'state',
      label: '状态',
      children: <StateTag state={order.state} refunded={story.refund.refunded} paid={order.payAmount} />,
    },
    {
      key: 'content',
      label: '内容',
      children: `${contentOf(order)}（${order.packTitle}，套餐 ${order.packId}）`,
    },
    {
      key: 'amount',
      label: '金额',
      children: (
        <Space size={8}>
          <Typography.Text strong>实付 {yuan(order.payAmount)}</Typography.Text>
          {order.amountLevel !== order.payAmount && (
            <Typography.Text type="secondary">原价 {yuan(order.amountLevel)}</Typography.Text>
          )}
        </Space>
      ),
    },
    {
      key: 'refunded',
      label: '退款',
      children: (
        <Space size={8} wrap>
          <span>已退 {yuan(refund.refunded)}</span>
          {refund.processing > 0 && <Tag color="processing">处理中 {yuan(refund.processing)}</Tag>}
          {order.state === 'paid' && (
            <Typography.Text type="secondary">可退 {yuan(refund.left)}</Typography.Text>
          )}
        </Space>
      ),
    },
    {
      key: 'user',
      label: '读者',
      children: (
        <Space size={8} wrap>
          <span>
            {user.account}（ID {user.id}）
          </span>
          {user.vipEnd && <Typography.Text type="secondary">VIP 至 {dateTime(user.vipEnd)}</Typography.Text>}
        </Space>
      ),
    },
    { key: 'channel', label: '支付渠道', children: `${order.channelName}（${order.channel}）` },
    { key: 'gateway', label: '网关', children: order.gateway },
    {
      key: 'tradeNo',
      label: '网关交易号',
      children: order.gatewayTradeNo ? (
        <Typography.Text copyable>{order.gatewayTradeNo}</Typography.Text>
      ) : (
        '-'
      ),
    },
    { key: 'branch', label: '推广渠道', children: branchLabel(order.branchId, order.branchName) },
    { key: 'appType', label: '客户端', children: order.appType },
    { key: 'fromDomain', label: '来源域名', children: order.fromDomain || '-' },
    { key: 'createdAt', label: '下单时间', children: dateTime(order.createdAt, true) },
    { key: 'paidAt', label: '支付时间', children: dateTime(order.paidAt, true) },
    { key: 'expiresAt', label: '支付截止', children: dateTime(order.expiresAt, true) },
    { key: 'checkedAt', label: '最近向网关查询', children: dateTime(order.checkedAt, true) },
    { key: 'clientIp', label: '客户端地址', children: order.clientIp || '-' },
    { key: 'traceId', label: '访客 ID', children: order.traceId || '-' },
  ].filter((item) => canRefund || item.key !== 'refunded');

  // Only roles that refund see the buttons (the server refuses the others anyway).
  const refundButton =
    canRefund &&
    (outsideOnly ? (
      <Tooltip key="offline" title={`${refund.refusal}：钱已在线下退给读者时，在此记录`}>
        <Button danger onClick={() => openRefund('offline')}>
          标记线下已退款
        </Button>
      </Tooltip>
    ) : (
      <Tooltip key="refund" title={refund.refusal ?? undefined}>
        <Button
          type="primary"
          danger
          disabled={refund.refusal !== null}
          onClick={() => openRefund('gateway')}
        >
          退款
        </Button>
      </Tooltip>
    ));

  return (
    <PageContainer
      title={`订单 ${order.orderNo}`}
      onBack={back}
      tags={<StateTag state={order.state} refunded={story.refund.refunded} paid={order.payAmount} />}
      extra={[
        <Button key="reload" onClick={load}>
          刷新
        </Button>,
        refundButton,
      ]}
    >
      <ProCard title="订单" subTitle="时间均为北京时间" bordered style={{ marginBottom: 16 }}>
        <Descriptions size="small" column={3} items={items} data-testid="order-facts" />
      </ProCard>
      <ProCard
        title="经过"
        subTitle="时间顺序（北京时间）；展开查看网关报文"
        bordered
        style={{ marginBottom: 16 }}
      >
        <Timeline
          data-testid="order-events"
          items={story.events.map((e) => ({
            key: e.id,
            color: eventColor(e),
            children: (
              <>
                <Typography.Text type="secondary">{dateTime(e.at, true)}</Typography.Text>
                <EventBody event={e} />
              </>
            ),
          }))}
        />
      </ProCard>
      {canRefund && (
        <ProCard
          title="退款"
          subTitle="原路退回付款人，或记录线下退款；退款时选择收回或保留阅币"
          bordered
          style={{ marginBottom: 16 }}
        >
          <Table<Refund>
            rowKey="refundNo"
            size="small"
            columns={refundColumns}
            dataSource={story.refunds}
            pagination={false}
            locale={{ emptyText: '没有退款' }}
            data-testid="order-refunds"
          />
        </ProCard>
      )}
      <ProCard title="账本" subTitle="这笔订单记入阅币账本的转账" bordered>
        {story.ledger.length > 0 ? (
          <Table<LedgerTransfer>
            rowKey="transferId"
            size="small"
            columns={ledgerColumns}
            dataSource={story.ledger}
            pagination={false}
            data-testid="order-ledger"
          />
        ) : (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={
              order.state !== 'paid'
                ? '未支付，没有入账'
                : order.purpose === 'vip'
                  ? 'VIP 订单不记入阅币账本：天数加在读者的 VIP 到期时间上'
                  : order.purpose === 'card'
                    ? '月卡订单不记入阅币账本：天数加在读者的月卡上，每日领取的阅币另行入账'
                    : '没有入账记录'
            }
          />
        )}
      </ProCard>

      <ModalForm<RefundFields>
        name="refund"
        title={`${offline ? '标记线下已退款' : '退款'}：${order.orderNo}`}
        open={refunding !== false}
        form={refundForm}
        initialValues={{ amount: refund.left / 100, reason: '' }}
        width={520}
        layout="horizontal"
        labelCol={{ span: 6 }}
        modalProps={{ destroyOnHidden: true, maskClosable: false }}
        submitter={{ searchConfig: { submitText: offline ? '确认已线下退款' : '确认退款' } }}
        onOpenChange={(isOpen) => {
          if (!isOpen) setRefunding(false);
        }}
        onFinish={submitRefund}
      >
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message={offline ? '只记录，不经支付网关退钱' : '钱原路退回付款人的支付账户'}
          description={`${
            offline ? '这笔订单的支付网关不能原路退款：钱须已在线下退给读者，这里记下金额和原因。' : ''
          }${
            vip
              ? '会员订单退款后，读者的会员到期时间提前这笔订单给的天数。'
              : days
                ? '月卡订单退款后，扣回这笔订单给的、读者尚未领取的天数；已领取的奖励不收回。'
                : '请选择收回或保留这笔订单带来的阅币：收回只扣读者尚未花掉的部分，不会扣成负数。'
          }同一次提交重复点击只会退一次。`}
        />
        <ProFormDigit
          name="amount"
          label="退款金额（元）"
          min={0.01}
          max={refund.left / 100}
          fieldProps={{ precision: 2, step: 1, style: { width: 200 } }}
          extra={`最多可退 ${yuan(refund.left)}（实付 ${yuan(order.payAmount)}）`}
          rules={[{ required: true, message: '请输入退款金额' }]}
        />
        <ProFormTextArea
          name="reason"
          label="原因"
          placeholder="例如：用户申请，重复支付"
          fieldProps={{ maxLength: 80, showCount: true, rows: 2 }}
          rules={[
            { required: true, message: '请输入退款原因' },
            { whitespace: true, message: '请输入退款原因' },
          ]}
        />
        {!days && (
          <ProFormRadio.Group
            name="coins"
            label="阅币"
            radioType="button"
            options={[
              { label: '收回阅币', value: 'take' },
              { label: '保留阅币', value: 'keep' },
            ]}
            extra="收回：扣回这笔订单带来的、读者尚未花掉的阅币"
            rules={[{ required: true, message: '请选择收回或保留阅币' }]}
          />
        )}
      </ModalForm>
    </PageContainer>
  );
}
